// Typing in a workflow file: its problems show in the Problems panel and go away when fixed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withVsCode } from './harness';

test('a broken workflow shows in Problems; typing a fix clears it', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, { workspace: 'test/e2e/fixtures/editor' }, async (vsc) => {
    await vsc.hostReady();
    await vsc.openFile('draft.workflow.json');
    let problems: string[] = [];
    const deadline = Date.now() + 20_000;
    while (!problems.some((p) => p.includes('nowhere')) && Date.now() < deadline) problems = await vsc.problems();
    assert.ok(problems.some((p) => p.includes('nowhere')), `Problems names the undefined target: ${problems.join(' | ')}`);

    await vsc.openFile('draft.workflow.json');
    await vsc.typeInEditor('{"id": "draft", "initial": "start", "states": {"start": {"on": {"GO": "done"}}, "done": {"type": "final"}}}', {
      replaceAll: true,
    });
    const cleanBy = Date.now() + 20_000;
    while (problems.length > 0 && Date.now() < cleanBy) problems = await vsc.problems();
    assert.deepEqual(problems, [], 'no problems once the target exists');
  });
});
