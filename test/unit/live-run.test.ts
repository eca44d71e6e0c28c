// Starting a run over a live one (issue 32, item 3): refused unless the caller says replace; the replaced run's journal is kept and listed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './helpers/temp-dir';
import { cliInProcess } from './helpers/cli-in-process';
import { Runner, RunnerError } from '../../src/engine/index';
import { plainAge } from '../../src/engine/runs/live-run';

const FLOW = { id: 'review', initial: 'reading', states: { reading: { on: { READ: 'done' } }, done: { type: 'final' } } };

function workspace(): { runner: Runner; file: string } {
  const root = tempDir('sg-live-run-');
  const file = path.join(root, 'review.workflow.json');
  fs.writeFileSync(file, JSON.stringify(FLOW));
  return { runner: new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root }), file };
}

test('a running or paused active run is not replaced by default; the refusal says what it is and how to replace it', async () => {
  const { runner, file } = workspace();
  const first = (await runner.start(file)).run;
  const refused = (err: unknown) => err instanceof RunnerError && err.code === 'run_active' && /"review" is running in state "reading", started less than a minute ago/.test(err.message) && /--replace/.test(err.message);
  await assert.rejects(runner.start(file), refused);
  await runner.pause();
  await assert.rejects(runner.start(file), (err: unknown) => err instanceof RunnerError && /"review" is paused in state "reading"/.test(err.message));
  const active = await runner.active();
  assert.equal(active.kind === 'ok' && active.runId, first.runId, 'the first run is still the active one');
  assert.equal((await runner.list()).length, 1, 'no second run was made');
});

test('with replace the new run starts; the old one is stopped, its journal kept, and listed', async () => {
  const { runner, file } = workspace();
  const first = (await runner.start(file)).run;
  const second = await runner.start(file, undefined, undefined, { replace: true });
  assert.equal(second.replaced, first.runId);
  const listed = await runner.list();
  // Runs started in the same second list in either order.
  assert.deepEqual(new Map(listed.map((r) => [r.runId, r.status])), new Map([[first.runId, 'stopped'], [second.run.runId, 'running']]));
  assert.ok((await runner.store.readJournal(first.runId)).length > 0, 'the old journal is kept');
});

test('an ended run is replaced without asking', async () => {
  const { runner, file } = workspace();
  await runner.start(file);
  await runner.send('READ');
  assert.ok((await runner.start(file)).run.runId);
});

test('plainAge says how long ago in words', () => {
  assert.equal(plainAge(30_000), 'less than a minute');
  assert.equal(plainAge(60_000), '1 minute');
  assert.equal(plainAge(65 * 60_000), '1 hour 5 minutes');
  assert.equal(plainAge(120 * 60_000), '2 hours');
});

test('the command line replaces a live run as it always has and names it; --keep refuses; both is a usage error', async () => {
  const { file } = workspace();
  const cwd = path.dirname(file);
  const first = await cliInProcess(['run', 'start', 'review.workflow.json'], { cwd });
  assert.equal(first.code, 0, first.stderr);
  const firstId = (first.json as { run_id: string }).run_id;
  const kept = await cliInProcess(['run', 'start', 'review.workflow.json', '--keep'], { cwd });
  assert.equal(kept.code, 1);
  assert.equal((kept.json as { error: { code: string } }).error.code, 'run_active');
  const both = await cliInProcess(['run', 'start', 'review.workflow.json', '--keep', '--replace'], { cwd });
  assert.notEqual(both.code, 0);
  assert.match(both.stderr, /--keep and --replace/);
  const second = await cliInProcess(['run', 'start', 'review.workflow.json'], { cwd });
  assert.equal(second.code, 0, second.stderr);
  assert.equal((second.json as { replaced?: string }).replaced, firstId, 'the answer names the replaced run');
});
