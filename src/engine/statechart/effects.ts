/**
 * What a statechart step did, in the order it happened, for the journal:
 * states entered and exited, transitions taken, every action's effect,
 * timers, invocations, and what failed on the way (guards, expressions).
 */
import type { JsonObject, JsonValue } from '../model/index.js';

export type ChartEffect =
  | { readonly type: 'transition'; readonly source: string; readonly index: number; readonly trigger: string; readonly event: string; readonly targets: readonly string[] }
  | { readonly type: 'exit'; readonly state: string }
  | { readonly type: 'enter'; readonly state: string }
  /** The context keys an `assign` wrote and their new values. */
  | { readonly type: 'assign'; readonly values: JsonObject }
  | { readonly type: 'raise'; readonly event: string; readonly data?: JsonObject }
  | { readonly type: 'emit'; readonly event: string; readonly data?: JsonObject }
  | { readonly type: 'send'; readonly to: string; readonly event: string; readonly data?: JsonObject }
  | { readonly type: 'log'; readonly message?: JsonValue; readonly data?: JsonObject }
  /** The `invoke` action: a call of a service handler, for the host to run. */
  | { readonly type: 'call'; readonly handler: string; readonly params?: JsonObject }
  | { readonly type: 'timer-scheduled'; readonly state: string; readonly transition: number; readonly due: number }
  | { readonly type: 'timer-cancelled'; readonly state: string; readonly transition: number }
  | { readonly type: 'timer-fired'; readonly state: string; readonly transition: number; readonly due: number }
  | { readonly type: 'invoke-started'; readonly id: string; readonly state: string; readonly src: string; readonly input?: JsonObject }
  | { readonly type: 'invoke-cancelled'; readonly id: string; readonly state: string }
  | { readonly type: 'invoke-completed'; readonly id: string; readonly ok: boolean; readonly data?: JsonValue }
  /** A compound (or parallel) state's done event was queued. */
  | { readonly type: 'state-done'; readonly state: string }
  | { readonly type: 'guard-error'; readonly source: string; readonly index: number; readonly guard: string; readonly message: string }
  /** An action or an expression in one that could not run (it is skipped; the step goes on). */
  | { readonly type: 'action-error'; readonly state: string; readonly action: string; readonly message: string }
  /** What a child statechart of invocation `id` (of `state`) did: its own effects, in order. */
  | { readonly type: 'child'; readonly id: string; readonly state: string; readonly effects: readonly ChartEffect[] }
  | { readonly type: 'run-done'; readonly output: JsonValue }
  | { readonly type: 'run-failed'; readonly error: string };

/** Transitions taken, a child's included (what `counters.transitions` and replay count). */
export function countTransitions(effects: readonly ChartEffect[]): number {
  let n = 0;
  for (const e of effects) {
    if (e.type === 'transition') n++;
    else if (e.type === 'child') n += countTransitions(e.effects);
  }
  return n;
}
