/** The engine's Runner.start refuses a flow (flows run with `stategate flow run`), whatever shell calls it, and starts no run. */
import './helpers/state-dir.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Runner, RunnerError } from '../../src/engine/index.js';
import { bash, flowWorkspace } from './helpers/flow-workspace.js';

test('Runner.start refuses a flow file with flow_not_runnable and writes no run', async (t) => {
  const ws = flowWorkspace(t, { 'x.flow.yaml': { 'start-at': 'a', states: { a: bash('true') } } });
  const runner = new Runner({ dir: path.join(ws, '.stategate'), workspaceRoot: ws });
  await assert.rejects(
    async () => await runner.start(path.join(ws, 'x.flow.yaml')),
    (err: unknown) => err instanceof RunnerError && err.code === 'flow_not_runnable' && /stategate flow run/.test(err.message),
  );
  assert.equal(fs.existsSync(path.join(ws, '.stategate', 'runs')), false);
});
