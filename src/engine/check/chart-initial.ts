/**
 * Rule 1: exactly one `initial` state for the machine and for each compound
 * state (regions included), naming one of its own children. (Two `initial`
 * keys in one object are the loader's `duplicate-key`.)
 */
import type { Diagnostic, NameRef, SourceLoc, StateNode, Workflow } from '../model/index.js';
import { closestName, didYouMean } from '../util/suggest.js';
import { childNamed } from './chart-walk.js';

export const CHART_INITIAL = 'chart-initial';

export function initialRule(wf: Workflow, out: Diagnostic[]): void {
  check(wf, undefined, wf.initial.name === '' ? undefined : wf.initial, wf.initial.loc, 'The statechart', out);
  for (const state of wf.states.values()) {
    if (state.kind !== 'compound') continue;
    const what = `${state.chart?.region ? 'Region' : 'Compound state'} \`${state.id}\``;
    check(wf, state, state.initial, state.keyLoc, what, out);
  }
}

function check(wf: Workflow, parent: StateNode | undefined, initial: NameRef | undefined, ownerLoc: SourceLoc, what: string, out: Diagnostic[]): void {
  const children = parent ? parent.children : wf.topLevel;
  const keys = children.map((id) => wf.states.get(id)?.key ?? id);
  if (children.length === 0) {
    // A compound state with nothing in it (`states: {}`): no initial state is possible; the root without states does not load.
    // (Children the loader left out, saying why, do not count as nothing.)
    if (parent && !hasSkippedChild(wf, parent)) out.push(diagnostic(`${what} has no child states, so it has no initial state. Add \`states\`, or make it atomic.`, ownerLoc));
    return;
  }
  if (!initial) {
    out.push(diagnostic(`${what} has no \`initial\`: name the child state it starts in (one of ${list(keys)}).`, ownerLoc, { field: 'initial' }));
    return;
  }
  if (childNamed(wf, parent, initial)) return;
  if (skipped(wf, parent, initial.name)) return; // the loader reported why that child is not there
  const closest = closestName(initial.name, keys);
  out.push(
    diagnostic(
      `The initial state \`${initial.name}\` of ${what.charAt(0).toLowerCase()}${what.slice(1)} is not one of its child states (${list(keys)}).${didYouMean(closest)}`,
      initial.loc,
      closest === undefined ? undefined : { closest },
    ),
  );
}

function skipped(wf: Workflow, parent: StateNode | undefined, name: string): boolean {
  return wf.skippedStates?.has(parent ? `${parent.id}.${name}` : name) ?? false;
}

function hasSkippedChild(wf: Workflow, parent: StateNode): boolean {
  const prefix = `${parent.id}.`;
  for (const id of wf.skippedStates ?? []) if (id.startsWith(prefix) && !id.includes('.', prefix.length)) return true;
  return false;
}

function list(keys: readonly string[]): string {
  const shown = keys.slice(0, 8).map((k) => `\`${k}\``);
  return keys.length > 8 ? `${shown.join(', ')}, …` : shown.join(', ');
}

function diagnostic(message: string, loc: SourceLoc, data?: Record<string, string>): Diagnostic {
  return { severity: 'error', code: CHART_INITIAL, message, loc, ...(data ? { data } : {}) };
}
