/**
 * Semantic rules on the IR (what a schema cannot say): names that must exist,
 * shapes that cannot work at run time, unreachable parts. Each rule has a
 * stable code (docs/format.md lists them) and points at the exact range.
 */
import { LIMIT_FIELDS } from './formats/statewright-fields.js';
import { transitionGuards, type Diagnostic, type InvokeResolver, type StateNode, type Workflow } from './model.js';
import { closestName, didYouMean } from './suggest.js';
import { invokeRules } from './validate-invoke.js';
import { reachabilityRules } from './validate-reach.js';
import { isReturn, targetSites, type TargetSite } from './validate-sites.js';

export interface ValidateOptions {
  /** Finds invoked workflows; without it invoke names are not checked. */
  readonly resolveInvoke?: InvokeResolver;
  /** The checked file's path, to recognise it when an invoke chain comes back to it. */
  readonly file?: string;
}

export function validateWorkflow(wf: Workflow, opts: ValidateOptions = {}): Diagnostic[] {
  const sites = targetSites(wf);
  return [
    ...initialRule(wf),
    ...finalRule(wf),
    ...sites.flatMap((s) => targetRule(wf, s)),
    ...[...wf.states.values()].flatMap((s) => stateRules(wf, s)),
    ...reachabilityRules(wf, sites),
    ...(opts.resolveInvoke ? invokeRules(wf, opts.resolveInvoke, opts.file) : []),
  ];
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
  if ([...wf.states.values()].some((s) => s.kind === 'final')) return [];
  return [
    {
      severity: 'error',
      code: 'no-final-state',
      message: 'The workflow has no final state, so a run can never complete. Add a state with `"type": "final"` (e.g. `"done": {"type": "final"}`).',
      loc: wf.statesLoc ?? wf.initial.loc,
    },
  ];
}

function targetRule(wf: Workflow, site: TargetSite): Diagnostic[] {
  const { ref } = site;
  if (isReturn(ref)) {
    if (site.returnAllowed) return []; // checked by the reachability rules
    return [
      {
        severity: 'error',
        code: 'return-not-allowed',
        message: `\`$return\` is only a target of event transitions; ${site.label} must name a state.`,
        loc: ref.loc,
      },
    ];
  }
  if (wf.states.has(ref.name) || wf.skippedStates?.has(ref.name)) return [];
  if (ref.name === '') {
    return [{ severity: 'error', code: 'unknown-target', message: `The target of ${site.label} is empty; name a state defined under \`states\`.`, loc: ref.loc }];
  }
  const closest = closestName(ref.name, stateNames(wf));
  return [
    {
      severity: 'error',
      code: 'unknown-target',
      message: `State \`${ref.name}\` (${site.label}) is not defined under \`states\`.${didYouMean(closest)}`,
      loc: ref.loc,
      ...(closest !== undefined ? { data: { closest } } : {}),
    },
  ];
}

function stateRules(wf: Workflow, state: StateNode): Diagnostic[] {
  return [...finalTransitionRule(state), ...limitRule(state), ...state.on.flatMap((t) => transitionRules(wf, state, t))];
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
function limitRule(state: StateNode): Diagnostic[] {
  const values: Record<(typeof LIMIT_FIELDS)[number], number | undefined> = {
    max_iterations: state.rules.maxIterations,
    max_edit_lines: state.rules.maxEditLines,
    max_files_per_state: state.rules.maxFilesPerState,
    context_budget_bytes: state.rules.contextBudgetBytes,
    turn_cap: state.turnCap,
  };
  return LIMIT_FIELDS.flatMap((field) => {
    const value = values[field];
    if (value === undefined || (Number.isInteger(value) && value >= 1)) return [];
    return [
      {
        severity: 'error' as const,
        code: 'invalid-limit',
        message: `\`${field}\` must be a whole number of at least 1; found ${value}. Leave the field out for no limit.`,
        loc: state.fieldLocs?.[field] ?? state.keyLoc,
      },
    ];
  });
}

function transitionRules(wf: Workflow, state: StateNode, t: StateNode['on'][number]): Diagnostic[] {
  const out: Diagnostic[] = transitionGuards(t)
    .filter((g) => !wf.guards.has(g.name) && !wf.skippedGuards?.has(g.name))
    .map((g) => {
      const closest = closestName(g.name, [...wf.guards.keys()]);
      return {
        severity: 'error' as const,
        code: 'unknown-guard',
        message: `Guard \`${g.name}\` (\`${t.event}\` in state \`${state.id}\`) is not defined under \`guards\`; it would fail every time.${didYouMean(closest)}`,
        loc: g.loc,
        ...(closest !== undefined ? { data: { closest } } : {}),
      };
    });
  if (t.kind === 'branched') out.push(...branchRules(state, t));
  if (t.kind === 'fork') out.push(...forkRules(wf, state, t));
  return out;
}

function branchRules(state: StateNode, t: Extract<StateNode['on'][number], { kind: 'branched' }>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const where = `\`${t.event}\` in state \`${state.id}\``;
  if (t.branches.length === 0) {
    out.push({
      severity: 'error',
      code: 'empty-branches',
      message: `${where} has an empty branch array, so the event can never move the machine. Add branches \`{"target", "guard"}\`, ending with a default \`{"target"}\`.`,
      loc: t.loc,
    });
  }
  const defaultIndex = t.branches.findIndex((b) => b.guards.length === 0);
  const fallback = t.branches[defaultIndex];
  t.branches.slice(defaultIndex + 1).forEach((b, i) => {
    if (defaultIndex < 0 || !fallback) return;
    out.push({
      severity: 'warning',
      code: 'unreachable-branch',
      message: `Branch ${defaultIndex + i + 2} of ${where} can never be taken: the branch before it without guards always wins. Move the default branch last.`,
      loc: b.loc,
      related: [{ message: 'the default branch', loc: fallback.loc }],
    });
  });
  for (const b of t.branches) {
    if (!b.requiresApprovalLoc) continue;
    out.push({
      severity: 'error',
      code: 'approval-in-branch',
      message: `\`requires_approval\` is not supported inside a branch (${where}). Route the branch to a state whose transition has \`requires_approval\` instead.`,
      loc: b.requiresApprovalLoc,
    });
  }
  return out;
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
