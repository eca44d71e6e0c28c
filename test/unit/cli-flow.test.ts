/** The CLI on flow files: `validate` reports flow diagnostics, `export` draws the flow, `run start` refuses a flow with the way forward. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, REPO_ROOT } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dir.js';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'flows');

test('validate: a clean flow exits 0, a broken one exits 1 with its codes', () => {
  const ok = cli(['validate', path.join(FIXTURES, 'flow-unknown-tool', 'pass.flow.yaml'), '--json'], { cwd: REPO_ROOT });
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.json.files[0].format, 'flow');
  const bad = cli(['validate', path.join(FIXTURES, 'flow-unknown-tool', 'fail.flow.yaml'), '--json'], { cwd: REPO_ROOT });
  assert.equal(bad.code, 1);
  assert.deepEqual(bad.json.files[0].diagnostics.map((d: { code: string }) => d.code), ['flow-unknown-tool']);
});

test('export: the flow graph as Mermaid with its edges labelled', () => {
  const r = cli(['export', path.join(FIXTURES, 'flow-goto-not-switch', 'pass.flow.yaml'), '--format', 'mermaid'], { cwd: REPO_ROOT });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /s_a --> s_b: = "x"/);
});

test('run start refuses a flow, names `stategate flow run`, and starts nothing', (t) => {
  const dir = tempDir('sg-flow-cli-', t);
  const file = path.join(dir, 'x.flow.yaml');
  fs.copyFileSync(path.join(FIXTURES, 'flow-unknown-tool', 'pass.flow.yaml'), file);
  const r = cli(['run', 'start', file], { cwd: dir });
  assert.equal(r.code, 1);
  assert.equal(r.json.error.code, 'flow_not_runnable');
  assert.match(r.json.error.message, /stategate flow run/);
  const status = cli(['run', 'status'], { cwd: dir });
  assert.doesNotMatch(status.stdout, /x\.flow\.yaml/);
});
