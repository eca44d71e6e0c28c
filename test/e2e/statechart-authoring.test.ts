// Authoring statecharts in YAML in the real VS Code, driven through the UI on
// fixtures/statechart-authoring/workspace: Problems with the engine's codes and
// ranges (an expression error inside its string included) and a quick fix,
// completion of a target in a state nested in a parallel region, definition
// from a dotted target to the state, the outline as a tree, rename of a nested
// state updating every reference, and a run started from the "▶ Start run" lens.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { checkWorkflowFile } from '../../src/engine/check/check-file';
import { applyQuickFix, goto, lnCol, savedText, waitForProblems } from './editor-actions';
import { withVsCode } from './harness';

const WORKSPACE = 'test/e2e/fixtures/statechart-authoring/workspace';

test('authoring statecharts in YAML: problems, completion, definition, outline, rename, start run', { timeout: 420_000 }, async (t) => {
  await withVsCode(t, { workspace: WORKSPACE, settings: { 'outline.collapseItems': 'alwaysExpand' } }, async (vsc) => {
    // A failed step leaves a screenshot (test-artifacts/statechart-<step>.png) to see what VS Code showed.
    const step = (name: string, body: () => Promise<void>) =>
      t.test(name, async () => {
        try {
          await body();
        } catch (e) {
          await vsc.screenshot(`statechart-${name.split(' ').slice(0, 4).join('-')}`).catch(() => undefined);
          throw e;
        }
      });
    const editor = vsc.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();

    await step('Problems show the chart rules with their codes and ranges; a quick fix clears one', async () => {
      const file = 'broken.statechart.yaml';
      let text = fs.readFileSync(path.join(vsc.workspaceDir, file), 'utf8');
      const expected = checkWorkflowFile(text, path.join(vsc.workspaceDir, file)).diagnostics;
      assert.deepEqual(expected.map((d) => d.code), ['chart-unknown-action', 'chart-unknown-target', 'chart-guard-syntax']);
      // The expression error points inside the guard's string, not at the whole field.
      const guard = text.indexOf('"context.attempts >"');
      assert.ok(expected[2]!.loc.start > guard + 1 && expected[2]!.loc.start <= guard + 1 + 'context.attempts >'.length);
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
      await applyQuickFix(vsc, text, text.indexOf('finsh') + 1, 'Change to `finish`');
      await waitForProblems(vsc, 'the unknown target to clear', (r) => !r.some((x) => x.code === 'chart-unknown-target'));
      text = await savedText(vsc, file);
      assert.match(text, /DONE: finish\n/);
    });

    const file = 'feature.statechart.yaml';
    const text = fs.readFileSync(path.join(vsc.workspaceDir, file), 'utf8');
    await vsc.openFile(file);

    await step('completion at a target in a nested state offers the states by the names that reach them', async () => {
      // At the start of `read` in `LGTM: read` (review › reading › open): nothing typed yet to filter by.
      await goto(vsc, text, text.indexOf('LGTM: read') + 'LGTM: '.length);
      const rows = vsc.page.locator('.suggest-widget .monaco-list-row');
      for (let attempt = 1; ; attempt++) {
        await vsc.page.keyboard.press('Control+Space');
        if (await rows.first().waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) break;
        if (attempt === 3) throw new Error('the suggest widget did not open after 3 tries of Ctrl+Space');
      }
      await vsc.page.waitForTimeout(300);
      const labels = (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).filter((l) => l.endsWith(', Class')).map((l) => l.replace(/, Class$/, ''));
      // Siblings by their key, states in reach of an ancestor by theirs, the rest by a path from one in reach.
      for (const name of ['open', 'read', 'reading', 'scanning', 'implement', 'review', 'shipped', 'implement.coding']) assert.ok(labels.includes(name), `${name} in ${JSON.stringify(labels)}`);
      assert.ok(!labels.includes('coding'), `coding is not in reach by its key alone: ${JSON.stringify(labels)}`);
      await vsc.page.keyboard.press('Escape');
    });

    await step('go to definition from a dotted target lands on the state', async () => {
      await goto(vsc, text, text.indexOf('implement.coding') + 'implement.'.length + 2);
      await vsc.page.keyboard.press('F12');
      const line = text.slice(0, text.indexOf('        coding:')).split('\n').length;
      await vsc.waitForStatusBar('status.editor.selection', (s) => s.startsWith(`Ln ${line},`), 10_000);
    });

    await step('the outline is the tree of states', async () => {
      await vsc.runCommand('Explorer: Focus on Outline View');
      const rows = vsc.page.locator('.outline-pane .monaco-list-row');
      await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
      const levels = async (): Promise<Record<string, string>> =>
        Object.fromEntries(
          ((await rows.evaluateAll((els) => els.map((e) => [(e.getAttribute('aria-label') ?? '').split(/[ ,]/)[0] ?? '', e.getAttribute('aria-level') ?? '']))) as Array<[string, string]>)
            // Sticky scroll repeats the parents above the list, without a level.
            .filter(([, level]) => level !== ''),
        );
      // The view renders only the rows in sight: page through it, gathering each row's level.
      const seen: Record<string, string> = {};
      await rows.first().click();
      for (let page = 0; page < 8 && !(seen['open'] && seen['count_attempt']); page++) {
        Object.assign(seen, await levels());
        await vsc.page.keyboard.press('PageDown');
        await vsc.page.waitForTimeout(200);
      }
      assert.equal(seen['implement'], '1', JSON.stringify(seen));
      assert.equal(seen['coding'], '2', JSON.stringify(seen));
      assert.equal(seen['reading'], '2', JSON.stringify(seen));
      assert.equal(seen['open'], '3', JSON.stringify(seen));
      await editor.click();
    });

    await step('rename of a nested state updates every reference in the file', async () => {
      await vsc.openFile(file);
      await goto(vsc, text, text.indexOf('        coding:') + 9);
      await vsc.page.keyboard.press('F2');
      const input = vsc.page.locator('.rename-box .rename-input, .rename-box input').first();
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill('writing');
      await input.press('Enter');
      await vsc.page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'visible', timeout: 10_000 });
      const renamed = await savedText(vsc, file);
      const expected = text
        .replace('initial: coding', 'initial: writing')
        .replace('        coding:', '        writing:')
        .replace('target: coding', 'target: writing')
        .replace('REWORK: implement.coding', 'REWORK: implement.writing');
      assert.equal(renamed, expected);
      assert.deepEqual(checkWorkflowFile(renamed, path.join(vsc.workspaceDir, file)).diagnostics, []);
    });

    await step('the "▶ Start run" lens starts a run of the chart', async () => {
      // The lenses are drawn again after the rename's edit: a click on the lens being replaced does nothing
      // (CI once saw no run start in 30 s). So click the lens as drawn now until the run's files say a run started.
      const started = (): boolean => fs.existsSync(path.join(vsc.workspaceDir, '.stategate', 'runs')) && fs.readdirSync(path.join(vsc.workspaceDir, '.stategate', 'runs')).length > 0;
      for (let attempt = 0; attempt < 3 && !started(); attempt++) {
        const lens = vsc.page.locator('.codelens-decoration a', { hasText: '▶ Start run' }).first();
        await lens.waitFor({ state: 'visible', timeout: 20_000 });
        await lens.click();
        for (let waited = 0; waited < 10_000 && !started(); waited += 250) await new Promise((r) => setTimeout(r, 250));
      }
      assert.ok(started(), 'a run of the chart was started');
      await vsc.waitForStatusBar('stategate.run', (s) => /feature|implement|writing/.test(s), 30_000);
    });
  });
});
