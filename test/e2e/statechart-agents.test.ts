// @stategate on a statechart run in the real VS Code, with the scripted model
// (test/e2e/scripted-model) typed to in the Chat view: in a parallel
// configuration whose states only read, a write is not offered and is denied
// with the configuration and the event that leads to where it passes; after
// statewright_transition moves that one region, the write is offered and runs,
// while the other region stays where it was.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Runner } from '../../src/engine/runs/runner';
import { lastResult, openChat, received, typePrompt } from './chat';
import { hostRunnerVsix, STATEGATE_VSIX, withVsCode, type VsCode } from './harness';
import { scriptedModelVsix } from './scripted-model/build';

async function configuration(vsc: VsCode): Promise<string[] | undefined> {
  return (await new Runner({ dir: path.join(vsc.workspaceDir, '.stategate'), workspaceRoot: vsc.workspaceDir }).state()).configuration;
}

test('@stategate on a statechart: a write denied in one region\'s state runs after the event that moves that region', { timeout: 300_000 }, async (t) => {
  const options = {
    workspace: 'test/e2e/fixtures/statechart-agents/workspace',
    extensions: [STATEGATE_VSIX, await hostRunnerVsix(), await scriptedModelVsix()],
    // The scripted model's file tools are unknown to the tool-name table: the setting maps them.
    settings: { 'stategate.toolAliases': { scripted_writeFile: 'Write', scripted_readFile: 'Read' }, 'chat.tools.global.autoApprove': true },
    viewport: { width: 1500, height: 950 },
  };
  await withVsCode(t, options, async (vsc) => {
    await vsc.hostReady();
    await vsc.executeCommand('stategate.startRun', path.join(vsc.workspaceDir, 'review.statechart.yaml'));
    assert.deepEqual(await configuration(vsc), ['review.code.reading', 'review.security.scanning']);
    const notes = { filePath: 'NOTES.md', content: '# Notes\n\nAddressed.\n' };
    await vsc.executeCommand('scriptedModel.setScript', [
      { text: 'I will write the notes.', calls: [{ name: 'scripted_writeFile', input: notes }] },
      { text: 'Denied: I ask for changes first.', calls: [{ name: 'statewright_transition', input: { event: 'CHANGES_REQUESTED' } }] },
      { calls: [{ name: 'scripted_writeFile', input: notes }] },
      { text: 'The notes are written.' },
    ]);
    await openChat(vsc);
    await typePrompt(vsc, '@stategate address the review');
    const r = await received(vsc, 4);
    assert.equal(r.length, 4, `the model was asked 4 times, got ${r.length}`);

    // Reading and scanning both only read: the write tool is not offered; the briefing lists both states.
    assert.ok(r[0]!.tools.includes('scripted_readFile') && !r[0]!.tools.includes('scripted_writeFile'), `offered: ${r[0]!.tools.join(', ')}`);
    const briefing = r[0]!.messages[0]!.parts[0];
    assert.ok(briefing?.kind === 'text' && /configuration review\.code\.reading \| review\.security\.scanning/.test(briefing.value), 'the briefing names the configuration');
    assert.ok(briefing?.kind === 'text' && /In "review\.security\.scanning":/.test(briefing.value), 'the briefing has every active state');
    assert.match(lastResult(r[1]) ?? '', /^stategate denied scripted_writeFile: .*configuration: review\.code\.reading, review\.security\.scanning.*CHANGES_REQUESTED \(-> review\.code\.addressing\)/s);

    // The event moves the code region alone; the write is offered at once and runs.
    assert.match(lastResult(r[2]) ?? '', /Transition CHANGES_REQUESTED: now in review\.code\.addressing \| review\.security\.scanning/);
    assert.ok(r[2]!.tools.includes('scripted_writeFile'), `offered after the event: ${r[2]!.tools.join(', ')}`);
    assert.match(lastResult(r[3]) ?? '', /^wrote \d+ characters to NOTES\.md/);
    assert.equal(fs.readFileSync(path.join(vsc.workspaceDir, 'NOTES.md'), 'utf8'), notes.content);
    assert.deepEqual(await configuration(vsc), ['review.code.addressing', 'review.security.scanning']);

    // The chat stream shows the denial and the configuration moving.
    const answer = vsc.page.locator('.interactive-item-container').last();
    await answer.getByText('The notes are written').waitFor({ timeout: 15_000 });
    await vsc.page.getByText(/Completed \d+ steps/).first().click().catch(() => undefined);
    const shown = await answer.innerText();
    for (const s of ['stategate denied', 'State: review.code.reading | review.security.scanning → review.code.addressing | review.security.scanning']) {
      assert.ok(shown.includes(s), `the stream shows "${s}":\n${shown}`);
    }
    t.diagnostic(`screenshot: ${await vsc.screenshot('statechart-agents-participant')}`);
  });
});
