/**
 * Moving a position to a new state and what follows from it: counters, the
 * diagram trail, ending an interrupt, and what a final state means where it
 * is reached (the run completes or fails, a child returns to its parent, a
 * branch ends its part of a fork).
 */
import type { JsonValue, Workflow } from '../model/index.js';
import { mergeShallow } from '../model/json-value.js';
import { handlerRegion } from './patterns/handler-region.js';
import type { Op, Loc } from './cursor.js';
import { resetStateCounters } from './run.js';
import type { Frame, JournalEntry, RunStatus, TakenEdge } from './run.js';

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
 * Evidence starts again on every entry, a re-entry included: what was seen
 * before it is not evidence of this entry.
 */
export function enterState(op: Op, loc: Loc, from: string, event: string, to: string): void {
  const pos = op.position(loc);
  pos.state = to;
  if (to !== from) resetStateCounters(pos.counters);
  // Evidence is of this entry into the state: a self-transition starts it again too (evidence.ts).
  else delete pos.counters.evidence;
  const frame = op.frame(loc.frame);
  addVisited(frame, to);
  addTaken(frame, from, event, to);
}

// The diagram trail. `visited` and `taken` grow with the workflow and are
// shared between successive snapshots (copyRun does not copy them), so they
// are never changed in place: a new state or edge replaces the list with a
// longer copy. Membership is looked up in an index instead of a scan: an
// index records where each state (or each state's outgoing edges) stands in
// the list, and serves every list of an append chain (each list a prefix of
// the next), since an entry counts for a list only below that list's length.
// Appending to the chain's longest list extends its index; appending to an
// older list (two operations from the same snapshot) starts a new index.

/** Below this length a scan costs less than the index lookup. */
const SCAN_LIMIT = 16;

interface TrailIndex<V> {
  /** Positions: a state's first place in `visited`; the places of a state's outgoing edges in `taken`, ascending. */
  readonly at: Map<string, V>;
  /** The length of the longest list indexed (the chain's tip). */
  len: number;
}

const visitedIndex = new WeakMap<readonly string[], TrailIndex<number>>();
const takenIndex = new WeakMap<readonly TakenEdge[], TrailIndex<number[]>>();

function visitedIndexOf(list: readonly string[]): TrailIndex<number> {
  let ix = visitedIndex.get(list);
  if (!ix || list.length > ix.len) {
    const at = new Map<string, number>();
    for (let i = 0; i < list.length; i++) if (!at.has(list[i]!)) at.set(list[i]!, i);
    ix = { at, len: list.length };
    visitedIndex.set(list, ix);
  }
  return ix;
}

function takenIndexOf(list: readonly TakenEdge[]): TrailIndex<number[]> {
  let ix = takenIndex.get(list);
  if (!ix || list.length > ix.len) {
    const at = new Map<string, number[]>();
    for (let i = 0; i < list.length; i++) {
      const from = list[i]!.from;
      const places = at.get(from);
      if (places) places.push(i);
      else at.set(from, [i]);
    }
    ix = { at, len: list.length };
    takenIndex.set(list, ix);
  }
  return ix;
}

function hasVisited(list: readonly string[], state: string): boolean {
  if (list.length <= SCAN_LIMIT) return list.includes(state);
  const p = visitedIndexOf(list).at.get(state);
  return p !== undefined && p < list.length;
}

function hasTaken(list: readonly TakenEdge[], from: string, event: string, to: string): boolean {
  const n = list.length;
  if (n <= SCAN_LIMIT) {
    for (let i = 0; i < n; i++) {
      const e = list[i]!;
      if (e.from === from && e.event === event && e.to === to) return true;
    }
    return false;
  }
  const places = takenIndexOf(list).at.get(from);
  if (!places) return false;
  for (const p of places) {
    if (p >= n) break;
    const e = list[p]!;
    if (e.event === event && e.to === to) return true;
  }
  return false;
}

/** Adds `state` to the frame's visited list (a new list) unless it is there. */
export function addVisited(frame: Frame, state: string): void {
  const list = frame.visited;
  if (hasVisited(list, state)) return;
  const next = [...list, state];
  const ix = visitedIndex.get(list);
  if (ix && ix.len === list.length) {
    ix.at.set(state, list.length);
    ix.len++;
    visitedIndex.set(next, ix);
  }
  frame.visited = next;
}

/** Adds the edge to the frame's taken list (a new list) unless it is there. */
function addTaken(frame: Frame, from: string, event: string, to: string): void {
  const list = frame.taken;
  if (hasTaken(list, from, event, to)) return;
  const next = [...list, { from, event, to }];
  const ix = takenIndex.get(list);
  if (ix && ix.len === list.length) {
    const places = ix.at.get(from);
    if (places) places.push(list.length);
    else ix.at.set(from, [list.length]);
    ix.len++;
    takenIndex.set(next, ix);
  }
  frame.taken = next;
}


export interface Move {
  event: string;
  from: string;
  to: string;
  data?: JsonValue;
  via?: 'safe_next' | 'return' | 'approved' | 'advisory_approval';
}

/**
 * Takes a transition at `loc`: merges the data, moves, ends an interrupt if it is left, journals.
 */
export function applyMove(op: Op, loc: Loc, wf: Workflow, move: Move, isReturn: boolean): void {
  const pos = op.position(loc);
  // No data merges nothing: the context (never changed in place) stays as it is.
  if (move.data !== undefined) pos.context = mergeShallow(pos.context, move.data);
  const interrupt = pos.interrupt;
  // `$return` ends the interrupt; so does leaving the handler, i.e. entering a
  // state from which no `$return` can be reached any more (see interrupts.ts).
  const ends = interrupt !== undefined && (isReturn || !handlerRegion(wf).has(move.to));
  if (ends) delete pos.interrupt;
  enterState(op, loc, move.from, move.event, move.to);
  op.countTransition(loc);
  // Built key by key in the order the entry has always had (kind, event, from, to, data, via, endedInterrupt).
  const entry: Extract<JournalEntry, { kind: 'transition' }> = { kind: 'transition', event: move.event, from: move.from, to: move.to } as Extract<JournalEntry, { kind: 'transition' }>;
  if (move.data !== undefined) entry.data = move.data;
  if (move.via) entry.via = move.via;
  if (ends && interrupt) entry.endedInterrupt = interrupt.name;
  op.log(loc, entry);
  if (ends && interrupt && isReturn) op.log(loc, { kind: 'interrupt_return', name: interrupt.name, from: move.from, to: move.to });
  afterMove(op, loc, wf);
}

/** What reaching the position's current state means, if it is final. */
export function afterMove(op: Op, loc: Loc, wf: Workflow): void {
  const pos = op.position(loc);
  if (!isFinalState(wf, pos.state)) return;
  if (loc.branch !== undefined) {
    op.endings.branchReachedFinal(op, loc);
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
  op.endings.completeChild(op, frameIdx, failed ? 'fail' : 'complete');
}

/** A frame fails with nowhere to go: the run is failed, or a child fails to its parent. */
export function failFrame(op: Op, frameIdx: number): void {
  if (frameIdx === 0) {
    setStatus(op, op.run, 'failed');
    return;
  }
  op.endings.completeChild(op, frameIdx, 'fail');
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
