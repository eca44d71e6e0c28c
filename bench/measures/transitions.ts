/**
 * Transitions per second on a flat machine (a ring of simple states, NEXT
 * going round): stategate's pure `sendEvent` (each call returns the next
 * snapshot and its journal entries) against XState v5's
 * `createActor(machine).send` on the equivalent machine. Target: ≥ 3× XState.
 */
import { createActor, createMachine } from 'xstate';
import { createMachineEnv } from '../../src/engine/machine/env.js';
import { sendEvent, startRun } from '../../src/engine/machine/operations.js';
import { hashText } from '../../src/engine/machine/run.js';
import type { RunSnapshot } from '../../src/engine/machine/run.js';
import { generateFlat, toXStateConfig } from '../generate.js';
import { ratioRow, type Row } from '../row.js';
import { interleave, summarise } from '../stats.js';

export interface TransitionOptions {
  readonly states: readonly number[];
  /**
   * How long one timed batch should take (ms). Short batches mostly run
   * inside one scheduler time slice, so on a loaded machine their median
   * measures the code, not the preemption; the batch size is set per side.
   */
  readonly batchMs: number;
  readonly rounds: number;
}

/** A sampler: the time per call of `step` over one batch of `batch` calls. */
const timed = (step: () => void, batch: number) => (): number => {
  const t0 = performance.now();
  for (let i = 0; i < batch; i++) step();
  return (performance.now() - t0) / batch;
};

/** Calls of `step` that take about `ms`: the fastest of a few short trials (a preempted trial would undercount). */
function calibrate(step: () => void, ms: number): number {
  let best = Infinity;
  for (let trial = 0; trial < 7; trial++) {
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < ms && n < 100_000) {
      step();
      n++;
    }
    best = Math.min(best, (performance.now() - t0) / n);
  }
  return Math.max(1, Math.round(ms / best));
}

export async function measureTransitions(opts: TransitionOptions): Promise<Row[]> {
  const rows: Row[] = [];
  for (const n of opts.states) rows.push(await measureRing(n, opts));
  return rows;
}

async function measureRing(n: number, opts: TransitionOptions): Promise<Row> {
  const text = generateFlat(n);
  const env = createMachineEnv();
  const wf = env.load(text);
  if (!wf) throw new Error('flat workflow does not load');
  const started = startRun(wf, text, { runId: 'bench', hash: hashText(text) }, env);
  if (!started.run) throw new Error(`flat workflow does not start: ${started.outcome.error?.message}`);
  let run: RunSnapshot = started.run;
  const ourStep = (): void => {
    const r = sendEvent(run, 'NEXT', undefined, env);
    if (!r.outcome.transitioned) throw new Error(`NEXT did not transition: ${r.outcome.error?.message}`);
    run = r.run;
  };
  const actor = createActor(createMachine(toXStateConfig(n))).start();
  const xstateStep = (): void => void actor.send({ type: 'NEXT' });
  // One lap first: the snapshot's `visited` and `taken` lists reach their steady-state size.
  for (let i = 0; i < n; i++) ourStep();
  return againstXState(`transitions, flat ${n}-state ring`, ourStep, xstateStep, () => actor.getSnapshot().status, opts);
}

/**
 * The row comparing one transition of ours (`ourStep`) with one of XState's
 * (`xstateStep`) on the same machine: batches of about `batchMs` per side,
 * interleaved, after a warm-up.
 */
export async function againstXState(
  measure: string,
  ourStep: () => void,
  xstateStep: () => void,
  xstateStatus: () => string,
  opts: Pick<TransitionOptions, 'batchMs' | 'rounds'>,
  unit: { readonly stat: string; readonly what: string } = { stat: 'per transition (p50 of batches)', what: 'transitions' },
): Promise<Row> {
  // Both sides warm (optimised) before the batch sizes are set: calibrated cold, a batch would take a fraction of batchMs.
  for (let i = 0; i < 2000; i++) {
    ourStep();
    xstateStep();
  }
  const ourBatch = calibrate(ourStep, opts.batchMs);
  const xstateBatch = calibrate(xstateStep, opts.batchMs);
  const ours = timed(ourStep, ourBatch);
  const xstate = timed(xstateStep, xstateBatch);

  await interleave(Math.max(3, Math.floor(opts.rounds / 5)), ours, xstate);
  const [a, b] = await interleave(opts.rounds, ours, xstate);
  if (xstateStatus() !== 'active') throw new Error('xstate actor stopped');
  const s = summarise(a);
  const x = summarise(b);
  const toUs = 1000;
  const perSec = (ms: number): string => Math.round(1000 / ms).toLocaleString('en-US');
  return ratioRow({
    measure,
    stat: unit.stat,
    unit: 'µs',
    value: s.p50 * toUs,
    baseline: x.p50 * toUs,
    baselineName: 'XState v5 createActor().send',
    target: '≤ 0.33× (≥ 3× XState)',
    pass: s.p50 * 3 <= x.p50,
    note: `stategate ${perSec(s.p50)} ${unit.what}/s, XState ${perSec(x.p50)}/s; ${opts.rounds} batches each of ~${opts.batchMs} ms (${ourBatch} and ${xstateBatch} ${unit.what}), interleaved`,
  });
}
