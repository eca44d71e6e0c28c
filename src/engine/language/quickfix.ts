/**
 * Quick fixes for the validator's diagnostics, chosen by code (and `data`):
 * - unknown-target / unknown-initial: change to the closest state; create the state
 * - unknown-guard: change to the closest guard; define the guard
 * - no-final-state: add a final state and a transition to it
 * - unreachable-state: remove the state
 * - fork-terminal-not-final: make the terminal state final (when it has no transitions to lose)
 * - any diagnostic with `data.closest` on a name (unknown field, invalid value): use it
 * Each fix's edits leave a file that loads and validates without new errors.
 */
import type { Diagnostic, JsonValue, Workflow } from '../model/index.js';
import { applyEdits, diffEdit, jsonStringContents, setValue, type TextEdit } from './edits.js';
import { occurrences } from './occurrences.js';
import { runReachable } from './reach.js';
import { invalidName } from './rename.js';

export interface CodeFix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
  /** The fix an editor applies with "auto fix" (the obvious one). */
  readonly preferred?: boolean;
}

type JsonPath = (string | number)[];
/** One change below the workflow object: set a value, or remove it (`undefined`). */
type Step = readonly [path: JsonPath, value: unknown];

export function quickFixes(text: string, wf: Workflow | undefined, d: Diagnostic): CodeFix[] {
  const fixes: CodeFix[] = [];
  const closest = d.data?.['closest'];
  const written = nameAt(text, d);
  if (typeof closest === 'string' && written !== undefined) {
    fixes.push({ title: `Change to \`${closest}\``, edits: [{ start: d.loc.start, end: d.loc.end, newText: jsonStringContents(closest) }], preferred: true });
  }
  if (!wf) return fixes;
  switch (d.code) {
    case 'unknown-target':
    case 'unknown-initial':
      if (written !== undefined && !invalidName(wf, 'state', written)) fixes.push(createState(text, wf, d, written));
      break;
    case 'unknown-guard':
      if (written !== undefined && !invalidName(wf, 'guard', written)) fixes.push(defineGuard(text, wf, written));
      break;
    case 'no-final-state':
      fixes.push(addFinalState(text, wf));
      break;
    case 'fork-terminal-not-final': {
      const state = written === undefined ? undefined : wf.states.get(written);
      // A final state with transitions is an error of its own (`final-state-transition`): only offer it when nothing is lost.
      if (state && state.on.length === 0 && !state.safeNext) {
        fixes.push({ title: `Make \`${state.id}\` a final state`, edits: combine(text, wf, [[['states', state.id, 'type'], 'final']]), preferred: true });
      }
      break;
    }
    case 'unreachable-state': {
      const fix = removeState(text, wf, typeof d.data?.['state'] === 'string' ? d.data['state'] : (written ?? ''));
      if (fix) fixes.push(fix);
      break;
    }
  }
  return fixes;
}

/** The name a diagnostic points at, when its range is the contents of a string literal. */
function nameAt(text: string, d: Diagnostic): string | undefined {
  if (text[d.loc.start - 1] !== '"' || text[d.loc.end] !== '"') return undefined;
  try {
    const v: unknown = JSON.parse(text.slice(d.loc.start - 1, d.loc.end + 1));
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

function createState(text: string, wf: Workflow, d: Diagnostic, name: string): CodeFix {
  // A fork branch's terminal must be final (`fork-terminal-not-final`); other new states start empty.
  const slot = occurrences(wf).find((o) => o.loc.start === d.loc.start && o.kind === 'state')?.slot;
  const value: JsonValue = slot === 'fork-terminal' ? { type: 'final' } : { instructions: `TODO: what the agent does in ${name}.`, on: {} };
  return { title: `Create state \`${name}\``, edits: combine(text, wf, [[['states', name], value]]) };
}

function defineGuard(text: string, wf: Workflow, name: string): CodeFix {
  // Test a context field when there is one to test; `exists` needs no value to be right.
  const field = Object.keys(wf.context)[0] ?? name;
  return { title: `Define guard \`${name}\``, edits: combine(text, wf, [[['guards', name], { field, op: 'exists' }]]) };
}

function addFinalState(text: string, wf: Workflow): CodeFix {
  const name = unique('done', (n) => wf.states.has(n) || !!wf.skippedStates?.has(n));
  // Lead to it from a reachable dead end (a state with nowhere to go) if there is one, else from the
  // last reachable state, so no `unreachable-state` error replaces the one fixed.
  const reachable = runReachable(wf);
  const states = [...wf.states.values()].filter((s) => reachable.has(s.id)).reverse();
  const from = states.find((s) => s.on.length === 0 && !s.safeNext) ?? states[0];
  const steps: Step[] = [[['states', name], { type: 'final' }]];
  let title = `Add final state \`${name}\``;
  if (from) {
    const event = unique('DONE', (e) => from.on.some((t) => t.event === e));
    steps.push([['states', from.id, 'on', event], name]);
    title += ` (reached from \`${from.id}\` on \`${event}\`)`;
  }
  return { title, edits: combine(text, wf, steps), preferred: true };
}

function removeState(text: string, wf: Workflow, name: string): CodeFix | undefined {
  if (!wf.states.has(name)) return undefined;
  const refs = occurrences(wf).filter((o) => o.kind === 'state' && o.name === name && o.role === 'reference');
  // References from other states would turn into `unknown-target` errors: removing is then not a fix.
  if (refs.some((o) => o.owner !== undefined && o.owner !== name)) return undefined;
  const listed = (wf.meta.failureStates ?? []).map((s, i) => [s, i] as const).filter(([s]) => s === name);
  // Remove list items from the last so earlier indices stay valid.
  const steps: Step[] = [[['states', name], undefined], ...listed.reverse().map(([, i]): Step => [['meta', 'failure_states', i], undefined])];
  return { title: `Remove unreachable state \`${name}\``, edits: combine(text, wf, steps) };
}

function unique(base: string, taken: (name: string) => boolean): string {
  if (!taken(base)) return base;
  for (let i = 2; ; i++) if (!taken(`${base}_${i}`)) return `${base}_${i}`;
}

/**
 * Applies the steps one after another (each on the text the previous one
 * produced, so jsonc-parser's edits never overlap) and returns the whole
 * change as one edit of the original text.
 */
function combine(text: string, wf: Workflow, steps: readonly Step[]): TextEdit[] {
  let out = text;
  for (const [path, value] of steps) out = applyEdits(out, setValue(out, wf, path, value));
  return diffEdit(text, out);
}
