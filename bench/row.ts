/**
 * One line of the benchmark table. Every measured row compares a subject with
 * a baseline measured in the same run; `ratio` is always subject cost ÷
 * baseline cost (time per operation), so below 1 means stategate is faster.
 */

export type Unit = 'ms' | 'µs' | 'KB' | 'calls/s' | 'msgs';

export interface Row {
  /** What is measured, e.g. "hook PreToolUse Read". */
  readonly measure: string;
  /** Which statistic: p50, p95, p99, per-op, size... */
  readonly stat: string;
  readonly unit: Unit;
  readonly value?: number;
  readonly baselineName?: string;
  readonly baseline?: number;
  readonly ratio?: number;
  /** The target, in words (e.g. "≤ 1.3× baseline"). */
  readonly target: string;
  /** Whether the target is met; absent when it does not apply (or pending). */
  readonly pass?: boolean;
  /** Set when the code to measure has not landed (or cannot be reached): what is missing. */
  readonly pending?: string;
  readonly note?: string;
}

export function pendingRow(measure: string, target: string, what: string): Row {
  return { measure, stat: '-', unit: 'ms', target, pending: what };
}

/** A time row: `value` and `baseline` in the same unit, ratio computed. */
export function ratioRow(r: Omit<Row, 'ratio'> & { value: number; baseline: number }): Row {
  return { ...r, ratio: r.value / r.baseline };
}
