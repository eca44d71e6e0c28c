/**
 * Which transitions an event enables, as XState v5 selects them.
 *
 * An event: from the root down the active configuration; a compound state
 * asks its active child first and uses its own transitions only if the child
 * found none; a parallel state asks every region (document order) and uses
 * its own only if no region found one. At one node the candidates are the
 * transitions on the exact event name, then the wildcard ones (`*` and
 * `a.*`, longest first); the first whose guard passes is taken. Wildcards
 * match sent and raised events only, never done, timer or invocation events.
 *
 * Eventless (`always`): every active atomic state, in the order the states
 * were entered, walks up to the root and takes the first enabled `always`
 * transition it meets.
 *
 * Either way, conflicting transitions (exit sets that overlap) are then
 * resolved: a transition from a descendant beats one from its ancestor,
 * otherwise the earlier one wins.
 *
 * A guard that fails to evaluate counts as false; the failure is journaled.
 */
import { evaluateGuard } from './expressions.js';
import { exitSetsOverlap } from './exits.js';
import type { ChartEvent, RunState } from './run-state.js';
import type { NodeRow, TransitionRow } from './table.js';
import { ROOT, isDescendant, matchesWildcard } from './table.js';
import { isRegular, valueOf, type StateValue } from './value.js';

const NONE: readonly TransitionRow[] = [];

/** The transitions `event` enables, conflicts removed. */
export function selectTransitions(rs: RunState, event: ChartEvent): TransitionRow[] {
  const out: TransitionRow[] = [];
  if (isRegular(rs)) selectIn(rs, ROOT, event, out);
  else selectByValue(rs, ROOT, valueOf(rs), event, out);
  return out.length > 1 ? removeConflicts(rs, out) : out;
}

/** The enabled eventless transitions, conflicts removed (`event` is the last event processed, for guards). */
export function selectEventless(rs: RunState, event: ChartEvent): readonly TransitionRow[] {
  if (!rs.table.hasAlways) return NONE;
  const enabled: TransitionRow[] = [];
  for (const atomic of rs.eventlessCandidates()) {
    walk: for (let s = atomic; s >= 0; s = rs.node(s).parent) {
      for (const t of rs.node(s).always) {
        if (passes(rs, t, event)) {
          if (!enabled.includes(t)) enabled.push(t);
          break walk;
        }
      }
    }
  }
  return enabled.length > 1 ? removeConflicts(rs, enabled) : enabled;
}

/** Selects within active node `index`; true when something was selected. */
function selectIn(rs: RunState, index: number, event: ChartEvent, out: TransitionRow[]): boolean {
  const node = rs.node(index);
  if (node.kind === 'parallel') {
    let found = false;
    for (const region of node.states) if (rs.active[region] && selectIn(rs, region, event, out)) found = true;
    if (found) return true;
  } else if (node.states.length) {
    const child = rs.activeChild(index);
    if (child >= 0 && selectIn(rs, child, event, out)) return true;
  }
  return pick(rs, node, event, out);
}

/**
 * XState's transitionNode, walking an irregular configuration's value (see
 * value.ts): a string is an atomic child, one key a compound state's child,
 * more keys (or none) a parallel state's regions.
 */
function selectByValue(rs: RunState, index: number, value: StateValue, event: ChartEvent, out: TransitionRow[]): boolean {
  const node = rs.node(index);
  if (typeof value === 'string') {
    const child = childByKey(rs, node, value);
    if (child >= 0 && pick(rs, rs.node(child), event, out)) return true;
    return pick(rs, node, event, out);
  }
  const keys = Object.keys(value);
  let found = false;
  for (const key of keys) {
    const child = childByKey(rs, node, key);
    if (child >= 0 && selectByValue(rs, child, value[key] as StateValue, event, out)) found = true;
    if (found && keys.length === 1) return true;
  }
  return found || pick(rs, node, event, out);
}

function childByKey(rs: RunState, node: NodeRow, key: string): number {
  for (const child of node.states) if (rs.node(child).key === key) return child;
  return -1;
}

/** The first enabled candidate of `node` for `event`, pushed to `out`. */
function pick(rs: RunState, node: NodeRow, event: ChartEvent, out: TransitionRow[]): boolean {
  const candidates = candidatesOf(node, event);
  for (const t of candidates) {
    if (passes(rs, t, event)) {
      out.push(t);
      return true;
    }
  }
  if (event.kind === 'event' && node.wildcards.length) {
    const type = event.binding.type;
    for (const wildcard of node.wildcards) {
      if (!matchesWildcard(type, wildcard.descriptor)) continue;
      for (const t of wildcard.transitions) {
        if (passes(rs, t, event)) {
          out.push(t);
          return true;
        }
      }
    }
  }
  return false;
}

function candidatesOf(node: NodeRow, event: ChartEvent): readonly TransitionRow[] {
  switch (event.kind) {
    case 'event':
      return node.exact.get(event.binding.type) ?? NONE;
    case 'done':
      return event.node === node.index ? node.done : NONE;
    case 'after':
      return event.node === node.index ? (node.after[event.group as number]?.transitions ?? NONE) : NONE;
    case 'invoke-done':
      return node.invokeDone.get(event.invokeId as string) ?? NONE;
    case 'invoke-error':
      return node.invokeError.get(event.invokeId as string) ?? NONE;
    case 'init':
      return NONE;
  }
}

function passes(rs: RunState, t: TransitionRow, event: ChartEvent): boolean {
  if (!t.guard) return true;
  const verdict = evaluateGuard(rs, t.guard.text, event.binding);
  if (verdict.ok) return verdict.pass;
  rs.effect({ type: 'guard-error', source: rs.node(t.source).id, index: t.index, guard: t.guard.text, message: verdict.message });
  return false;
}

/**
 * XState's removeConflictingTransitions: in order, a transition whose exit set
 * overlaps an already kept one replaces it when its source is a descendant of
 * that one's source, and is dropped otherwise.
 */
export function removeConflicts(rs: RunState, enabled: TransitionRow[]): TransitionRow[] {
  if (!anyOverlap(rs, enabled)) return enabled;
  const kept: TransitionRow[] = [];
  for (const t1 of enabled) {
    let preempted = false;
    let remove: TransitionRow[] | undefined;
    for (const t2 of kept) {
      if (!exitSetsOverlap(rs, t1, t2)) continue;
      if (isDescendant(rs.nodes, t1.source, t2.source)) {
        (remove ??= []).push(t2);
      } else {
        preempted = true;
        break;
      }
    }
    if (preempted) continue;
    if (remove) for (const t of remove) kept.splice(kept.indexOf(t), 1);
    kept.push(t1);
  }
  return kept;
}

/** Whether the exit sets of any two of `enabled` meet (if none do, every one is kept). */
function anyOverlap(rs: RunState, enabled: readonly TransitionRow[]): boolean {
  for (let i = 1; i < enabled.length; i++) {
    for (let j = 0; j < i; j++) if (exitSetsOverlap(rs, enabled[i] as TransitionRow, enabled[j] as TransitionRow)) return true;
  }
  return false;
}
