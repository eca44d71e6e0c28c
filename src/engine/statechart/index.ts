/**
 * The statechart interpreter (docs/statecharts.md;
 * where that is silent, XState v5's algorithm). Every operation is pure: it
 * takes the workflow IR and a snapshot and returns a new snapshot, whether a
 * transition was taken, and the effects for the journal; the input snapshot
 * is never changed.
 *
 * The files here, one concept each: table (the IR numbered and indexed),
 * targets (name resolution), select (enabled transitions, conflicts), domain
 * (transition domain), exits and entry (exit and entry sets), plans (those
 * computed once per transition when history plays no part), buffers (per-node
 * arrays reused across operations), microstep (exit / actions / entry),
 * history, done (done events, completing the run), macrostep (eventless
 * transitions, the internal queue, the microstep limit), timers (`after`),
 * actions, invoke, children and child-runs (child statecharts), expressions,
 * value (XState's StateValue), run-state (the mutable state of one
 * operation), snapshot and effects (what comes out).
 */
import type { JsonObject, JsonValue, Workflow } from '../model/index.js';
import type { ChartEffect } from './effects.js';
import { macrostep, settle } from './macrostep.js';
import { microstep } from './microstep.js';
import { finishInvocation } from './invoke.js';
import { RunState, type ChartEvent, type StepOptions } from './run-state.js';
import type { ChartSnapshot } from './snapshot.js';
import type { TransitionRow } from './table.js';
import { ROOT, chartTable, isAtomicKind } from './table.js';
import { completeInChildren, fireNext, routeToChildren, settleChildren, type Operations } from './child-runs.js';
import { runningChildren, treeDue } from './children.js';
import { valueOf, type StateValue } from './value.js';

export type { ChartEffect } from './effects.js';
export type { ChartHistoryRecord, ChartInvocation, ChartSnapshot, ChartStatus, ChartTimer, InvocationStatus } from './snapshot.js';
export type { StepOptions } from './run-state.js';
export type { StateValue } from './value.js';
export type { ChildChartResolver } from './invoke.js';
export type { ChildCharts, ResolvedChart } from './child-types.js';
export type { ChildChart } from './snapshot.js';
export { countTransitions } from './effects.js';
export { MAX_CHILD_DEPTH } from './child-types.js';
export { innermostChild, runningChildren } from './children.js';
export { MAX_MICROSTEPS } from './macrostep.js';
export { ROOT_ID, resolveTarget } from './targets.js';

export interface ChartResult {
  readonly snapshot: ChartSnapshot;
  /** Whether any transition was taken (false: nothing handled the event; the snapshot is unchanged). */
  readonly transitioned: boolean;
  readonly effects: readonly ChartEffect[];
  /** Why the operation was refused, or why the run failed during it. */
  readonly error?: string;
}

export interface StartOptions extends StepOptions {
  /** Overlaid (top-level keys) on the chart's `context` defaults. */
  readonly context?: JsonObject;
}

export interface SentEvent {
  readonly type: string;
  readonly data?: JsonValue;
}

/** Starts a run: the root and its initial states are entered, then eventless transitions and raised events run to rest. */
export function startChart(workflow: Workflow, options: StartOptions): ChartResult {
  const rs = new RunState(chartTable(workflow), undefined, options);
  rs.context = { ...workflow.context, ...(options.context ?? {}) };
  const init: ChartEvent = { kind: 'init', binding: { type: 'xstate.init' } };
  const targets = initialStates(rs);
  const initial: TransitionRow = {
    serial: -1,
    source: ROOT,
    index: -1,
    targets,
    targetIds: targets.map((s) => rs.node(s).id),
    reenter: true,
    actions: [],
    label: 'initial',
  };
  microstep(rs, [initial], init, true);
  settle(rs, init);
  settleChildren(rs, OPS);
  if (rs.status === 'failed') {
    // As XState: a start that cannot come to rest leaves the run failed in the initial configuration, with the initial context.
    const failed = new RunState(rs.table, undefined, options);
    for (const s of initialStates(failed)) if (failed.node(s).kind !== 'history') failed.active[s] = 1;
    failed.context = { ...workflow.context, ...(options.context ?? {}) };
    return finish(failed, rs, undefined);
  }
  return finish(rs, rs, undefined);
}

/** Sends an event to the run. An event no active state handles changes nothing (`transitioned: false`, no error). */
export function sendEvent(workflow: Workflow, snapshot: ChartSnapshot, event: SentEvent, options: StepOptions): ChartResult {
  const refused = refuse(snapshot);
  if (refused) return { snapshot, transitioned: false, effects: [], error: refused };
  if (event.type === '*' || event.type === '') {
    return { snapshot, transitioned: false, effects: [], error: `"${event.type}" cannot be sent as an event (it is ${event.type ? 'the wildcard' : 'empty'})` };
  }
  const rs = new RunState(chartTable(workflow), snapshot, options);
  const binding = event.data === undefined ? { type: event.type } : { type: event.type, data: event.data };
  // The innermost running child machine first; what no child handles is this machine's.
  if (!(options.children && runningChildren(snapshot.invocations).length && routeToChildren(rs, binding, OPS))) macrostep(rs, { kind: 'event', binding });
  settleChildren(rs, OPS);
  return finish(rs, rs, snapshot);
}

