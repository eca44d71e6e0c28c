/**
 * Statechart runs through the CLI: the AGENT-33 spec fixtures driven step by
 * step, the configuration asserted after every step, and the journal replayed
 * to run.json. The commands run through the CLI's main in this process
 * (helpers/cli-in-process.ts: the same parsing, command and answer); the
 * refusals' exit codes are checked once through dist/cli.js as a process.
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

const SPEC = path.join(REPO_ROOT, 'test', 'fixtures', 'statecharts', 'spec');

function workspace(t: { after(fn: () => void): void }, ...files: string[]): string {
  const cwd = tempDir('sg-cli-chart-', t);
  for (const f of files) fs.copyFileSync(path.join(SPEC, f), path.join(cwd, f));
  return cwd;
}

async function run(cwd: string, args: string[], env?: Record<string, string>): Promise<any> {
  const r = await cliInProcess(['run', ...args], { cwd, ...(env ? { env } : {}) });
  assert.equal(r.code, 0, `run ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.json;
}

async function configuration(cwd: string, env?: Record<string, string>): Promise<string[]> {
  return (await run(cwd, ['state'], env)).configuration;
}

/** The journal of the active run replays to its run.json. */
function assertReplays(cwd: string): void {
  const store = new RunStore<RunSnapshot>(path.join(cwd, '.stategate'), { checkRun: checkRunSnapshot });
  const runId = fs.readFileSync(path.join(cwd, '.stategate', 'active'), 'utf8').trim();
  const snapshot = store.readRun(runId);
  const journal = store.readJournal(runId) as unknown as JournalEntry[];
  assert.ok(journal.some((e) => e.kind === 'chart'));
  const r = replay(journal);
  assert.deepEqual({ state: r.state, context: r.context, status: r.status, transitions: r.transitions }, {
    state: snapshot.state,
    context: snapshot.context,
    status: snapshot.status,
    transitions: snapshot.counters.transitions,
  });
}

test('code review: the guarded SUBMIT takes the candidate whose guard holds, by the context given at start', async (t) => {
  const cases: [object, string[], string][] = [
    [{ risk_level: 'low', score: 95 }, ['auto_approved'], 'completed'],
    [{ risk_level: 'medium' }, ['manual_review'], 'running'],
    [{ risk_level: 'high' }, ['escalation'], 'running'],
  ];
  for (const [context, after, status] of cases) {
    const cwd = workspace(t, 'guarded-submit.statechart.yaml');
    await run(cwd, ['start', 'guarded-submit.statechart.yaml', '--context', JSON.stringify(context)]);
    assert.deepEqual(await configuration(cwd), ['drafting']);
    const sent = await run(cwd, ['send', 'SUBMIT']);
    assert.equal(sent.transitioned, true);
    assert.deepEqual(sent.configuration, after);
    assert.equal(sent.status, status);
    assert.deepEqual(await configuration(cwd), after);
    assertReplays(cwd);
  }
});

test('an event no active state handles exits 0 with transitioned false and changes nothing', async (t) => {
  const cwd = workspace(t, 'guarded-submit.statechart.yaml');
  await run(cwd, ['start', 'guarded-submit.statechart.yaml']);
  const sent = await run(cwd, ['send', 'NOBODY_LISTENS']);
  assert.equal(sent.transitioned, false);
  assert.equal(sent.value, 'drafting');
  assert.deepEqual(sent.configuration, ['drafting']);
  // The low-risk, low-score SUBMIT has no candidate whose guard holds either.
  assert.equal((await run(cwd, ['send', 'SUBMIT'])).transitioned, false);
  assert.deepEqual(await configuration(cwd), ['drafting']);
});

test('build/lint pipeline: agent invocations completed with run done, REGION_FAILED ends the pipeline', async (t) => {
  const cwd = workspace(t, 'pipeline.statechart.yaml');
  await run(cwd, ['start', 'pipeline.statechart.yaml']);
  const s = await run(cwd, ['state']);
  assert.deepEqual(s.configuration, ['pipeline.build.compiling', 'pipeline.lint.linting']);
  assert.deepEqual(s.value, { pipeline: { build: 'compiling', lint: 'linting' } });
  assert.deepEqual(s.invocations.map((i: any) => [i.id, i.src, i.status]), [
    ['pipeline.build.compiling:invoke:0', 'agent:builder', 'running'],
    ['pipeline.lint.linting:invoke:0', 'agent:linter', 'running'],
  ]);
  const done = await run(cwd, ['done', 'pipeline.lint.linting:invoke:0']);
  assert.equal(done.transitioned, true);
  assert.deepEqual(done.configuration, ['pipeline.build.compiling', 'pipeline.lint.linted']);
  assert.deepEqual(await configuration(cwd), ['pipeline.build.compiling', 'pipeline.lint.linted']);
  const failed = await run(cwd, ['send', 'BUILD_FAILED']);
  assert.deepEqual(failed.configuration, ['pipeline_failed']);
  assert.equal(failed.status, 'completed');
  assertReplays(cwd);
});

test('build/lint pipeline: both regions done (onAllDone) deploys, with the artifact from the done data', async (t) => {
  const cwd = workspace(t, 'pipeline.statechart.yaml');
  await run(cwd, ['start', 'pipeline.statechart.yaml']);
  assert.deepEqual(await configuration(cwd), ['pipeline.build.compiling', 'pipeline.lint.linting']);
  const built = await run(cwd, ['done', 'pipeline.build.compiling:invoke:0', '--data', '{"artifact":"app.tgz"}']);
  assert.deepEqual(built.configuration, ['pipeline.build.built', 'pipeline.lint.linting']);
  const linted = await run(cwd, ['done', 'pipeline.lint.linting:invoke:0']);
  assert.deepEqual(linted.configuration, ['deploy']);
  assert.equal(linted.status, 'completed');
  assert.equal((await run(cwd, ['state'])).context.build_artifact, 'app.tgz');
  assertReplays(cwd);
});

