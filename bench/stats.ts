/**
 * Sample statistics and the timing loops every measure shares. Times are in
 * milliseconds (performance.now()); percentiles use the nearest-rank method.
 */

export interface Summary {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly mean: number;
  readonly min: number;
}

/** The q-quantile (0 < q ≤ 1) of `samples`, nearest rank. */
export function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

export function summarise(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1] ?? Number.NaN;
  const mean = sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), mean, min: sorted[0] ?? Number.NaN };
}

/**
 * Runs `a` and `b` alternately, `rounds` times each (order swapped every
 * round), so a slow stretch of a noisy machine hits both sides alike.
 * Returns the samples of each side.
 */
export async function interleave(rounds: number, a: () => Promise<number> | number, b: () => Promise<number> | number): Promise<[number[], number[]]> {
  const sa: number[] = [];
  const sb: number[] = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      sa.push(await a());
      sb.push(await b());
    } else {
      sb.push(await b());
      sa.push(await a());
    }
  }
  return [sa, sb];
}

/** Times one synchronous call of `fn` (ms). */
export function timeOnce(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/** Per-call time (ms) of `fn` run `iterations` times back to back: for calls too short to time one by one. */
export function timeBatch(iterations: number, fn: (i: number) => unknown): number {
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) fn(i);
  return (performance.now() - t0) / iterations;
}
