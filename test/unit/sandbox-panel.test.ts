/**
 * The state panel's line about the sandbox (issue 29, Deliver 4): the render
 * model carries whether allowed shell commands run in the kernel sandbox on
 * this machine and, when not, why (src/engine/sandbox/answer.ts).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import './helpers/state-dir';
import { Runner } from '../../src/engine/runs/runner';
import { sandboxStatusHere } from '../../src/engine/sandbox/answer';
import { renderModel } from '../../src/vscode/panel/render-model';
import type { RunSituation } from '../../src/vscode/runtime/run-service';
import { tempDir } from './helpers/temp-dir';

async function active(t: { after(fn: () => void): unknown }): Promise<Extract<RunSituation, { kind: 'active' }>> {
  const root = tempDir('sg-sandbox-panel-', t);
  fs.writeFileSync(path.join(root, 'x.workflow.json'), JSON.stringify({ id: 'x', initial: 'a', states: { a: { allowed_tools: ['Bash'], on: { GO: 'b' } }, b: { type: 'final' } } }));
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  await runner.start(path.join(root, 'x.workflow.json'));
  const a = await runner.active();
  assert.equal(a.kind, 'ok');
  const view = await runner.state();
  return { kind: 'active', run: a.kind === 'ok' ? a.run : (undefined as never), view, workflow: undefined, definitionChanged: false };
}

test('the panel model says whether the sandbox is on, and why not', async (t) => {
  const s = await active(t);
  const rows: [RunSituation, unknown][] = [
    [{ ...s, sandbox: sandboxStatusHere({ kind: 'bwrap', path: '/usr/bin/bwrap' }) }, { enforced: true, off_for: ['codex', 'copilot', 'cursor', 'gemini'] }],
    [{ ...s, sandbox: sandboxStatusHere({ kind: 'none', reason: 'bubblewrap is not installed' }) }, { enforced: false, reason: 'bubblewrap is not installed; the command analysis alone decides' }],
    [s, undefined],
  ];
  for (const [situation, want] of rows) {
    const m = renderModel(situation, []);
    assert.equal(m.kind, 'active');
    const got = m.kind === 'active' ? m.sandbox : 'not active';
    // The clients it is off for, by name (their reasons are CLIENT_REWRITE's).
    assert.deepEqual(got && typeof got === 'object' && got.off_for ? { ...got, off_for: Object.keys(got.off_for).sort() } : got, want);
  }
});
