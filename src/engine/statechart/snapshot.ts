/**
 * The serialisable snapshot of a statechart run (stored in run.json): JSON
 * only, never mutated (every operation returns a new one). Between
 * macrosteps the internal event queue is always empty, so it is not stored.
 */
import type { JsonObject, JsonValue } from '../model/index.js';

export type ChartStatus = 'running' | 'done' | 'failed';

/** A scheduled `after` timer: the node that declared it, its first transition with that delay, when it is due. */
export interface ChartTimer {
  readonly state: string;
  /** Index in the node's `chart.transitions` of the first `after` transition with this delay. */
  readonly transition: number;
  /** Milliseconds since the epoch (the run's clock). */
  readonly due: number;
}

export type InvocationStatus = 'running' | 'done' | 'failed';

/** An invocation started by an active state; it stays listed, with its status, until that state is exited. */
export interface ChartInvocation {
  readonly id: string;
  readonly state: string;
  readonly src: string;
  readonly status: InvocationStatus;
  /** The evaluated `input`, handed to the agent or the child machine. */
  readonly input?: JsonObject;
  /** A `statechart:` invocation's child machine, once started (child-runs.ts). */
  readonly child?: ChildChart;
}

/**
 * A child statechart run, kept inside its invocation. The child's definition
 * text is kept with it, so later operations, a replay and a reload after the
 * child's file changed all run the chart the child started with.
 */
export interface ChildChart {
  /** The chart's `id` and `version` as resolved. */
  readonly id: string;
  readonly version?: string;
  /** The file it was read from (its own `statechart:` invocations resolve from there). */
  readonly file?: string;
  readonly text: string;
  readonly snapshot: ChartSnapshot;
}

/** What a history node remembers: the states to restore (children for shallow, atomic descendants for deep). */
export interface ChartHistoryRecord {
  readonly history: string;
  readonly states: readonly string[];
}

export interface ChartSnapshot {
  readonly status: ChartStatus;
  /** Ids of the active states in document order (the root, which is always active, is not listed). */
  readonly configuration: readonly string[];
  /**
   * For each entry of `configuration`, the microstep that last entered it.
   * XState tries eventless transitions of the active atomic states in the
   * order they were entered, not in document order; this keeps that order.
   */
  readonly entered: readonly number[];
  /** Microsteps that changed the configuration so far (the clock `entered` is read on). */
  readonly step: number;
  readonly context: JsonObject;
  readonly history: readonly ChartHistoryRecord[];
  /** Pending timers in the order they were scheduled (which orders timers due at the same time). */
  readonly timers: readonly ChartTimer[];
  readonly invocations: readonly ChartInvocation[];
  /** The context when the run reached a final state of the root. */
  readonly output?: JsonValue;
  /** Why the run failed. */
  readonly error?: string;
}
