/**
 * One microstep (SCXML's, as XState v5 runs it) for a set of non-conflicting
 * transitions: exit the exit set innermost first (history recorded before
 * any exit; exit actions, then timers cancelled and invocations stopped),
 * run the transitions' actions in selection order, enter the entry set
 * outermost first (entry actions, then timers scheduled and invocations
 * started; done events queued when a final state is entered).
 *
 * The exit and entry sets are XState's (exits.ts, entry.ts); a transition
 * whose sets do not depend on history has them precomputed (plans.ts).
 */
import { runActions } from './actions.js';
import { completeRun, finalEntered } from './done.js';
import { addEntrySet } from './entry.js';
import { markExitSet } from './exits.js';
import { recordHistory } from './history.js';
import { cancelInvocations, startInvocations } from './invoke.js';
import { planOf } from './plans.js';
import type { ChartEvent, RunState } from './run-state.js';
import type { TransitionRow } from './table.js';
import { ROOT } from './table.js';
import { cancelTimers, scheduleTimers } from './timers.js';

/**
 * Runs one microstep. Returns whether it changed anything XState would see
 * as a new snapshot (the configuration, the context, history, invocations),
 * which decides whether eventless transitions are looked for again.
 */
export function microstep(rs: RunState, transitions: readonly TransitionRow[], event: ChartEvent, initial = false): boolean {
  if (!transitions.length) return false;
  for (const t of transitions) {
    if (t.broken) {
      rs.fail(t.broken);
      return true;
    }
  }
  rs.transitioned = true;
  rs.regular = undefined;
  rs.touched = false;
  rs.historyTouched = false;

  for (const t of transitions) {
    if (t.index < 0) continue;
    rs.effect({
      type: 'transition',
      source: rs.node(t.source).id,
      index: t.index,
      trigger: t.label,
      event: event.binding.type,
      targets: t.targetIds,
    });
  }
  const exited = initial ? NONE : exitStates(rs, transitions, event);
  // The stamps of the exited states, in case the same states are entered again (see below).
  const exitedStamps: number[] = [];
  for (const s of exited) exitedStamps.push(rs.stamps[s] as number);
  for (const t of transitions) if (t.actions.length) runActions(rs, t.actions, event, rs.node(t.source).id);
  const toEnter = rs.table.buffers.flags();
  markEntrySets(rs, transitions, toEnter);
  let reentered = true;
  for (let i = 0; reentered && i < exited.length; i++) reentered = toEnter[exited[i] as number] === 1;
  const entered = enterStates(rs, toEnter, event);
  rs.table.buffers.releaseFlags(toEnter, true);
  if (rs.status === 'done') completeRun(rs, event);

  // The same states as before (every exited state entered again, no other): XState's node list did not change.
  const sameSet = reentered && entered === exited.length;
  if (sameSet && !rs.historyTouched) {
    // XState keeps its previous node list (and so the previous entry order) when nothing changed in it.
    for (let i = 0; i < exited.length; i++) rs.stamps[exited[i] as number] = exitedStamps[i] as number;
  } else {
    rs.step++;
  }
  return rs.touched || rs.historyTouched || !sameSet || rs.status !== 'running';
}

/**
 * Marks the entry sets of `transitions`, in order. A planned set stands for
 * the computation when nothing marked before can change it: the first
 * transition's, or one that completes no parallel state's regions.
 */
function markEntrySets(rs: RunState, transitions: readonly TransitionRow[], toEnter: Uint8Array): void {
  for (let k = 0; k < transitions.length; k++) {
    const t = transitions[k] as TransitionRow;
    const plan = planOf(rs.table, t);
    if (plan && (k === 0 || !plan.fillsRegions)) {
      for (const s of plan.entry) toEnter[s] = 1;
    } else {
      addEntrySet(rs, t, toEnter);
    }
  }
}

const NONE: readonly number[] = [];

/** Exits the states `transitions` exit, innermost first; returns them. */
function exitStates(rs: RunState, transitions: readonly TransitionRow[], event: ChartEvent): readonly number[] {
  const marks = rs.table.buffers.flags();
  for (const t of transitions) markExitSet(rs, t, marks);
  let exiting: number[] | undefined;
  for (let s = marks.length - 1; s >= 0; s--) {
    if (!marks[s]) continue;
    marks[s] = 0;
    (exiting ??= []).push(s);
  }
  rs.table.buffers.releaseFlags(marks, true);
  if (!exiting) return NONE;
  for (const s of exiting) recordHistory(rs, s);
  for (const s of exiting) {
    const node = rs.node(s);
    if (s !== ROOT) rs.effect({ type: 'exit', state: node.id });
    runActions(rs, node.exit, event, node.id);
    cancelTimers(rs, s);
    cancelInvocations(rs, s);
    rs.active[s] = 0;
  }
  return exiting;
}

/** Enters the states marked in `toEnter` (clearing the marks), outermost first (document order); returns how many were not active. */
function enterStates(rs: RunState, toEnter: Uint8Array, event: ChartEvent): number {
  const stamp = rs.step + 1;
  let count = 0;
  let completed: Set<number> | undefined;
  for (let s = 0; s < toEnter.length; s++) {
    if (!toEnter[s]) continue;
    toEnter[s] = 0;
    const node = rs.node(s);
    // XState can "enter" a state that is still active (a history default that is the source itself):
    // its entry actions run, but the configuration, and the state's place in it, do not change.
    if (!rs.active[s]) {
      count++;
      rs.active[s] = 1;
      rs.stamps[s] = stamp;
    }
    if (s !== ROOT) rs.effect({ type: 'enter', state: node.id });
    runActions(rs, node.entry, event, node.id);
    scheduleTimers(rs, s, event);
    startInvocations(rs, s, event);
    if (node.kind === 'final') finalEntered(rs, s, (completed ??= new Set()));
  }
  return count;
}
