/**
 * Semantic rules on the IR (what a schema cannot say): names that must exist,
 * shapes that cannot work at run time, unreachable parts. Each rule has a
 * stable code (docs/format.md lists them) and points at the exact range.
 */
import { LIMIT_FIELDS } from '../formats/statewright-fields.js';
import type { Diagnostic, InvokeResolver, NameRef, StateNode, Workflow } from '../model/index.js';
import { closestName, didYouMean } from '../util/suggest.js';
import { invokeRules } from './invoke-rules.js';
import { reachabilityRules } from './reach-rules.js';
import { stageRules } from './stage-rules.js';
import { isReturn, targetSites, type TargetSite } from './sites.js';

export interface ValidateOptions {
  /** Finds invoked workflows; without it invoke names are not checked. */
  readonly resolveInvoke?: InvokeResolver;
  /** The checked file's path, to recognise it when an invoke chain comes back to it. */
  readonly file?: string;
}

export function validateWorkflow(wf: Workflow, opts: ValidateOptions = {}): Diagnostic[] {
  const sites = targetSites(wf);
  // One list, filled rule by rule in this order (rules push into it rather than each returning its own list).
  const out: Diagnostic[] = [...initialRule(wf), ...finalRule(wf)];
  for (const s of sites) targetRule(wf, s, out);
  for (const s of wf.states.values()) stateRules(wf, s, out);
  append(out, reachabilityRules(wf, sites));
  if (opts.resolveInvoke) append(out, invokeRules(wf, opts.resolveInvoke, opts.file));
  stageRules(wf, out);
  return out;
}

/** push(...items) without spreading a possibly long list as arguments. */
function append<T>(out: T[], items: readonly T[]): void {
  for (const item of items) out.push(item);
}

function stateNames(wf: Workflow): string[] {
  return [...wf.states.keys(), ...(wf.skippedStates ?? [])];
}

function initialRule(wf: Workflow): Diagnostic[] {
  const name = wf.initial.name;
  // '' means `initial` is missing or malformed: the loader has said so already.
  if (name === '' || wf.states.has(name) || wf.skippedStates?.has(name)) return [];
  const closest = closestName(name, stateNames(wf));
  return [
    {
      severity: 'error',
      code: 'unknown-initial',
      message: `The initial state \`${name}\` is not defined under \`states\`.${didYouMean(closest)}`,
      loc: wf.initial.loc,
      ...(closest !== undefined ? { data: { closest } } : {}),
    },
  ];
}

function finalRule(wf: Workflow): Diagnostic[] {
  for (const s of wf.states.values()) if (s.kind === 'final') return [];
  return [
    {
      severity: 'error',
      code: 'no-final-state',
      message: 'The workflow has no final state, so a run can never complete. Add a state with `"type": "final"` (e.g. `"done": {"type": "final"}`).',
      loc: wf.statesLoc ?? wf.initial.loc,
    },
  ];
}

function targetRule(wf: Workflow, site: TargetSite, out: Diagnostic[]): void {
  const { ref } = site;
  if (isReturn(ref)) {
    if (site.returnAllowed) return; // checked by the reachability rules
    out.push({
      severity: 'error',
      code: 'return-not-allowed',
      message: `\`$return\` is only a target of event transitions; ${site.label} must name a state.`,
      loc: ref.loc,
    });
    return;
  }
  if (wf.states.has(ref.name) || wf.skippedStates?.has(ref.name)) return;
  if (ref.name === '') {
    out.push({ severity: 'error', code: 'unknown-target', message: `The target of ${site.label} is empty; name a state defined under \`states\`.`, loc: ref.loc });
    return;
  }
  const closest = closestName(ref.name, stateNames(wf));
  out.push({
    severity: 'error',
    code: 'unknown-target',
    message: `State \`${ref.name}\` (${site.label}) is not defined under \`states\`.${didYouMean(closest)}`,
    loc: ref.loc,
    ...(closest !== undefined ? { data: { closest } } : {}),
  });
}

function stateRules(wf: Workflow, state: StateNode, out: Diagnostic[]): void {
  if (state.kind === 'final') append(out, finalTransitionRule(state));
  limitRule(state, out);
  for (const t of state.on) transitionRules(wf, state, t, out);
}

function finalTransitionRule(state: StateNode): Diagnostic[] {
  if (state.kind !== 'final') return [];
  const message = (what: string) =>
    `State \`${state.id}\` is final, so ${what} can never fire: a run ends in a final state. Remove it, or drop \`"type": "final"\`.`;
  return [
    ...state.on.map((t) => ({
      severity: 'error' as const,
      code: 'final-state-transition',
      message: message(`its transition \`${t.event}\``),
      loc: t.eventLoc,
    })),
    ...(state.safeNext
      ? [{ severity: 'error' as const, code: 'final-state-transition', message: message('`safe_next`'), loc: state.safeNext.loc }]
      : []),
  ];
}

