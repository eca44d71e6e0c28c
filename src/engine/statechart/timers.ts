/**
 * Delayed (`after`) transitions. Entering a state schedules one timer per
 * distinct delay (due = the run's clock + the delay; an expression delay is
 * evaluated then), exiting it cancels them. Firing due timers goes in due
 * order, timers due at the same time in the order they were scheduled; each
 * fired timer is a macrostep that runs at the moment the timer was due
 * (`rs.clock`), so the timers it schedules count from then, not from the
 * moment the run was loaded: a run nobody loaded for an hour ends where a
 * watched one would (XState's SimulatedClock, moved on one due time at a
 * time, does the same; test/unit/statechart-differential.test.ts).
 */
import { evaluate } from './expressions.js';
import type { ChartEvent, RunState } from './run-state.js';
import type { ChartTimer } from './snapshot.js';

/** Schedules the `after` timers of `index` (just entered). */
export function scheduleTimers(rs: RunState, index: number, event: ChartEvent): void {
  const node = rs.node(index);
  for (const group of node.after) {
    const first = group.transitions[0];
    if (!first) continue;
    let delay: number;
    if (typeof group.delay === 'number') {
      delay = group.delay;
    } else {
      const result = evaluate(rs, group.delay.text, event.binding);
      if (!result.ok || typeof result.value !== 'number' || !Number.isFinite(result.value)) {
        const message = result.ok ? `the delay is ${JSON.stringify(result.value)}, not a number of milliseconds` : result.message;
        rs.effect({ type: 'action-error', state: node.id, action: `after ${group.key}`, message: `${message}; the timer is not scheduled` });
        continue;
      }
      delay = result.value;
    }
    const timer: ChartTimer = { state: node.id, transition: first.index, due: rs.clock + delay };
    rs.ownTimers().push(timer);
    rs.effect({ type: 'timer-scheduled', ...timer });
  }
}

/** Cancels the timers of `index` (being exited). */
export function cancelTimers(rs: RunState, index: number): void {
  if (!rs.node(index).after.length) return;
  const id = rs.node(index).id;
  if (!rs.timers.some((t) => t.state === id)) return;
  const kept: ChartTimer[] = [];
  for (const timer of rs.timers) {
    if (timer.state === id) rs.effect({ type: 'timer-cancelled', state: id, transition: timer.transition });
    else kept.push(timer);
  }
  rs.setTimers(kept);
}

/** The next due timer at the run's clock (earliest due, then scheduling order), removed from the list; undefined when none is due. */
export function takeDueTimer(rs: RunState): { timer: ChartTimer; event: ChartEvent } | undefined {
  const now = rs.options.now;
  let best = -1;
  rs.timers.forEach((timer, i) => {
    if (timer.due <= now && (best < 0 || timer.due < (rs.timers[best] as ChartTimer).due)) best = i;
  });
  if (best < 0) return undefined;
  const timer = rs.timers[best] as ChartTimer;
  rs.ownTimers().splice(best, 1);
  const index = rs.table.byId.get(timer.state);
  const node = index === undefined ? undefined : rs.node(index);
  const group = node ? node.after.findIndex((g) => g.transitions[0]?.index === timer.transition) : -1;
  if (!node || group < 0) return takeDueTimer(rs); // a timer the chart no longer has (edited since): dropped
  rs.effect({ type: 'timer-fired', ...timer });
  // Timers are taken earliest first and new ones are due after the clock, so within an operation the clock only moves on.
  rs.clock = timer.due;
  const key = (node.after[group] as { key: string }).key;
  return { timer, event: { kind: 'after', node: node.index, group, binding: { type: `xstate.after.${key}.${node.xid}` } } };
}

/** When the next timer is due (undefined: none pending). */
export function nextDue(timers: readonly ChartTimer[]): number | undefined {
  let due: number | undefined;
  for (const timer of timers) if (due === undefined || timer.due < due) due = timer.due;
  return due;
}
