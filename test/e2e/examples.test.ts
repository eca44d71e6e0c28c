// The examples/ workspace `npm start` serves: stategate activates by itself,
// every example is clean, a run starts; the screenshot is the README's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withVsCode } from './harness';

test('examples/: activates on its own, no problems, a run starts', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, { workspace: 'examples' }, async (vsc) => {
    const result = await vsc.host('activation');
    for (const r of result.tests) assert.ok(r.ok, `${r.name}: ${r.error}`);
    const data = result.tests[0]!.data as { activateCallMs?: number };
    t.diagnostic(`activated by workspaceContains; activate() took ${data.activateCallMs?.toFixed(1) ?? '?'} ms`);

    await vsc.openFile('deploy.workflow.json');
    await vsc.openFile('review.workflow.json');
    // Give the language features a moment to publish diagnostics for the open files.
    await vsc.page.waitForTimeout(2000);
    const problems = await vsc.problems();
    assert.deepEqual(problems, [], `the examples are clean; Problems shows: ${problems.join(' | ')}`);

    await vsc.runCommand('stategate: Start Workflow Run…');
    await vsc.pickQuickItem('review');
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'review › reading');
    await vsc.executeCommand('workbench.action.closePanel');
    await vsc.page.waitForTimeout(500);
    t.diagnostic(`screenshot: ${await vsc.screenshot('examples')}`);
  });
});
