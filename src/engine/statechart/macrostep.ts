/**
 * A macrostep: one event's microstep, then, until the chart is at rest,
 * eventless (`always`) transitions, and when none is enabled the next event
 * of the internal queue (raised events and done events, in the order they
 * were queued). XState's loop, including when it stops looking for eventless
 * transitions (after an eventless microstep that changed nothing, until the
 * next queued event).
 *
 * More than MAX_MICROSTEPS rounds of that loop for one event is an eventless
 * or raise loop: the run fails with a message that says so, never hangs.
 */
import { microstep } from './microstep.js';
import type { ChartEvent, RunState } from './run-state.js';
import { selectEventless, selectTransitions } from './select.js';
import type { TransitionRow } from './table.js';

export const MAX_MICROSTEPS = 1000;

const NONE: readonly TransitionRow[] = [];

/** Processes `event` (sent, a due timer, an invocation's completion) to rest. */
export function macrostep(rs: RunState, event: ChartEvent): void {
  const transitions = selectTransitions(rs, event);
  if (event.kind === 'invoke-error' && !transitions.length) {
    // XState: an actor error no state handles fails the machine.
    rs.fail(`invocation "${event.invokeId}" failed and no active state handles its error (add onError to the invoke)`);
    return;
  }
  microstep(rs, transitions, event);
  settle(rs, event);
}

/** Runs eventless transitions and the internal queue until the chart is at rest. */
export function settle(rs: RunState, event: ChartEvent): void {
  let current = event;
  let lookForEventless = true;
  let rounds = 0;
  const limit = rs.options.maxMicrosteps ?? MAX_MICROSTEPS;
  while (rs.status === 'running') {
    // Counted as XState counts maxIterations: every round of this loop, the last one (at rest) included.
    if (++rounds > limit) {
      rs.fail(loopMessage(rs, event, limit));
      return;
    }
    let enabled: readonly TransitionRow[] = lookForEventless ? selectEventless(rs, current) : NONE;
    const eventless = enabled.length > 0;
    if (!eventless) {
      const next = rs.queue.shift();
      if (!next) break;
      current = next;
      enabled = selectTransitions(rs, current);
    }
    const changed = microstep(rs, enabled, current);
    lookForEventless = eventless ? changed : true;
  }
}

function loopMessage(rs: RunState, event: ChartEvent, limit: number): string {
  const active = rs.activeAtomicIds();
  return (
    `more than ${limit} microsteps for the event "${event.binding.type}": the chart loops through eventless (always) ` +
    `transitions or raised events without coming to rest (active when stopped: ${active.join(', ')}); ` +
    `the run is failed; add a guard that becomes false or a state that waits for an event`
  );
}
