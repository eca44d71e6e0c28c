/**
 * When the extension host should next wake a statechart run whose `after`
 * timers are pending: at the earliest due time, by the run's clock. Nothing
 * to arm for a flat run, or one that is paused, stopped, finished or failed.
 * A due time that was already tried and did not fire (the run's workflow no
 * longer loads, the store was busy) is retried after RETRY_MS, not at once,
 * so a timer that cannot fire never spins. Pure, unit-tested.
 */
import { nextDue, type RunSnapshot } from '../../engine/index.js';

export const RETRY_MS = 1000;
/** setTimeout's largest delay; a longer wait is armed again when it ends. */
export const MAX_DELAY_MS = 2 ** 31 - 1;

export interface TimerPlan {
  /** The due time being armed for (ms since the epoch, the run's clock). */
  readonly due: number;
  readonly delayMs: number;
}

/** `tried`: the due time the last wake-up was for. */
export function timerPlan(run: RunSnapshot | undefined, now: number, tried?: number): TimerPlan | undefined {
  if (!run?.chart || run.status !== 'running') return undefined;
  const due = nextDue(run.chart);
  if (due === undefined) return undefined;
  const wait = due === tried ? Math.max(RETRY_MS, due - now) : due - now;
  return { due, delayMs: Math.min(MAX_DELAY_MS, Math.max(0, wait)) };
}
