/**
 * Jumping a statechart run to a state outside its transitions: what
 * `stategate run force` (debug only) and an interrupt fired by a file write
 * do. The jump is one microstep of a transition of the chart's root to the
 * target, taken whatever the guards say: every active state below the root
 * is exited (innermost first: history recorded, exit actions, timers
 * cancelled, invocations stopped), then the target is entered with its
 * ancestors and its default descendants (outermost first: entry actions,
 * timers scheduled, invocations started). The root itself is not exited:
 * its own entry actions do not run again and its timers and invocations go
 * on. Then, as after any event, eventless transitions and queued events run
 * until the chart is at rest, so the run may move on from the target.
 *
 * A run that is done or failed is entered afresh: its states were already
 * left (or the run ended in them), so no exit action runs again.
 */
import type { JsonObject } from '../model/index.js';
import type { ChartResult } from './index.js';
import { settle } from './macrostep.js';
import { microstep } from './microstep.js';
import { RunState, type ChartEvent, type StepOptions } from './run-state.js';
import type { ChartSnapshot } from './snapshot.js';
import { ROOT, chartTable, type TransitionRow } from './table.js';
import type { Workflow } from '../model/index.js';

export interface JumpOptions extends StepOptions {
  /** Merged (top-level keys) into the context before any state is exited. */
  readonly contextPatch?: JsonObject;
  /** What the jump's actions and guards see as `event.type`. */
  readonly eventType: string;
}

/**
 * Jumps to the state with id `target` (a dotted path). Refused (the
 * snapshot as it was, with `error`) for an id that is not a state or that
 * names a history pseudo-state.
 */
export function jumpTo(workflow: Workflow, snapshot: ChartSnapshot, target: string, options: JumpOptions): ChartResult {
  const table = chartTable(workflow);
  const index = table.byId.get(target);
  if (index === undefined || index === ROOT) return { snapshot, transitioned: false, effects: [], error: `"${target}" is not a state of the chart` };
  if (table.nodes[index]?.kind === 'history') return { snapshot, transitioned: false, effects: [], error: `"${target}" is a history pseudo-state; name a state` };
  const rs = new RunState(table, snapshot, options);
  if (rs.status !== 'running') {
    rs.active.fill(0);
    rs.active[ROOT] = 1;
    rs.setTimers([]);
    rs.setInvocations([]);
    rs.status = 'running';
    delete rs.output;
    delete rs.error;
  }
  if (options.contextPatch) rs.context = { ...rs.context, ...options.contextPatch };
  const event: ChartEvent = { kind: 'event', binding: { type: options.eventType } };
  // serial -1: a synthetic transition, never memoised in the table's plans (plans.ts).
  const jump: TransitionRow = { source: ROOT, index: -1, serial: -1, targets: [index], targetIds: [target], reenter: false, actions: [], label: options.eventType };
  microstep(rs, [jump], event);
  settle(rs, event);
  const error = rs.error;
  return { snapshot: rs.toSnapshot(), transitioned: true, effects: rs.effects, ...(error === undefined ? {} : { error }) };
}