/** Limits of 0 or fractions would make a state unusable or are typos; "no limit" is written by leaving the field out. */
function limitRule(state: StateNode, out: Diagnostic[]): void {
  const { rules } = state;
  for (const field of LIMIT_FIELDS) {
    const value =
      field === 'max_iterations'
        ? rules.maxIterations
        : field === 'max_edit_lines'
          ? rules.maxEditLines
          : field === 'max_files_per_state'
            ? rules.maxFilesPerState
            : rules.contextBudgetBytes;
    if (value === undefined || (Number.isInteger(value) && value >= 1)) continue;
    out.push({
      severity: 'error' as const,
      code: 'invalid-limit',
      message: `\`${field}\` must be a whole number of at least 1; found ${value}. Leave the field out for no limit.`,
      loc: state.fieldLocs?.[field] ?? state.keyLoc,
    });
  }
}

function transitionRules(wf: Workflow, state: StateNode, t: StateNode['on'][number], out: Diagnostic[]): void {
  if (t.kind === 'simple' || t.kind === 'guarded') {
    for (const g of t.guards) guardRule(wf, state, t, g, out);
  } else if (t.kind === 'branched') {
    for (const b of t.branches) for (const g of b.guards) guardRule(wf, state, t, g, out);
    branchRules(state, t, out);
  } else if (t.kind === 'fork') {
    append(out, forkRules(wf, state, t));
  }
}

/** A guard reference (in transitionGuards order) must name a guard under `guards`. */
function guardRule(wf: Workflow, state: StateNode, t: StateNode['on'][number], g: NameRef, out: Diagnostic[]): void {
  if (wf.guards.has(g.name) || wf.skippedGuards?.has(g.name)) return;
  const closest = closestName(g.name, [...wf.guards.keys()]);
  out.push({
    severity: 'error' as const,
    code: 'unknown-guard',
    message: `Guard \`${g.name}\` (\`${t.event}\` in state \`${state.id}\`) is not defined under \`guards\`; it would fail every time.${didYouMean(closest)}`,
    loc: g.loc,
    ...(closest !== undefined ? { data: { closest } } : {}),
  });
}

function branchRules(state: StateNode, t: Extract<StateNode['on'][number], { kind: 'branched' }>, out: Diagnostic[]): void {
  const where = (): string => `\`${t.event}\` in state \`${state.id}\``;
  if (t.branches.length === 0) {
    out.push({
      severity: 'error',
      code: 'empty-branches',
      message: `${where()} has an empty branch array, so the event can never move the machine. Add branches \`{"target", "guard"}\`, ending with a default \`{"target"}\`.`,
      loc: t.loc,
    });
  }
  const defaultIndex = t.branches.findIndex((b) => b.guards.length === 0);
  const fallback = t.branches[defaultIndex];
  if (defaultIndex >= 0 && fallback) {
    for (let i = defaultIndex + 1; i < t.branches.length; i++) {
      out.push({
        severity: 'warning',
        code: 'unreachable-branch',
        message: `Branch ${i + 1} of ${where()} can never be taken: the branch before it without guards always wins. Move the default branch last.`,
        loc: (t.branches[i] as (typeof t.branches)[number]).loc,
        related: [{ message: 'the default branch', loc: fallback.loc }],
      });
    }
  }
  for (const b of t.branches) {
    if (!b.requiresApprovalLoc) continue;
    out.push({
      severity: 'error',
      code: 'approval-in-branch',
      message: `\`requires_approval\` is not supported inside a branch (${where()}). Route the branch to a state whose transition has \`requires_approval\` instead.`,
      loc: b.requiresApprovalLoc,
    });
  }
}

function forkRules(wf: Workflow, state: StateNode, t: Extract<StateNode['on'][number], { kind: 'fork' }>): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (t.branches.length === 0) {
    out.push({
      severity: 'error',
      code: 'empty-fork',
      message: `The fork of \`${t.event}\` in state \`${state.id}\` has no branches. Add \`"branches": {"name": {"initial", "terminal"}}\`.`,
      loc: t.loc,
    });
  }
  for (const b of t.branches) {
    const terminal = wf.states.get(b.terminal.name);
    if (!terminal || terminal.kind === 'final') continue;
    out.push({
      severity: 'error',
      code: 'fork-terminal-not-final',
      message: `The terminal of fork branch \`${b.name}\`, state \`${b.terminal.name}\`, is not final, so the branch could move on after it is done. Give \`${b.terminal.name}\` \`"type": "final"\`.`,
      loc: b.terminal.loc,
      related: [{ message: `state \`${b.terminal.name}\``, loc: terminal.keyLoc }],
    });
  }
  return out;
}