// Through dist/cli.js as a process: a refusal's exit code and message as a shell sees them.
test('run fail of an unknown invocation is refused with a message', async (t) => {
  const cwd = workspace(t, 'pipeline.statechart.yaml');
  await run(cwd, ['start', 'pipeline.statechart.yaml']);
  const r = cli(['run', 'fail', 'no-such-invocation'], { cwd });
  assert.notEqual(r.code, 0);
  assert.match(r.stdout + r.stderr, /no-such-invocation/);
  assert.deepEqual(await configuration(cwd), ['pipeline.build.compiling', 'pipeline.lint.linting']);
});

test('history: RESUME targets the deep history node of workflow', async (t) => {
  const cwd = workspace(t, 'history.statechart.yaml');
  await run(cwd, ['start', 'history.statechart.yaml']);
  assert.deepEqual(await configuration(cwd), ['workflow.drafting']);
  assert.deepEqual((await run(cwd, ['send', 'SUBMIT'])).configuration, ['workflow.review']);
  assert.deepEqual((await run(cwd, ['send', 'INTERRUPT'])).configuration, ['workflow.interrupted']);
  // `interrupted` is inside `workflow`, so `workflow` was never exited and its history holds
  // nothing: as in SCXML and XState v5, the history node goes to workflow's initial state.
  assert.deepEqual((await run(cwd, ['send', 'RESUME'])).configuration, ['workflow.drafting']);
  assert.deepEqual(await configuration(cwd), ['workflow.drafting']);
  assert.deepEqual((await run(cwd, ['send', 'PUBLISH'])).configuration, ['published']);
  assertReplays(cwd);
});

test('after: the 24-hour timer fires when STATEGATE_NOW is past it, on the next command that loads the run', async (t) => {
  const cwd = workspace(t, 'after.statechart.yaml');
  const T0 = 1_700_000_000_000;
  const at = (ms: number): Record<string, string> => ({ STATEGATE_NOW: String(T0 + ms) });
  // An SLA longer than a day, so the 24-hour timer is the first due.
  await run(cwd, ['start', 'after.statechart.yaml', '--context', JSON.stringify({ sla_deadline_ms: 2 * 86_400_000 })], at(0));
  const s = await run(cwd, ['state'], at(0));
  assert.deepEqual(s.configuration, ['waiting_for_approval']);
  assert.deepEqual(s.timers.map((x: any) => x.due_ms).sort(), [T0 + 86_400_000, T0 + 2 * 86_400_000].sort());
  assert.equal(s.timers.find((x: any) => x.due_ms === T0 + 86_400_000).due, new Date(T0 + 86_400_000).toISOString());
  assert.deepEqual(await configuration(cwd, at(86_400_000 - 1)), ['waiting_for_approval']);
  const after = await run(cwd, ['state'], at(86_400_000 + 1));
  assert.deepEqual(after.configuration, ['auto_rejected']);
  assert.deepEqual(after.timers, []);
  assert.equal(after.status, 'completed');
  assertReplays(cwd);
});

test('after: with the default one-hour SLA, the SLA timer fires first and cancels the 24-hour one', async (t) => {
  const cwd = workspace(t, 'after.statechart.yaml');
  const T0 = 1_700_000_000_000;
  await run(cwd, ['start', 'after.statechart.yaml'], { STATEGATE_NOW: String(T0) });
  const s = await run(cwd, ['send', 'NOT_HANDLED'], { STATEGATE_NOW: String(T0 + 86_400_000 + 1) });
  assert.equal(s.transitioned, false);
  assert.deepEqual(s.configuration, ['sla_breach']);
  assert.deepEqual(s.timers, []);
  assert.deepEqual((await run(cwd, ['send', 'APPROVED'])).configuration, ['approved']);
  assertReplays(cwd);
});

test('pause, resume and stop keep the chart and its configuration', async (t) => {
  const cwd = workspace(t, 'history.statechart.yaml');
  await run(cwd, ['start', 'history.statechart.yaml']);
  await run(cwd, ['send', 'SUBMIT']);
  assert.equal((await run(cwd, ['pause'])).status, 'paused');
  assert.deepEqual(await configuration(cwd), ['workflow.review']);
  const refused = await cliInProcess(['run', 'send', 'REVISE'], { cwd });
  assert.notEqual(refused.code, 0);
  await run(cwd, ['resume', 'history.statechart.yaml']);
  assert.deepEqual((await run(cwd, ['send', 'REVISE'])).configuration, ['workflow.drafting']);
  assert.equal((await run(cwd, ['stop'])).status, 'stopped');
  assert.deepEqual(await configuration(cwd), ['workflow.drafting']);
  assertReplays(cwd);
});

test('force on a statechart run: refused without meta.debug, with the run unchanged', async (t) => {
  const cwd = workspace(t, 'history.statechart.yaml');
  await run(cwd, ['start', 'history.statechart.yaml']);
  const r = await cliInProcess(['run', 'force', 'workflow.review'], { cwd });
  assert.notEqual(r.code, 0);
  assert.equal(r.json.error.code, 'debug_only');
  assert.deepEqual(await configuration(cwd), ['workflow.drafting']);
});
