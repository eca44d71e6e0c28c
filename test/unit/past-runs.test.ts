/** "stategate: Past Runs…" words each run's status as every other view does (STATUS_WORDS), not the raw status. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Runner } from '../../src/engine/runs/runner';
import './helpers/state-dir';
import { pastRunItem } from '../../src/vscode/runtime/past-run-item';
import { tempDir } from './helpers/temp-dir';
import * as fs from 'node:fs';

const DEPLOY = path.resolve(__dirname, '..', '..', 'examples', 'deploy.workflow.json');

test('a run with an approval parked reads "waiting for approval", with the bell; a paused and a stopped run in their words and icons', async () => {
  const root = tempDir('sg-past-runs-');
  const file = path.join(root, 'deploy.workflow.json');
  fs.copyFileSync(DEPLOY, file);
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  const { run } = await runner.start(file);
  await runner.send('DEPLOY');
  const now = Date.parse((await runner.requireActive()).createdAt) + 5 * 60_000;
  const waiting = pastRunItem(await runner.requireActive(), run.runId, now);
  assert.equal(waiting.label, '$(bell) deploy');
  assert.equal(waiting.description, 'active · waiting for approval in "staging"');
  assert.match(waiting.detail, /^started 5 minutes ago · last change \d minutes? ago · run \d{8}T/);

  await runner.pause();
  const paused = pastRunItem(await runner.requireActive(), undefined, now);
  assert.deepEqual([paused.label, paused.description], ['$(debug-pause) deploy', 'paused in "staging"']);
  await runner.stop();
  const [stopped] = await runner.list();
  assert.deepEqual([pastRunItem(stopped!, undefined, now).label, pastRunItem(stopped!, undefined, now).description], ['$(debug-stop) deploy', 'stopped in "staging"']);
});
