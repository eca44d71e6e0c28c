/**
 * Where a flow goes after a state (docs/flows.md): exit 0 to `next`, or
 * the end (completed, 0) when there is none; a non-zero exit to its `on-error`
 * entry, else to `_`, else the end (failed, with that code). A handler is an
 * ordinary state: when it succeeds and has no `next` the flow ends completed
 * with 0. A `switch` goes by `goto` alone.
 */
import type { FlowStep } from '../model/index.js';

export type Route =
  | { readonly kind: 'goto'; readonly state: string }
  | { readonly kind: 'end'; readonly status: 'completed' | 'failed'; readonly exitCode: number };

export function routeExit(step: FlowStep, exitCode: number): Route {
  if (exitCode === 0) return step.next ? { kind: 'goto', state: step.next.name } : { kind: 'end', status: 'completed', exitCode: 0 };
  const handler = step.onError.find((r) => r.code === exitCode) ?? step.onError.find((r) => r.code === '_');
  return handler ? { kind: 'goto', state: handler.target.name } : { kind: 'end', status: 'failed', exitCode };
}

/** The `goto` target of `value` (matched as a string, `_` the default), or undefined when none matches. */
export function routeSwitch(step: FlowStep, value: string): string | undefined {
  return (step.goto.find((r) => r.value === value) ?? step.goto.find((r) => r.value === '_'))?.target.name;
}
