/**
 * The types child statecharts are described by (what the host gives the
 * interpreter, the work a step queues); children.ts and child-runs.ts do
 * the work. A file of its own so run-state.ts can name them without a cycle.
 */
import type { JsonValue, Workflow } from '../model/index.js';

/** A chart a `statechart:` src resolved to. */
export interface ResolvedChart {
  readonly workflow: Workflow;
  /** The definition's exact text (kept with the child). */
  readonly text: string;
  readonly file?: string;
}

/** What the host gives the interpreter to run child charts. */
export interface ChildCharts {
  /**
   * The chart `src` names, seen from the invoking chart (`from`: its IR and
   * file): a resolution, or a message saying what was searched.
   */
  resolve(src: string, from: { readonly workflow: Workflow; readonly file?: string }): ResolvedChart | { readonly problem: string };
  /** The IR of a child's kept definition text (undefined: it does not load). */
  load(text: string): Workflow | undefined;
  /** How deep children may nest (default MAX_CHILD_DEPTH). */
  readonly maxDepth?: number;
}

/** Children of children of ... deeper than this fail their invocation (a chart that invokes itself). */
export const MAX_CHILD_DEPTH = 8;

export type ChildWork =
  /** Start the child machine of running invocation `id` of `state`. */
  | { readonly kind: 'start'; readonly id: string; readonly state: string }
  /** Deliver `event` to the child of invocation `id` (a `send` action with `to: <invoke-id>`). */
  | { readonly kind: 'send'; readonly id: string; readonly state: string; readonly event: { readonly type: string; readonly data?: JsonValue } };