/** Fires the timers due at `now`, in due order (each one's macrostep may schedule more). */
export function fireDueTimers(workflow: Workflow, snapshot: ChartSnapshot, now: number, options: Omit<StepOptions, 'now'> = {}): ChartResult {
  const due = snapshot.status === 'running' ? treeDue(snapshot) : undefined;
  if (due === undefined || due > now) return { snapshot, transitioned: false, effects: [] };
  const rs = new RunState(chartTable(workflow), snapshot, { ...options, now });
  let before = snapshot;
  for (;;) {
    if (!fireNext(rs, OPS)) break;
    settleChildren(rs, OPS);
    if (rs.status === 'failed') return finish(rs, rs, before);
    if (rs.status !== 'running') break;
    before = rs.toSnapshot();
  }
  return finish(rs, rs, snapshot);
}

export interface InvocationOutcome {
  readonly id: string;
  /** true: done (onDone); false: failed (onError). */
  readonly ok: boolean;
  /** `event.data` of the done or error event. */
  readonly data?: JsonValue;
  /** Set by the host that ran a `handler:`/`flow:` invocation (docs/statechart-handlers.md): only it completes one. */
  readonly byHost?: boolean;
}

/** Completes a running invocation (`stategate run done|fail <invoke-id>`): its done or error event is processed. */
export function completeInvocation(workflow: Workflow, snapshot: ChartSnapshot, outcome: InvocationOutcome, options: StepOptions): ChartResult {
  const refused = refuse(snapshot);
  if (refused) return { snapshot, transitioned: false, effects: [], error: refused };
  const rs = new RunState(chartTable(workflow), snapshot, options);
  // An invocation handed out by a running child machine is completed there.
  const inChild = rs.invocations.some((inv) => inv.id === outcome.id && inv.status === 'running') ? undefined : completeInChildren(rs, outcome, OPS);
  if (inChild?.error) {
    rs.release();
    return { snapshot, transitioned: false, effects: [], error: inChild.error };
  }
  if (!inChild) {
    const event = finishInvocation(rs, outcome.id, outcome.ok, outcome.data, outcome.byHost ? 'host' : undefined);
    if (typeof event === 'string') {
      rs.release();
      return { snapshot, transitioned: false, effects: [], error: event };
    }
    macrostep(rs, event);
  }
  settleChildren(rs, OPS);
  return finish(rs, rs, snapshot);
}

/** XState's `snapshot.value` for the run's configuration. */
export function stateValue(workflow: Workflow, snapshot: ChartSnapshot): StateValue {
  const rs = new RunState(chartTable(workflow), snapshot, { now: 0 });
  const value = valueOf(rs);
  rs.release();
  return value;
}

/** Ids (dotted paths) of the active atomic and final states, in document order. */
export function configurationPaths(workflow: Workflow, snapshot: ChartSnapshot): string[] {
  const { nodes, byId } = chartTable(workflow);
  return snapshot.configuration.filter((id) => {
    const index = byId.get(id);
    return index !== undefined && isAtomicKind(nodes[index]?.kind ?? 'compound');
  });
}

/** When the run's next timer, its children's included, is due (undefined: none). */
export function nextDue(snapshot: ChartSnapshot): number | undefined {
  return snapshot.status === 'running' ? treeDue(snapshot) : undefined;
}

/** Fires the one timer due first in the machine and its children (a child's step, see child-runs.ts). */
function fireNextTimer(workflow: Workflow, snapshot: ChartSnapshot, options: StepOptions): ChartResult {
  const rs = new RunState(chartTable(workflow), snapshot, options);
  if (!fireNext(rs, OPS)) return finish(rs, rs, snapshot);
  settleChildren(rs, OPS);
  return finish(rs, rs, snapshot);
}

/** The operations child machines run with (child-runs.ts): the same as the run's own. */
const OPS: Operations = {
  start: startChart,
  send: sendEvent,
  fireNext: fireNextTimer,
  complete: completeInvocation,
};

/** The root's initial states, as XState's initial transition targets them: every node entered by default from the root. */
function initialStates(rs: RunState): number[] {
  const out: number[] = [];
  const visit = (s: number): void => {
    if (out.includes(s)) return;
    out.push(s);
    const node = rs.node(s);
    if (node.kind === 'compound' && node.initial >= 0) visit(node.initial);
    else if (node.kind === 'parallel') for (const region of node.states) visit(region);
  };
  visit(ROOT);
  return out;
}

function refuse(snapshot: ChartSnapshot): string | undefined {
  if (snapshot.status === 'done') return 'the run is done (it reached a final state); start a new run';
  if (snapshot.status === 'failed') return `the run failed${snapshot.error ? `: ${snapshot.error}` : ''}; start a new run`;
  return undefined;
}

/**
 * The operation's result. A failed run keeps the configuration and context
 * it had before the event that failed it (`before`), as XState does. The
 * run states are done with afterwards (their buffers go back to the chart).
 */
function finish(state: RunState, ran: RunState, before: ChartSnapshot | undefined): ChartResult {
  const result = outcome(state, ran, before);
  state.release();
  ran.release();
  return result;
}

function outcome(state: RunState, ran: RunState, before: ChartSnapshot | undefined): ChartResult {
  if (ran.status === 'failed' && before) {
    const error = ran.error as string;
    return { snapshot: { ...before, status: 'failed', error }, transitioned: ran.transitioned, effects: ran.effects, error };
  }
  if (state !== ran) {
    state.status = 'failed';
    state.error = ran.error as string;
    return { snapshot: state.toSnapshot(), transitioned: ran.transitioned, effects: ran.effects, error: ran.error as string };
  }
  if (!ran.transitioned && before && !ran.effects.length) return { snapshot: before, transitioned: false, effects: ran.effects };
  const snapshot = ran.toSnapshot();
  return { snapshot, transitioned: ran.transitioned, effects: ran.effects, ...(ran.status === 'failed' ? { error: ran.error as string } : {}) };
}
