/**
 * The statecharts in examples/ validate clean and run as their README
 * paragraphs say: a scripted sequence of events, tool calls, an agent's
 * task finished, a 30-minute timer, an interrupt and a history resume.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkWorkflowFile } from '../../src/engine/check/check-file';
import { Runner } from '../../src/engine/runs/runner';
import { REPO_ROOT } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const EXAMPLES = path.join(REPO_ROOT, 'examples');
const CHARTS = ['feature.statechart.yaml', 'hotfix.statechart.yaml'];
const START = Date.parse('2026-11-25T10:00:00.000Z');

/** A workspace with the example copied in and a Runner on a clock the test moves. */
async function workspace(t: { after(fn: () => void): void }, chart: string): Promise<{ runner: Runner; root: string; clock: { ms: number } }> {
  const root = tempDir('sg-example-', t);
  fs.copyFileSync(path.join(EXAMPLES, chart), path.join(root, chart));
  const clock = { ms: START };
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root, now: () => new Date(clock.ms).toISOString() });
  await runner.start(path.join(root, chart));
  return { runner, root, clock };
}

async function send(runner: Runner, event: string): Promise<string[]> {
  const out = await runner.send(event) as { transitioned: boolean; configuration?: string[] };
  assert.equal(out.transitioned, true, `${event} moved the run`);
  return out.configuration ?? [];
}

for (const chart of CHARTS) {
  test(`examples/${chart} validates with no diagnostics`, () => {
    const file = path.join(EXAMPLES, chart);
    const r = checkWorkflowFile(fs.readFileSync(file, 'utf8'), file);
    assert.deepEqual(r.diagnostics.map((d) => `${d.code}: ${d.message}`), []);
    assert.ok(r.workflow);
  });
}

test('feature: plan, build with fix rounds, review and security scan side by side, merge', async (t) => {
  const { runner, root } = await workspace(t, 'feature.statechart.yaml');
  const at = (f: string): string => path.join(root, f);
  assert.equal((await runner.tool({ tool: 'Write', input: { file_path: at('PLAN.md'), content: '# Plan\n' } })).decision, 'allow');
  assert.equal((await runner.tool({ tool: 'Write', input: { file_path: at('src/a.ts'), content: 'x' } })).decision, 'deny', 'planning writes only PLAN.md');
  await send(runner, 'PLAN_READY');
  await send(runner, 'IMPLEMENTED');
  // Three fix rounds, then the fourth failure is stuck.
  for (let round = 1; round <= 3; round++) {
    assert.deepEqual(await send(runner, 'TESTS_FAILED'), ['building.fixing']);
    assert.equal((await runner.state()).context.fix_rounds, round);
    await send(runner, 'FIXED');
  }
  assert.deepEqual(await send(runner, 'TESTS_FAILED'), ['stuck']);
  assert.deepEqual(await send(runner, 'RETRY'), ['building.implementing']);
  assert.equal((await runner.state()).context.fix_rounds, 0);
  await send(runner, 'IMPLEMENTED');
  assert.deepEqual(await send(runner, 'TESTS_PASSED'), ['review.code_review.reviewing', 'review.security_scan.scanning']);

  // Review: no edits until the code review region asks for changes; the scan region does not move.
  const edit = { tool: 'Edit', input: { file_path: at('src/a.ts'), old_string: 'a', new_string: 'b' } };
  const denied = await runner.tool(edit);
  assert.equal(denied.decision, 'deny');
  assert.match(denied.reason ?? '', /configuration: review\.code_review\.reviewing, review\.security_scan\.scanning/);
  assert.match(denied.reason ?? '', /CHANGES_REQUESTED \(-> review\.code_review\.addressing\)/);
  assert.deepEqual(await send(runner, 'CHANGES_REQUESTED'), ['review.code_review.addressing', 'review.security_scan.scanning']);
  assert.equal((await runner.tool(edit)).decision, 'allow');
  await send(runner, 'ADDRESSED');
  await send(runner, 'APPROVED');

  // The scan is the security agent's task; finishing it completes the last region.
  const view = await runner.state();
  assert.deepEqual(view.agent_invocations, [{ id: 'security_scan_task', state: 'review.security_scan.scanning', agent: 'security', input: { fix_rounds: 0 } }]);
  const done = await runner.complete('security_scan_task', true, { summary: 'no findings' });
  assert.deepEqual(done.configuration, ['merging']);
  assert.equal((await runner.state()).context.scan_summary, 'no findings');
  await send(runner, 'MERGED');
  assert.equal((await runner.state()).status, 'completed');
});

test('feature: a security scan still running after 30 minutes waits for a person', async (t) => {
  const { runner, clock } = await workspace(t, 'feature.statechart.yaml');
  for (const e of ['PLAN_READY', 'IMPLEMENTED', 'TESTS_PASSED']) await send(runner, e);
  clock.ms += 29 * 60_000;
  assert.deepEqual((await runner.state()).configuration, ['review.code_review.reviewing', 'review.security_scan.scanning']);
  clock.ms += 60_000;
  assert.deepEqual((await runner.state()).configuration, ['review.code_review.reviewing', 'review.security_scan.scan_timed_out']);
  assert.deepEqual((await runner.state()).agent_invocations, [], 'leaving the state cancelled the agent task');
  assert.deepEqual(await send(runner, 'WAIVE'), ['review.code_review.reviewing', 'review.security_scan.scanned']);
});

test('hotfix: an edit of INCIDENT.md interrupts from any depth, RESUME goes back where the work stood', async (t) => {
  const { runner, root } = await workspace(t, 'hotfix.statechart.yaml');
  await send(runner, 'CAUSE_FOUND');
  assert.deepEqual(await send(runner, 'TEST_WRITTEN'), ['hotfix.patching.fixing']);
  const fired = await runner.fileChanged(path.join(root, 'INCIDENT.md'));
  assert.equal(fired.interrupted, true);
  assert.deepEqual(fired.interrupt, { name: 'incident_changed', from: 'hotfix.patching.fixing', to: 'checking_in' });
  assert.deepEqual((await runner.state()).configuration, ['checking_in']);
  // Not again while the run stands in the handler.
  assert.equal((await runner.fileChanged(path.join(root, 'INCIDENT.md'))).interrupted, false);
  assert.deepEqual(await send(runner, 'RESUME'), ['hotfix.patching.fixing']);
  // A person's PAGE does the same from the chart root.
  await send(runner, 'FIXED');
  assert.deepEqual(await send(runner, 'PAGE'), ['checking_in']);
  assert.deepEqual(await send(runner, 'RESUME'), ['hotfix.patching.verifying']);
  await send(runner, 'VERIFIED');
  assert.deepEqual((await runner.state()).configuration, ['hotfix.shipping']);
  await send(runner, 'SHIPPED');
  assert.equal((await runner.state()).status, 'completed');
});

test('hotfix: an agent write of INCIDENT.md, reported after the call, fires the interrupt too', async (t) => {
  const { runner, root } = await workspace(t, 'hotfix.statechart.yaml');
  await send(runner, 'CAUSE_FOUND');
  const write = { tool: 'Write', input: { file_path: path.join(root, 'INCIDENT.md'), content: 'scope changed\n' } };
  const recorded = await runner.result(write, { bytes: 10 });
  assert.equal(recorded.interrupted, true);
  assert.deepEqual((await runner.state()).configuration, ['checking_in']);
  assert.deepEqual(await send(runner, 'RESUME'), ['hotfix.patching.writing_test']);
});
