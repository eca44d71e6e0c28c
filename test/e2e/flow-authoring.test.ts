// Authoring flows in YAML in the real VS Code, driven through the UI on
// fixtures/flow-authoring/workspace: Problems with the engine's codes and
// ranges and a quick fix, completion of a tool and of a variable inside
// `{{ }}`, hover with a tool's documentation, go to definition from a `next`
// target, the outline, the "▶ Run flow" and in/out lenses, and rename of a
// state updating every reference.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { checkWorkflowFile } from '../../src/engine/check/check-file';
import { applyQuickFix, goto, lnCol, savedText, waitForProblems } from './editor-actions';
import { withVsCode, type VsCode } from './harness';

const WORKSPACE = 'test/e2e/fixtures/flow-authoring/workspace';

/** Ctrl+Space until the suggest widget shows, then the labels of its rows of one kind (`, Method`, `, Field`). */
async function suggestions(vsc: VsCode, kind: string): Promise<string[]> {
  const rows = vsc.page.locator('.suggest-widget .monaco-list-row');
  for (let attempt = 1; ; attempt++) {
    await vsc.page.keyboard.press('Control+Space');
    if (await rows.first().waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) break;
    if (attempt === 3) throw new Error('the suggest widget did not open after 3 tries of Ctrl+Space');
  }
  await vsc.page.waitForTimeout(300);
  const labels = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  return labels.filter((l) => l.endsWith(kind)).map((l) => l.slice(0, -kind.length));
}

