/**
 * Transitions per second on a flat machine (a ring of simple states, NEXT
 * going round): stategate's pure `sendEvent` (each call returns the next
 * snapshot and its journal entries) against XState v5's
 * `createActor(machine).send` on the equivalent machine. Target: ≥ 3× XState.
 */
import { createActor, createMachine } from 'xstate';
import { createMachineEnv } from '../../src/engine/machine-env.js';
import { sendEvent, startRun } from '../../src/engine/machine.js';
import { hashText } from '../../src/engine/run.js';
import type { RunSnapshot } from '../../src/engine/run.js';
import { generateFlat, toXStateConfig } from '../generate.js';
import { ratioRow, type Row } from '../row.js';
import { interleave, summarise } from '../stats.js';

export interface TransitionOptions {
  readonly states: readonly number[];
  /** Transitions per timed batch. */
  readonly batch: number;
  readonly rounds: number;
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
  const ours = (): number => {
    const t0 = performance.now();
    for (let i = 0; i < opts.batch; i++) {
      const r = sendEvent(run, 'NEXT', undefined, env);
      if (!r.outcome.transitioned) throw new Error(`NEXT did not transition: ${r.outcome.error?.message}`);
      run = r.run;
    }
    return (performance.now() - t0) / opts.batch;
  };

  const actor = createActor(createMachine(toXStateConfig(n))).start();
  const xstate = (): number => {
    const t0 = performance.now();
    for (let i = 0; i < opts.batch; i++) actor.send({ type: 'NEXT' });
    return (performance.now() - t0) / opts.batch;
  };
  const last = actor.getSnapshot().value;
  void last;

  await interleave(Math.max(3, Math.floor(opts.rounds / 5)), ours, xstate);
  const [a, b] = await interleave(opts.rounds, ours, xstate);
  if (actor.getSnapshot().status !== 'active') throw new Error('xstate actor stopped');
  const s = summarise(a);
  const x = summarise(b);
  const toUs = 1000;
  const perSec = (ms: number): string => Math.round(1000 / ms).toLocaleString('en-US');
  return ratioRow({
    measure: `transitions, flat ${n}-state ring`,
    stat: 'per transition (p50 of batches)',
    unit: 'µs',
    value: s.p50 * toUs,
    baseline: x.p50 * toUs,
    baselineName: 'XState v5 createActor().send',
    target: '≤ 0.33× (≥ 3× XState)',
    pass: s.p50 * 3 <= x.p50,
    note: `stategate ${perSec(s.p50)}/s, XState ${perSec(x.p50)}/s; ${opts.rounds} batches of ${opts.batch}`,
  });
}
