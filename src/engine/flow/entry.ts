/**
 * Where the runner (runner.ts) starts a frame: a fresh flow, a resumed pause,
 * a rerun after an interruption, or inside a sub-flow that was running.
 */
import type { LoadedFlow } from './load.js';
import type { Variables } from './template.js';

/** Where a frame starts: its first state, a given state, after a state that has run, or inside a running sub-flow. */
export type Entry =
  | { readonly kind: 'start' }
  | { readonly kind: 'at'; readonly state: string }
  | { readonly kind: 'after'; readonly next: string | null }
  | { readonly kind: 'into'; readonly state: string; readonly child: ChildStart };

/** A sub-flow frame about to run: its flow, its variables, and where in it. */
export interface ChildStart {
  readonly flow: LoadedFlow;
  readonly variables: Variables;
  readonly entry: Entry;
}
