// `@stategate /run` in the real VS Code with the scripted model
// (test/e2e/scripted-model): examples/code-review-pipeline.workflow.json run
// stage after stage. In Plan the model proposes a write, outside the stage's
// tools: the chat shows Approve / Deny, Deny is clicked, and the model reads
// the typed denial and goes on; it submits an invalid plan (the errors come
// back), then a valid one; Execute writes the file in a fresh transcript;
// Review, with no tools, submits. Every boundary is in the audit, and the
// state panel's Pipeline section shows the stages.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Runner } from '../../src/engine/runs/runner';
import { auditTimeline } from '../../src/engine/pipeline/index';
import type { JournalEntry } from '../../src/engine/machine/run';
import { hostRunnerVsix, keepScreenshot, STATEGATE_VSIX, waitUntil, withVsCode } from './harness';
import { scriptedModelVsix } from './scripted-model/build';
import { lastResult, openChat, received, typePrompt } from './chat';

/** The VS Code both tests drive: the pipeline workspace, the scripted model, its tools mapped onto Write and Read. */
async function pipelineVsCode() {
  return {
    workspace: 'test/e2e/fixtures/pipeline/workspace',
    extensions: [STATEGATE_VSIX, await hostRunnerVsix(), await scriptedModelVsix()],
    settings: { 'stategate.toolAliases': { scripted_writeFile: 'Write', scripted_readFile: 'Read' }, 'chat.tools.global.autoApprove': true },
    viewport: { width: 1500, height: 950 },
  };
}

test('@stategate /run: Plan -> Execute -> Review with a denied grant, an invalid plan, an edit and a review', { timeout: 300_000 }, async (t) => {
  const opts = await pipelineVsCode();
  await withVsCode(t, opts, async (vsc) => {
    await vsc.hostReady();
    const write = { name: 'scripted_writeFile', input: { filePath: 'a.ts', content: 'export const bar = 1;\n' } };
    await vsc.executeCommand('scriptedModel.setScript', [
      { text: 'I will fix it directly.', calls: [write] },
      { calls: [{ name: 'submit_plan', input: { steps: [] } }] },
      { calls: [{ name: 'submit_plan', input: { steps: ['rename foo to bar in a.ts'] } }] },
      { calls: [write] },
      { calls: [{ name: 'submit_diff', input: { summary: 'renamed foo to bar' } }] },
      { calls: [{ name: 'submit_review', input: { approved: true } }] },
    ]);
    await openChat(vsc);
    await typePrompt(vsc, '@stategate /run code-review-pipeline rename foo to bar');

    // The out-of-envelope write: Approve / Deny for exactly that call; Deny.
    const deny = vsc.page.locator('.interactive-item-container').last().getByRole('button', { name: 'Deny' });
    await deny.waitFor({ timeout: 30_000 });
    assert.ok(await vsc.page.locator('.interactive-item-container').last().getByRole('button', { name: 'Approve scripted_writeFile' }).isVisible());
    await deny.click();

    const r = await received(vsc, 6, 60_000);
    assert.equal(r.length, 6, `the model was asked 6 times, got ${r.length}`);
    // Plan: a fresh transcript with the prompt and the task; Read-type tools and submit_plan, no write.
    assert.ok(r[0]!.tools.includes('submit_plan') && r[0]!.tools.includes('scripted_readFile') && !r[0]!.tools.includes('scripted_writeFile'), `offered in plan: ${r[0]!.tools.join(', ')}`);
    const firstText = JSON.stringify(r[0]!.messages);
    assert.match(firstText, /Plan how to do this task: rename foo to bar/);
    const denial = JSON.parse(lastResult(r[1]) ?? '{}');
    assert.deepEqual([denial.type, denial.reason, denial.tool], ['denied_tool_call', 'denied', 'scripted_writeFile']);
    assert.match(lastResult(r[2]) ?? '', /`steps` must NOT have fewer than 1 items/);
    // Execute: a fresh transcript (brief + first message), the write offered and run.
    assert.ok(r[3]!.tools.includes('scripted_writeFile') && r[3]!.tools.includes('submit_diff') && !r[3]!.tools.includes('submit_plan'));
    assert.equal(r[3]!.messages.length, 2, 'a fresh transcript: the stage brief and its first message');
    assert.match(JSON.stringify(r[3]!.messages), /rename foo to bar in a\.ts/);
    assert.match(lastResult(r[4]) ?? '', /^wrote \d+ characters to a\.ts/);
    // Review: no tools but its completion tool.
    assert.deepEqual(r[5]!.tools.filter((x) => !x.startsWith('statewright_') && !x.startsWith('stategate_')), ['submit_review']);

    await waitUntil('the run to end', async () => {
      const run = await new Runner({ dir: path.join(vsc.workspaceDir, '.stategate'), workspaceRoot: vsc.workspaceDir }).requireActive();
      return run.status === 'completed' ? run : undefined;
    }, 20_000);
    assert.equal(fs.readFileSync(path.join(vsc.workspaceDir, 'a.ts'), 'utf8'), 'export const bar = 1;\n');
    const runner = new Runner({ dir: path.join(vsc.workspaceDir, '.stategate'), workspaceRoot: vsc.workspaceDir });
    const tl = auditTimeline(await runner.store.readJournal((await runner.requireActive()).runId) as unknown as JournalEntry[]);
    assert.deepEqual(tl.stages.map((s) => [s.state, s.outcome]), [['plan', 'completed'], ['execute', 'completed'], ['review', 'completed']]);
    assert.deepEqual(tl.stages[0]!.grants.map((g) => [g.tool, g.approved, g.by]), [['scripted_writeFile', false, 'person']]);
    assert.deepEqual(tl.stages[0]!.completions.map((c) => c.valid), [false, true]);
    assert.ok(tl.stages.every((s) => s.prompt), 'each stage\'s prompt was sent');

    // The chat shows each stage as a section, and the run's end.
    const answer = vsc.page.locator('.interactive-session').first();
    // Each stage's result and the run's end, read from the answer's text (VS Code 1.139 folds a finished
    // stage's steps, its heading among them, under "Finished with N steps", out of the DOM).
    for (const title of ['plan result', 'execute result', 'review result', 'Pipeline completed']) {
      await waitUntil(`the chat to show "${title}"`, async () => ((await answer.textContent()) ?? '').includes(title), 15_000);
    }
    t.diagnostic(`screenshot: ${await keepScreenshot(vsc, 'pipeline-chat')}`);
  });
});

