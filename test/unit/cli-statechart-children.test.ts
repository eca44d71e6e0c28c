/**
 * Child statecharts through the CLI's main in this process (helpers/cli-in-process.ts,
 * the same parsing, command and answer as dist/cli.js): two chart files
 * in a temp workspace (test/fixtures/statecharts/children/), the parent
 * invoking the child by id; `run send` moves the child, the child finishing
 * moves the parent on; the agent is held to the child's state; the child's
 * timers fire with the run's clock; the journal replays to run.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, REPO_ROOT } from './helpers/cli';
import { cliInProcess } from './helpers/cli-in-process';
import { tempDir } from './helpers/temp-dir';
import { replay } from '../../src/engine/store/replay';
import { RunStore } from '../../src/engine/store/run-store';
import { checkRunSnapshot } from '../../src/engine/runs/runner';
import type { JournalEntry, RunSnapshot } from '../../src/engine/machine/run';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'statecharts', 'children');
const NOW = { STATEGATE_NOW: '1000000' };

function workspace(t: { after(fn: () => void): void }): string {
  const cwd = tempDir('sg-cli-child-', t);
  for (const f of fs.readdirSync(FIXTURES)) fs.copyFileSync(path.join(FIXTURES, f), path.join(cwd, f));
  return cwd;
}

async function run(cwd: string, args: string[], env: Record<string, string> = NOW): Promise<any> {
  const r = await cliInProcess(['run', ...args], { cwd, env });
  assert.equal(r.code, 0, `run ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.json;
}

async function started(t: { after(fn: () => void): void }): Promise<string> {
  const cwd = workspace(t);
  await run(cwd, ['start', 'release.statechart.yaml']);
  const sent = await run(cwd, ['send', 'PLANNED']);
  assert.deepEqual(sent.configuration, ['reviewing']);
  return cwd;
}

function stored(cwd: string): { run: RunSnapshot; journal: JournalEntry[] } {
  const store = new RunStore<RunSnapshot>(path.join(cwd, '.stategate'), { checkRun: checkRunSnapshot });
  const runId = fs.readFileSync(path.join(cwd, '.stategate', 'active'), 'utf8').trim();
  return { run: store.readRun(runId), journal: store.readJournal(runId) as unknown as JournalEntry[] };
}

function assertReplays(cwd: string): void {
  const { run: snapshot, journal } = stored(cwd);
  const r = replay(journal);
  assert.deepEqual(r, { state: snapshot.state, context: snapshot.context, status: snapshot.status, transitions: snapshot.counters.transitions });
}

test('the parent invokes the child; run send moves the child; the child finishing moves the parent on with its context', async (t) => {
  const cwd = await started(t);
  const state = await run(cwd, ['state']);
  const inv = state.invocations[0];
  assert.equal(inv.id, 'review');
  assert.equal(inv.src, 'statechart:code_review');
  assert.equal(inv.child.id, 'code_review');
  assert.equal(inv.child.version, '1.0.0');
  assert.equal(inv.child.value, 'reading');
  assert.deepEqual(inv.child.configuration, ['reading']);
  assert.deepEqual(inv.child.context, { ticket: 'T-1', verdict: 'pending' });
  assert.deepEqual(inv.child.timers.map((x: { state: string; due_ms: number }) => [x.state, x.due_ms]), [['reading', 1_000_000 + 86_400_000]]);
  assert.equal(inv.child.text, undefined, 'the view does not repeat the definition');

  const read = await run(cwd, ['send', 'READ']);
  assert.equal(read.transitioned, true);
  assert.deepEqual(read.configuration, ['reviewing']);
  assert.deepEqual(read.invocations[0].child.configuration, ['commenting']);

  const refused = await cliInProcess(['run', 'done', 'review'], { cwd, env: NOW });
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /runs the child statechart code_review: it ends when the child reaches its final state/);

  const approved = await run(cwd, ['send', 'APPROVE']);
  assert.deepEqual(approved.configuration, ['shipping']);
  assert.deepEqual(approved.invocations, []);
  assert.deepEqual((await run(cwd, ['state'])).context.review, { ticket: 'T-1', verdict: 'approved' });
  assertReplays(cwd);
  assert.equal((await run(cwd, ['send', 'SHIPPED'])).status, 'completed');
  assertReplays(cwd);
});

test("while the child runs, a tool is decided by the child's state; the parent's CANCEL still works and cancels the child", async (t) => {
  const cwd = await started(t);
  const bash = await run(cwd, ['tool', 'Bash', '--input', JSON.stringify({ command: 'ls' })]);
  assert.equal(bash.decision, 'deny');
  assert.match(bash.reason, /child statechart code_review \(invocation review of reviewing\), configuration: reading/);
  assert.match(bash.reason, /CANCEL \(-> cancelled\)/, "the parent's events lead out too");
  assert.equal((await run(cwd, ['tool', 'Grep', '--input', JSON.stringify({ pattern: 'x' })])).decision, 'allow');
  const cancelled = await run(cwd, ['send', 'CANCEL']);
  assert.deepEqual(cancelled.configuration, ['cancelled']);
  const { journal } = stored(cwd);
  const last = journal[journal.length - 1] as Extract<JournalEntry, { kind: 'chart' }>;
  assert.ok(last.effects.some((e) => e.type === 'child' && e.effects.some((x) => x.type === 'timer-cancelled' && x.state === 'reading')));
  assert.ok(last.effects.some((e) => e.type === 'invoke-cancelled' && e.id === 'review'));
  assertReplays(cwd);
});

test("the child's timer fires when any command loads the run after it is due; its failure state sends the parent to onError", async (t) => {
  const cwd = await started(t);
  const later = { STATEGATE_NOW: String(1_000_000 + 86_400_000) };
  const state = await run(cwd, ['state'], later);
  assert.deepEqual(state.configuration, ['blocked']);
  assert.match(state.context.why, /child statechart code_review ended in "timed_out", one of its meta.failure_states/);
  assertReplays(cwd);
});

test('the child keeps the definition it started with: editing its file later changes nothing for the run', async (t) => {
  const cwd = await started(t);
  const file = path.join(cwd, 'code-review.statechart.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('READ: commenting', 'READ_RENAMED: commenting'));
  const before = stored(cwd).run;
  assert.deepEqual((await run(cwd, ['send', 'READ'])).invocations[0].child.configuration, ['commenting']);
  assert.equal(stored(cwd).run.chart?.invocations[0]?.child?.text, before.chart?.invocations[0]?.child?.text);
});

test('a src that names no chart (any more: the start validated it) fails the invocation with a message naming what was searched', async (t) => {
  const cwd = workspace(t);
  await run(cwd, ['start', 'release.statechart.yaml']);
  fs.rmSync(path.join(cwd, 'code-review.statechart.yaml'));
  const sent = await run(cwd, ['send', 'PLANNED']);
  assert.deepEqual(sent.configuration, ['blocked']);
  assert.match((await run(cwd, ['state'])).context.why, /`statechart:code_review` names no chart: searched the machine_registry of .*release.statechart.yaml; .*the chart ids of the \*.statechart.\* files in /);
});
