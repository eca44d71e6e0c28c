// Chained `after` timers on a run nobody loaded for a while (docs/statecharts.md,
// "Timers after a pause"): the timers due when a command loads the run fire in
// time order, each counted from the moment its state was entered in the run's
// time, so the run ends where a watched one would. Before this, each chained
// timer counted from the moment of the load: an hour's jump left the run in B.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import './helpers/state-dir';
import { Runner } from '../../src/engine/runs/runner';
import { isoTime } from '../../src/engine/machine/env';
import { tempDir } from './helpers/temp-dir';

const MIN = 60_000;
const T0 = Date.parse('2026-01-05T09:00:00.000Z');

const CHAIN = `statechart:
  id: chain
  initial: A
  states:
    A:
      after:
        600000: B
    B:
      after:
        1200000: C
    C:
      after:
        1800000: D
    D:
      type: final
`;

interface Fired {
  state: string;
  due: number;
}

/** A run of CHAIN started at T0, then loaded (`run state`) `jump` ms later: its state and the timers the journal shows fired. */
async function jumpAfterStart(t: { after(fn: () => void): unknown }, jump: number): Promise<{ state: string; status: string; fired: Fired[]; transitions: string[] }> {
  const root = tempDir('sg-timers-jump-', t);
  fs.writeFileSync(path.join(root, 'chain.statechart.yaml'), CHAIN);
  let now = T0;
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root, now: () => isoTime(now) });
  const { run } = await runner.start(path.join(root, 'chain.statechart.yaml'));
  now = T0 + jump;
  const view = await runner.state();
  const lines = fs.readFileSync(path.join(root, '.stategate', 'runs', run.runId, 'journal.jsonl'), 'utf8').trim().split('\n');
  const fired: Fired[] = [];
  const transitions: string[] = [];
  for (const line of lines) {
    const entry = JSON.parse(line) as { entry?: { kind: string; op?: string; effects?: { type: string; state?: string; due?: number; source?: string; targets?: string[] }[] } };
    const e = entry.entry ?? (entry as never);
    if (e.kind !== 'chart' || e.op !== 'timers') continue;
    for (const eff of e.effects ?? []) {
      if (eff.type === 'timer-fired') fired.push({ state: eff.state as string, due: eff.due as number });
      if (eff.type === 'transition') transitions.push(`${eff.source}->${(eff.targets ?? []).join(',')}`);
    }
  }
  return { state: view.state, status: view.status as string, fired, transitions };
}

const cases: { name: string; jump: number; state: string; fired: Fired[] }[] = [
  {
    name: 'an hour: A, B and C time out in order, each from when its state was entered; the run ends in D',
    jump: 60 * MIN,
    state: 'D',
    fired: [
      { state: 'A', due: T0 + 10 * MIN },
      { state: 'B', due: T0 + 30 * MIN },
      { state: 'C', due: T0 + 60 * MIN },
    ],
  },
  {
    name: '35 minutes: A and B time out; C entered at minute 30 is still waiting',
    jump: 35 * MIN,
    state: 'C',
    fired: [
      { state: 'A', due: T0 + 10 * MIN },
      { state: 'B', due: T0 + 30 * MIN },
    ],
  },
  { name: '5 minutes: nothing is due yet', jump: 5 * MIN, state: 'A', fired: [] },
];

for (const c of cases) {
  test(`chained after timers, clock jumped ${c.name}`, async (t) => {
    const r = await jumpAfterStart(t, c.jump);
    assert.equal(r.state, c.state);
    assert.deepEqual(r.fired, c.fired);
    assert.deepEqual(
      r.transitions,
      c.fired.map((f) => `${f.state}->${String.fromCharCode(f.state.charCodeAt(0) + 1)}`),
    );
  });
}