// A fan-out joined by a review, and a grant used once: in Plan the model writes a file, outside the
// stage's tools; Approve is clicked and that call runs; the same tool with other arguments asks again
// and Deny is clicked. Then lint and tests run at once (the scripted model answers each branch by the
// completion tool it is offered), and the review's first message carries both results from upstream.
test('@stategate /run: a grant approved once, then asked again for other arguments; a fan-out joined with both results', { timeout: 300_000 }, async (t) => {
  const opts = await pipelineVsCode();
  await withVsCode(t, opts, async (vsc) => {
    await vsc.hostReady();
    const write = (content: string) => ({ name: 'scripted_writeFile', input: { filePath: 'notes.txt', content } });
    await vsc.executeCommand('scriptedModel.setScript', [
      { when: 'submit_plan', calls: [write('one\n')] },
      { when: 'submit_plan', calls: [write('two\n')] },
      { when: 'submit_plan', calls: [{ name: 'submit_plan', input: { checks: ['lint', 'tests'] } }] },
      { when: 'submit_lint', calls: [{ name: 'submit_lint', input: { warnings: 2 } }] },
      { when: 'submit_tests', calls: [{ name: 'submit_tests', input: { passed: 7 } }] },
      { when: 'submit_review', calls: [{ name: 'submit_review', input: { approved: true } }] },
    ]);
    await openChat(vsc);
    await typePrompt(vsc, '@stategate /run fan-out check the code');

    const answer = vsc.page.locator('.interactive-item-container').last();
    const approve = answer.getByRole('button', { name: 'Approve scripted_writeFile' });
    await approve.first().waitFor({ timeout: 30_000 });
    await approve.first().click();
    // The approved call ran; the second call (other content) is a new question.
    await waitUntil('the approved write', () => (fs.existsSync(path.join(vsc.workspaceDir, 'notes.txt')) ? true : undefined), 20_000);
    const deny = answer.getByRole('button', { name: 'Deny' });
    // Wait on the run's journal rather than the buttons (whether the chat keeps an answered question's buttons is VS Code's choice).
    const grantEntries = async (kind: string): Promise<number> => {
      const rn = new Runner({ dir: path.join(vsc.workspaceDir, '.stategate'), workspaceRoot: vsc.workspaceDir });
      return ((await rn.store.readJournal((await rn.requireActive()).runId)) as unknown as JournalEntry[]).filter((e) => e.kind === kind).length;
    };
    await waitUntil('a second question', async () => ((await grantEntries('grant_asked')) >= 2 ? true : undefined), 30_000);
    // The journal has the question before the chat has drawn its buttons, and the chat may still show the
    // first question's (answered) Deny, whose click changes nothing. So click the last Deny until the run's
    // journal has the second answer: a click on the stale button is a no-op, the new one answers.
    await waitUntil('the second question answered by Deny', async () => {
      if ((await grantEntries('grant_answered')) >= 2) return true;
      await deny.last().click({ timeout: 2_000 }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 500));
      return undefined;
    }, 30_000);

    const r = await received(vsc, 6, 60_000);
    assert.equal(r.length, 6, `the model was asked 6 times, got ${r.length}`);
    assert.match(lastResult(r[1]) ?? '', /^wrote 4 characters to notes\.txt/, 'the approved write ran once');
    const denial = JSON.parse(lastResult(r[2]) ?? '{}');
    assert.deepEqual([denial.type, denial.reason, denial.tool], ['denied_tool_call', 'denied', 'scripted_writeFile']);
    assert.equal(fs.readFileSync(path.join(vsc.workspaceDir, 'notes.txt'), 'utf8'), 'one\n', 'the denied write (other arguments) never ran');
    const review = r.find((x) => x.tools.includes('submit_review'))!;
    assert.match(JSON.stringify(review.messages), /Lint warnings: 2\. Tests passed: 7\./);
    // Both branches' payloads in upstream (the first message's JSON, escaped once more here).
    assert.match(JSON.stringify(review.messages), /\\"warnings\\": 2/);
    assert.match(JSON.stringify(review.messages), /\\"passed\\": 7/);

    await waitUntil('the run to end', async () => {
      const run = await new Runner({ dir: path.join(vsc.workspaceDir, '.stategate'), workspaceRoot: vsc.workspaceDir }).requireActive();
      return run.status === 'completed' ? run : undefined;
    }, 20_000);
    const runner = new Runner({ dir: path.join(vsc.workspaceDir, '.stategate'), workspaceRoot: vsc.workspaceDir });
    const tl = auditTimeline((await runner.store.readJournal((await runner.requireActive()).runId)) as unknown as JournalEntry[]);
    assert.deepEqual(tl.stages.map((s) => [s.state, s.outcome]).sort(), [['lint', 'completed'], ['plan', 'completed'], ['review', 'completed'], ['tests', 'completed']]);
    assert.deepEqual(tl.stages.find((s) => s.state === 'plan')!.grants.map((g) => [g.approved, g.by, g.consumed_at !== undefined]), [[true, 'person', true], [false, 'person', false]]);
    const kinds = ((await runner.store.readJournal((await runner.requireActive()).runId)) as unknown as JournalEntry[]).map((e) => e.kind).filter((k) => k.startsWith('grant_'));
    assert.deepEqual(kinds, ['grant_asked', 'grant_answered', 'grant_consumed', 'grant_asked', 'grant_answered']);
    assert.deepEqual(tl.stages.filter((s) => s.scope).map((s) => s.scope).sort(), ['branch:lint', 'branch:tests']);
  });
});
