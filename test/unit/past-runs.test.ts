/**
 * "stategate: Past Runs…" words each run's status as every other view does (STATUS_WORDS), not the raw
 * status, and names its states as the status bar does (stateNames), not by their dotted ids.
 */
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
  const waiting = pastRunItem(await runner.requireActive(), run.runId, now, undefined);
  assert.equal(waiting.label, '$(bell) deploy');
  assert.equal(waiting.description, 'active · waiting for approval in "staging"');
  assert.match(waiting.detail, /^started 5 minutes ago · last change \d minutes? ago · run \d{8}T/);

  await runner.pause();
  const paused = pastRunItem(await runner.requireActive(), undefined, now, undefined);
  assert.deepEqual([paused.label, paused.description], ['$(debug-pause) deploy', 'paused in "staging"']);
  await runner.stop();
  const [stopped] = await runner.list();
  assert.deepEqual([pastRunItem(stopped!, undefined, now, undefined).label, pastRunItem(stopped!, undefined, now, undefined).description], ['$(debug-stop) deploy', 'stopped in "staging"']);
});

const HOTFIX = path.resolve(__dirname, '..', '..', 'examples', 'hotfix.statechart.yaml');
const GATED = path.resolve(__dirname, '..', 'fixtures', 'statecharts', 'policy', 'gated.statechart.yaml');

test('a statechart run is in the state the status bar names (writing_test, not hotfix.patching.writing_test); every active state of a parallel one; the id without its definition', async () => {
  const root = tempDir('sg-past-runs-names-');
  for (const f of [HOTFIX, GATED]) fs.copyFileSync(f, path.join(root, path.basename(f)));
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  const { run } = await runner.start(path.join(root, 'hotfix.statechart.yaml'));
  await runner.send('CAUSE_FOUND');
  await runner.stop();
  const now = Date.now();
  const [hotfix] = await runner.list();
  const wf = runner.env.load(hotfix!.workflow.definitionText);
  assert.equal(hotfix!.state, 'hotfix.patching.writing_test');
  assert.equal(pastRunItem(hotfix!, run.runId, now, wf).description, 'active · stopped in "writing_test"');
  // A run whose definition cannot be loaded still says where it stands, by the id.
  assert.equal(pastRunItem(hotfix!, undefined, now, undefined).description, 'stopped in "hotfix.patching.writing_test"');

  await runner.start(path.join(root, 'gated.statechart.yaml'), undefined, undefined, { replace: true });
  const gated = await runner.requireActive();
  assert.equal(pastRunItem(gated, undefined, now, runner.env.load(gated.workflow.definitionText)).description, 'running in "reading | drafting"');
});