test('authoring flows in YAML: problems, completion, hover, definition, outline, lenses, rename', { timeout: 420_000 }, async (t) => {
  await withVsCode(t, { workspace: WORKSPACE }, async (vsc) => {
    // A failed step leaves a screenshot (test-artifacts/flow-<step>.png) to see what VS Code showed.
    const step = (name: string, body: () => Promise<void>) =>
      t.test(name, async () => {
        try {
          await body();
        } catch (e) {
          await vsc.screenshot(`flow-${name.split(' ').slice(0, 4).join('-')}`).catch(() => undefined);
          vsc.saveLogs(`flow-${name.split(' ').slice(0, 4).join('-')}`);
          throw e;
        }
      });

    await step('Problems show the flow rules with their codes and ranges; a quick fix clears one', async () => {
      const file = 'broken.flow.yaml';
      let text = fs.readFileSync(path.join(vsc.workspaceDir, file), 'utf8');
      const expected = checkWorkflowFile(text, path.join(vsc.workspaceDir, file)).diagnostics;
      assert.deepEqual(expected.map((d) => d.code), ['flow-unknown-tool', 'flow-unknown-target', 'flow-cycle-no-exit']);
      await vsc.hostReady();
      await vsc.openFile(file);
      await vsc.runCommand('View: Focus Problems');
      // The first check waits for the extension to load its language bundle: on a loaded machine that can take a while.
      const rows = await waitForProblems(vsc, 'three problems', (r) => r.length === expected.length).catch(() =>
        waitForProblems(vsc, 'three problems (second wait)', (r) => r.length === expected.length),
      );
      for (const d of expected) {
        const at = lnCol(text, d.loc.start);
        assert.ok(rows.some((r) => r.code === d.code && r.at === at && d.message.startsWith(r.message.slice(0, 40))), `${d.code} ${at} in ${JSON.stringify(rows)}`);
      }
      await applyQuickFix(vsc, text, text.indexOf('bsh') + 1, 'Change to `bash`');
      await waitForProblems(vsc, 'the unknown tool to clear', (r) => !r.some((x) => x.code === 'flow-unknown-tool'));
      text = await savedText(vsc, file);
      assert.match(text, /tool: bash\n/);
    });

    const file = 'release.flow.yaml';
    const text = fs.readFileSync(path.join(vsc.workspaceDir, file), 'utf8');
    await vsc.openFile(file);

    await step('completion at a tool offers the built-in tools', async () => {
      await goto(vsc, text, text.indexOf('tool: claude') + 'tool: '.length);
      const tools = await suggestions(vsc, ', Method');
      for (const tool of ['bash', 'switch', 'ask-user', 'claude', 'claude-code', 'get-gh-issue', 'parallel', 'sub-flow']) assert.ok(tools.includes(tool), `${tool} in ${JSON.stringify(tools)}`);
      await vsc.page.keyboard.press('Escape');
    });

    await step('completion inside {{ }} offers the variables, those set before the state first', async () => {
      await goto(vsc, text, text.indexOf('{{ notes::summary') + 3);
      const vars = await suggestions(vsc, ', Field');
      for (const v of ['issue', 'branch', 'issue_json', 'test_out', 'lint_out', 'notes::summary']) assert.ok(vars.includes(v), `${v} in ${JSON.stringify(vars)}`);
      assert.equal(vars[vars.length - 1], 'answer', `ask's own output comes last: ${JSON.stringify(vars)}`);
      await vsc.page.keyboard.press('Escape');
    });

    await step('hover on a tool shows its documentation', async () => {
      await goto(vsc, text, text.indexOf('get-gh-issue') + 3);
      await vsc.page.keyboard.press('Control+K');
      await vsc.page.keyboard.press('Control+I');
      const hover = vsc.page.locator('.monaco-hover:visible');
      await hover.first().waitFor({ state: 'visible', timeout: 10_000 });
      const shown = (await hover.allInnerTexts()).join('\n');
      for (const part of ['tool get-gh-issue', 'GitHub issue', 'issue-number (required)', 'the issue as JSON']) assert.ok(shown.includes(part), `${part} in ${shown}`);
      await vsc.page.keyboard.press('Escape');
    });

    await step('go to definition from a next target lands on the state', async () => {
      await goto(vsc, text, text.indexOf('next: checks') + 'next: '.length + 2);
      await vsc.page.keyboard.press('F12');
      const line = text.slice(0, text.indexOf('  checks:')).split('\n').length;
      await vsc.waitForStatusBar('status.editor.selection', (s) => s.startsWith(`Ln ${line},`), 10_000);
    });

    await step('the "▶ Run flow" lens and the in/out lenses show', async () => {
      const lens = vsc.page.locator('.codelens-decoration a', { hasText: '▶ Run flow' }).first();
      if (!(await lens.waitFor({ state: 'visible', timeout: 20_000 }).then(() => true, () => false))) {
        // As in authoring.test.ts: on a heavily loaded machine VS Code may not draw the first lenses; an edit
        // and its undo (the file is as before) makes it ask the provider again. The assertions are unchanged.
        await vsc.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
        await vsc.page.keyboard.press('End');
        await vsc.page.keyboard.type(' ');
        await vsc.page.keyboard.press('Control+Z');
        await lens.waitFor({ state: 'visible', timeout: 20_000 });
      }
      await vsc.page.locator('.codelens-decoration a', { hasText: '↘ 1 in · 3 out' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    });

    await step('the outline lists the states with their tools', async () => {
      await vsc.runCommand('Explorer: Focus on Outline View');
      const rows = vsc.page.locator('.outline-pane .monaco-list-row');
      await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
      // The view renders only the rows in sight: page through it, gathering each row's name and detail.
      const seen = new Set<string>();
      await rows.first().click();
      for (let page = 0; page < 6 && ![...seen].some((r) => r.startsWith('stop')); page++) {
        for (const r of await rows.allInnerTexts()) seen.add(r.replace(/\s+/g, ' ').trim());
        await vsc.page.keyboard.press('PageDown');
        await vsc.page.waitForTimeout(200);
      }
      // A row's text is the name and then the detail, with no space between them.
      for (const [name, detail] of [['fetch', 'get-gh-issue → checks · start'], ['checks', 'parallel → notes'], ['notes', 'sub-flow → ask'], ['decide', 'switch'], ['stop', 'bash (ends the flow)']] as const) {
        assert.ok(seen.has(`${name}${detail}`), `${name} with ${detail} in ${JSON.stringify([...seen])}`);
      }
      await vsc.openFile(file);
    });

    await step('rename of a state updates every reference in the file', async () => {
      await vsc.openFile(file);
      await goto(vsc, text, text.indexOf('  test:') + 3);
      await vsc.page.keyboard.press('F2');
      const input = vsc.page.locator('.rename-box .rename-input, .rename-box input').first();
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill('unit');
      await input.press('Enter');
      await vsc.page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'visible', timeout: 10_000 });
      const renamed = await savedText(vsc, file);
      assert.equal(renamed, text.replace('  test:', '  unit:').replace('        - test\n', '        - unit\n'));
      assert.deepEqual(checkWorkflowFile(renamed, path.join(vsc.workspaceDir, file)).diagnostics, []);
    });
  });
});
