/**
 * The A/B comparison bench/ab.mjs runs: two copies of the engine (this
 * checkout and another) in one process, interleaved round by round, so a fix
 * can be measured against the code it changes on a noisy machine.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActor, createMachine } from 'xstate';
import type * as CheckModule from '../src/engine/check/check-file.js';
import type * as EnvModule from '../src/engine/machine/env.js';
import type * as MachineModule from '../src/engine/machine/operations.js';
import type * as PolicyModule from '../src/engine/policy/decide.js';
import { hashText } from '../src/engine/machine/run.js';
import { childWorkflow, generateFlat, generateWorkflow, toXStateConfig } from './generate.js';
import { summarise } from './stats.js';

export interface Engine {
  readonly machine: typeof MachineModule;
  readonly env: typeof EnvModule;
  readonly policy: typeof PolicyModule;
  readonly check: typeof CheckModule;
}

/** Calls of `step` in about 1 ms: the fastest of a few trials. */
function timed(step: () => void): () => number {
  let best = Infinity;
  for (let t = 0; t < 7; t++) {
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 1) {
      step();
      n++;
    }
    best = Math.min(best, (performance.now() - t0) / n);
  }
  const batch = Math.max(1, Math.round(1 / best));
  return () => {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) step();
    return (performance.now() - t0) / batch;
  };
}

function ring(e: Engine, n: number): () => void {
  const text = generateFlat(n);
  const env = e.env.createMachineEnv();
  const wf = env.load(text);
  let run = wf && e.machine.startRun(wf, text, { runId: 'ab', hash: hashText(text) }, env).run;
  if (!run) throw new Error('flat ring does not start');
  const step = (): void => {
    run = e.machine.sendEvent(run!, 'NEXT', undefined, env).run;
  };
  for (let i = 0; i < n; i++) step();
  return step;
}

function decideRead(e: Engine): () => void {
  const text = JSON.stringify({ id: 'ab', initial: 'work', states: { work: { allowed_tools: ['Read', 'Bash'], on: { DONE: 'done' } }, done: { type: 'final' } } });
  const env = e.env.createMachineEnv();
  const wf = env.load(text);
  const run = wf && e.machine.startRun(wf, text, { runId: 'ab', hash: hashText(text) }, env).run;
  if (!run) throw new Error('decide workflow does not start');
  return () => void e.policy.decide(run, { tool: 'Read', input: { file_path: 'src/a.ts' } }, env);
}

/** Rounds over the sides in rotating order; p50 of each, in ms. */
function rounds(sides: ReadonlyArray<() => number>, n: number): number[] {
  const samples = sides.map((): number[] => []);
  for (let r = 0; r < n; r++) {
    for (let j = 0; j < sides.length; j++) {
      const k = (r + j) % sides.length;
      samples[k]!.push(sides[k]!());
    }
  }
  return samples.map((s) => summarise(s).p50);
}

export function runAB(a: Engine, b: Engine, labels: { a: string; b: string }): string {
  const lines = [`| measure | ${labels.a} | ${labels.b} | ${labels.a} ÷ ${labels.b} | XState |`, '|---|---|---|---|---|'];
  const us = (ms: number): string => `${(ms * 1000).toFixed(2)} µs`;
  for (const n of [10, 1000]) {
    const actor = createActor(createMachine(toXStateConfig(n))).start();
    const [ta, tb, tx] = rounds([timed(ring(a, n)), timed(ring(b, n)), timed(() => void actor.send({ type: 'NEXT' }))], 150) as [number, number, number];
    lines.push(`| sendEvent, flat ${n}-state ring | ${us(ta)} (${(ta / tx).toFixed(2)}× XState) | ${us(tb)} (${(tb / tx).toFixed(2)}× XState) | ${(ta / tb).toFixed(2)} | ${us(tx)} |`);
  }
  const [da, db] = rounds([timed(decideRead(a)), timed(decideRead(b))], 150) as [number, number];
  lines.push(`| decide() on a Read | ${us(da)} | ${us(db)} | ${(da / db).toFixed(2)} | |`);
  const dir = mkdtempSync(join(tmpdir(), 'stategate-ab-'));
  try {
    const g = generateWorkflow(1000);
    const file = join(dir, 'big.workflow.json');
    writeFileSync(file, g.text);
    writeFileSync(join(dir, 'child.json'), childWorkflow());
    const check = (e: Engine) => (): number => {
      const t0 = performance.now();
      e.check.checkWorkflowFile(g.text, file);
      return performance.now() - t0;
    };
    rounds([check(a), check(b)], 3);
    const [ca, cb] = rounds([check(a), check(b)], 20) as [number, number];
    lines.push(`| check 1,000-state workflow | ${ca.toFixed(1)} ms | ${cb.toFixed(1)} ms | ${(ca / cb).toFixed(2)} | |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return `${lines.join('\n')}\n`;
}
