/**
 * Moving a position to a new state and what follows from it: counters, the
 * diagram trail, ending an interrupt, and what a final state means where it
 * is reached (the run completes or fails, a child returns to its parent, a
 * branch ends its part of a fork).
 */
import type { JsonValue, Workflow } from './model.js';
import { mergeShallow } from './jsonvalue.js';
import { handlerRegion } from './interrupts.js';
import { branchReachedFinal } from './fork.js';
import { completeChild } from './invoke.js';
import type { Op, Loc } from './cursor.js';
import { resetStateCounters } from './run.js';
import type { Frame, JournalEntry, RunStatus } from './run.js';

/**
 * A child run or a branch fails when it ends in a final state listed in
 * `meta.failure_states`, or, with no such list, in a state named `failed`.
 * The top-level run uses the same rule for its status.
 */
export function isFailureState(wf: Workflow, state: string): boolean {
  const list = wf.meta.failureStates;
  return list !== undefined ? list.includes(state) : state === 'failed';
}

export function isFinalState(wf: Workflow, state: string): boolean {
  return wf.states.get(state)?.kind === 'final';
}

/**
 * The leaf a target stands for: a compound state (statecharts) is entered
 * through its `initial` child, repeatedly. Flat workflows return `state` as is.
 */
export function settle(wf: Workflow, state: string): string {
  let cur = state;
  for (let depth = 0; depth < 64; depth++) {
    const node = wf.states.get(cur);
    if (node?.kind !== 'compound' || !node.initial) return cur;
    cur = node.initial.name;
  }
  return cur;
}

/** The parent's fallback when a child or fork fails without `on_fail`. */
export function failedStateOf(wf: Workflow): string | undefined {
  return wf.states.has('failed') ? 'failed' : undefined;
}

/**
 * Puts a position in `to`. A change of state resets the per-state counters; a
 * transition to the state it is already in (re-entry) keeps them, so an agent
 * cannot refill its `max_iterations` budget by looping on a self-transition.
 */
export function enterState(op: Op, loc: Loc, from: string, event: string, to: string): void {
  const pos = op.position(loc);
  pos.state = to;
  if (to !== from) resetStateCounters(pos.counters);
  const frame = op.frame(loc.frame);
  if (!frame.visited.includes(to)) frame.visited.push(to);
  if (!frame.taken.some((e) => e.from === from && e.event === event && e.to === to)) frame.taken.push({ from, event, to });
}

export interface Move {
  event: string;
  from: string;
  to: string;
  data?: JsonValue;
  via?: 'safe_next' | 'return' | 'approved' | 'advisory_approval';
}

/** Takes a transition at `loc`: merges the data, moves, ends an interrupt if it is left, journals. */
export function applyMove(op: Op, loc: Loc, wf: Workflow, move: Move, isReturn: boolean): void {
  const pos = op.position(loc);
  pos.context = mergeShallow(pos.context, move.data);
  const interrupt = pos.interrupt;
  // `$return` ends the interrupt; so does leaving the handler, i.e. entering a
  // state from which no `$return` can be reached any more (see interrupts.ts).
  const ends = interrupt !== undefined && (isReturn || !handlerRegion(wf).has(move.to));
  if (ends) delete pos.interrupt;
  enterState(op, loc, move.from, move.event, move.to);
  op.countTransition(loc);
  op.log(loc, {
    kind: 'transition',
    event: move.event,
    from: move.from,
    to: move.to,
    ...(move.data === undefined ? {} : { data: move.data }),
    ...(move.via ? { via: move.via } : {}),
    ...(ends && interrupt ? { endedInterrupt: interrupt.name } : {}),
  });
  if (ends && interrupt && isReturn) op.log(loc, { kind: 'interrupt_return', name: interrupt.name, from: move.from, to: move.to });
  afterMove(op, loc, wf);
}

/** What reaching the position's current state means, if it is final. */
export function afterMove(op: Op, loc: Loc, wf: Workflow): void {
  const pos = op.position(loc);
  if (!isFinalState(wf, pos.state)) return;
  if (loc.branch !== undefined) {
    branchReachedFinal(op, loc);
    return;
  }
  finishFrame(op, loc.frame, wf);
}

/** A frame stands in a final state: the run completes or fails, or a child returns. */
export function finishFrame(op: Op, frameIdx: number, wf: Workflow): void {
  const frame = op.frame(frameIdx);
  const failed = isFailureState(wf, frame.state);
  if (frameIdx === 0) {
    setStatus(op, frame, failed ? 'failed' : 'completed');
    return;
  }
  completeChild(op, frameIdx, failed ? 'fail' : 'complete');
}

/** A frame fails with nowhere to go: the run is failed, or a child fails to its parent. */
export function failFrame(op: Op, frameIdx: number): void {
  if (frameIdx === 0) {
    setStatus(op, op.run, 'failed');
    return;
  }
  completeChild(op, frameIdx, 'fail');
}

/** Records a status change on the last journal entry (replay reads it there). */
function setStatus(op: Op, frame: Frame, status: RunStatus): void {
  frame.status = status;
  const last: JournalEntry | undefined = op.journal[op.journal.length - 1];
  if (last) last.status = status;
}

/**
 * A frame that waited for a fork or a child resumes: its context takes the
 * patch, it moves to `to` (or fails when there is no `to`), and the entry
 * (`join` or `child_done`) is journaled as the transition that moved it.
 */
export function resumeFrame(
  op: Op,
  frameIdx: number,
  to: string | undefined,
  patch: Record<string, JsonValue>,
  entry: Extract<JournalEntry, { kind: 'join' } | { kind: 'child_done' }> extends infer E ? DistributiveOmitAt<E> : never,
): void {
  const frame = op.frame(frameIdx);
  const wf = op.workflow(frameIdx);
  frame.context = mergeShallow(frame.context, patch);
  const loc: Loc = { frame: frameIdx };
  const from = frame.state;
  if (to !== undefined) {
    // A handler that forked or invoked ends its interrupt when the resumption leaves the handler.
    if (frame.interrupt && wf && !handlerRegion(wf).has(to)) delete frame.interrupt;
    enterState(op, loc, from, entry.kind === 'join' ? `join:${entry.outcome}` : `child:${entry.outcome}`, to);
  }
  op.countTransition(loc);
  op.log(loc, { ...entry, ...(to === undefined ? {} : { to }) } as never);
  if (to === undefined || !wf) {
    failFrame(op, frameIdx);
    return;
  }
  afterMove(op, loc, wf);
}

type DistributiveOmitAt<E> = E extends unknown ? Omit<E, 'at' | 'scope' | 'to'> : never;
