// The examples/ workspace `npm start` serves: stategate activates by itself,
// every example is clean, a run starts (screenshot: docs/images/start-examples.png),
// an example flow runs to completion there on examples/' own test, its
// confirmation showing the commands with their variables filled in;
// each example statechart opens clean, a run of it starts and the state panel
// highlights its active states (screenshots copied to docs/images/ for the README).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { panel, showInPanel, waitForCurrent } from './chart-panel';
import { measureDiagram, scaleOf } from './diagram-readability';
import { listFlows } from '../../src/engine/index';
import { keepScreenshot, REPO_ROOT, type VsCode, waitUntil, withVsCode } from './harness';

test('examples/: activates on its own, no problems, a run starts', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, { workspace: 'examples' }, async (vsc) => {
    const result = await vsc.host('activation');
    for (const r of result.tests) assert.ok(r.ok, `${r.name}: ${r.error}`);
    const data = result.tests[0]!.data as { activateCallMs?: number };
    // VS Code's own measurement, as Developer: Show Running Extensions shows it.
    // Opened by its command id rather than through the palette: a keystroke lost on a
    // loaded machine once left this editor closed (CI). What is read is unchanged.
    const timeCell = vsc.page
      .locator('.runtime-extensions-editor .monaco-list-row')
      .filter({ has: vsc.page.locator('.name', { hasText: /^stategate$/ }) })
      .locator('.activation-time');
    // The list is sorted by activation time and draws only the rows in view: an extension
    // that activates in a few ms sits near the end. Walk it from the end with the keyboard
    // (the editor opens as a modal, where wheel events did not scroll it).
    const rows = vsc.page.locator('.runtime-extensions-editor .monaco-list-row');
    const findRow = async (): Promise<boolean> => {
      await rows.first().waitFor({ timeout: 15_000 });
      if (await timeCell.isVisible()) return true;
      await rows.first().click();
      await vsc.page.keyboard.press('End');
      for (let step = 0; step < 30; step++) {
        await vsc.page.waitForTimeout(150);
        if (await timeCell.isVisible()) return true;
        await vsc.page.keyboard.press('PageUp');
      }
      return false;
    };
    for (let attempt = 1; ; attempt++) {
      await vsc.executeCommand('workbench.action.showRuntimeExtensions');
      if (await findRow().catch(() => false)) break;
      if (attempt === 3) throw new Error('Running Extensions never listed stategate with an activation time');
      await vsc.executeCommand('workbench.action.closeAllEditors');
    }
    const shown = (await timeCell.innerText()).trim();
    assert.match(shown, /Activation: \d+ms/);
    t.diagnostic(`activated by workspaceContains: Running Extensions says "${shown}"; activate() itself took ${data.activateCallMs?.toFixed(1) ?? '?'} ms`);
    await vsc.executeCommand('workbench.action.closeAllEditors');

    await vsc.openFile('deploy.workflow.json');
    await vsc.openFile('review.workflow.json');
    // Give the language features a moment to publish diagnostics for the open files.
    await vsc.page.waitForTimeout(2000);
    const problems = await vsc.problems();
    assert.deepEqual(problems, [], `the examples are clean; Problems shows: ${problems.join(' | ')}`);

    await vsc.runCommand('stategate: Start Workflow Run…');
    await vsc.pickQuickItem('Code review');
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'review › reading');
    await vsc.executeCommand('workbench.action.closePanel');
    await vsc.page.waitForTimeout(500);
    // The README's first picture (npm start: VS Code on examples/, a run started).
    t.diagnostic(`screenshot: ${await keepScreenshot(vsc, 'start-examples')}`);

    // An example flow as it is: the confirmation shows its commands with the variables filled in, and it
    // runs to completion inside examples/, on examples/' own test (its package.json), pushing nothing.
    await vsc.openFile('fix-failing-tests.flow.yaml');
    await vsc.runCommand('stategate: Run Flow');
    const dialog = vsc.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    const asked = await dialog.innerText();
    assert.match(asked, /read-issue \(bash\): cat "issues\/1\.json"/);
    assert.match(asked, /run-tests \(bash\): npm test 2>&1 \| tail -n 200/);
    assert.match(asked, /push \(bash\): echo "Not pushed - an example pushes nowhere/);
    assert.doesNotMatch(asked, /\{\{ (issue|test_command|push_command) \}\}/);
    await dialog.getByRole('button', { name: 'Run Flow' }).click();
    const done = await waitUntil('the example flow to complete', () => listFlows(vsc.workspaceDir).find((f) => f.flow === 'fix-failing-tests' && f.status !== 'running'), 60_000, 250);
    assert.equal(done.status, 'completed');
    assert.equal(done.state, 'all-green');
    assert.match(done.variables.test_output ?? '', /stategate-examples@0\.0\.0 test[\s\S]*ok 1 - greet names the person/);
  });
});

/** Waits until each of `states` is drawn wholly inside the diagram's box (the whole chart is in the picture). */
async function waitForInView(vsc: VsCode, states: readonly string[], timeoutMs = 10_000): Promise<void> {
  const f = await panel(vsc);
  const end = Date.now() + timeoutMs;
  const inside = async (id: string): Promise<boolean> => {
    const [box, diagram] = [await f.locator(`[data-testid="diagram-state"][data-state="${id}"]`).boundingBox(), await f.locator('[data-testid="diagram-viewport"]').boundingBox()];
    return !!box && !!diagram && box.x >= diagram.x && box.y >= diagram.y && box.x + box.width <= diagram.x + diagram.width + 1 && box.y + box.height <= diagram.y + diagram.height + 1;
  };
  for (;;) {
    const out: string[] = [];
    for (const id of states) if (!(await inside(id))) out.push(id);
    if (!out.length) return;
    if (Date.now() > end) throw new Error(`the diagram does not show ${out.join(', ')} wholly within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('examples/: both statecharts open clean, a run of each starts, the panel highlights its active states', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, { workspace: 'examples', viewport: { width: 1500, height: 950 } }, async (vsc) => {
    // The file the hotfix chart's root interrupt watches, written before the workbench searches files
    // (written late, quick open did not list it within 15 s on a loaded machine).
    fs.writeFileSync(path.join(vsc.workspaceDir, 'INCIDENT.md'), '# Incident\n');
    await vsc.hostReady();
    const startLens = vsc.page.locator('.editor-group-container.active .codelens-decoration a', { hasText: '▶ Start run' }).first();
    // The lens is drawn once stategate has analysed the open chart: only then does an empty Problems mean "clean".
    for (const file of ['feature.statechart.yaml', 'hotfix.statechart.yaml']) {
      await vsc.openFile(file);
      await startLens.waitFor({ state: 'visible', timeout: 60_000 });
    }
    const problems = await vsc.problems();
    assert.deepEqual(problems, [], `the example statecharts are clean; Problems shows: ${problems.join(' | ')}`);
    await vsc.executeCommand('workbench.action.closePanel');

    await vsc.page.locator('.activitybar .action-item a[aria-label^="stategate"]').click();
    await (await panel(vsc)).locator('[data-testid="no-run"]').waitFor({ timeout: 30_000 });
    // The Run view gets the side bar's height (the Flows view collapsed), as in the screenshots.
    await vsc.page.locator('.pane-header', { hasText: 'Flows' }).first().click();
    await vsc.widenSideBar(760);
    const state = async (id: string) => (await panel(vsc)).locator(`[data-testid="diagram-state"][data-state="${id}"]`);
    const click = async (event: string) => (await panel(vsc)).locator(`[data-testid="event-button"][data-event="${event}"]`).click();

    // hotfix, started from the "▶ Start run" lens of the open chart: investigating, inside hotfix.
    await startLens.click();
    await waitForCurrent(vsc, ['hotfix.investigating'], 30_000);
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'hotfix › investigating');
    assert.equal(await (await state('hotfix')).getAttribute('data-active'), 'true');
    assert.equal(await (await state('hotfix')).getAttribute('data-container'), 'compound');
    assert.equal(await (await state('hotfix.resume')).getAttribute('data-history'), 'deep');
    assert.equal(await (await state('checking_in')).getAttribute('data-active'), 'false');
    // The diagram's words (issue 32, item 6): the chart's own transitions (PAGE) hang on a dotted frame named
    // as the whole chart, not on a second box named "hotfix"; no caption or tooltip is a dotted id.
    assert.equal(await (await state('')).getAttribute('data-container'), 'chart');
    assert.equal(await (await state('')).locator('text').textContent(), 'hotfix (whole chart)');
    assert.equal(await (await state('hotfix')).locator('text').textContent(), 'hotfix');
    const words = await (await panel(vsc)).locator('[data-testid="diagram-state"] text, [data-testid="diagram-state"] title').allTextContents();
    assert.ok(words.length >= 20, `${words.length} captions and tooltips`);
    assert.deepEqual(words.filter((w) => /\w\.\w/.test(w)), [], 'no dotted id in the diagram');
    // CAUSE_FOUND from the panel's button: two levels down, writing the failing test.
    await click('CAUSE_FOUND');
    await waitForCurrent(vsc, ['hotfix.patching.writing_test']);
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'hotfix › writing_test');
    for (const id of ['hotfix', 'hotfix.patching']) assert.equal(await (await state(id)).getAttribute('data-active'), 'true', `${id} active`);
    // The hotfix chart's chips say names, not ids: writing_test.
    assert.equal((await (await panel(vsc)).locator('[data-testid="chart-active"]').allInnerTexts()).join(' ').trim(), 'writing_test');
    // The picture with the whole chart at the editor's font size (the panel wide enough), then back to a narrower panel.
    await vsc.widenSideBar(1180);
    let wide = await measureDiagram(await panel(vsc));
    await waitUntil('the hotfix chart wholly in the wider panel', async () => (wide = await measureDiagram(await panel(vsc))).overflow === 'none', 10_000).catch((e: Error) => {
      throw new Error(`${e.message}: ${wide.contentWidth}px drawn in ${wide.svgWidth}px, overflow ${wide.overflow}`);
    });
    await showInPanel(vsc);
    t.diagnostic(`screenshot: ${await keepScreenshot(vsc, 'example-hotfix-statechart')}`);
    await vsc.widenSideBar(760);
    // A save of INCIDENT.md in the editor fires the chart's root interrupt from two levels down;
    // RESUME from the panel goes back to the step through the deep history.
    await vsc.openFile('INCIDENT.md');
    await vsc.typeInEditor('Scope: checkout too.\n');
    await vsc.page.keyboard.press('Control+S');
    await waitForCurrent(vsc, ['checking_in']);
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'hotfix › checking_in');
    await waitUntil('the interrupt to be told', async () => (await vsc.notifications()).some((n) => /saving INCIDENT\.md fired interrupt "incident_changed": writing_test → checking_in/.test(n)), 10_000);
    // RESUME goes back into hotfix where it was: said so, not as the history's id hotfix.resume.
    const resume = (await panel(vsc)).locator('.event', { has: (await panel(vsc)).locator('[data-testid="event-button"][data-event="RESUME"]') }).locator('.targets');
    assert.equal((await resume.innerText()).trim(), '→ hotfix (where it was)');
    await click('RESUME');
    await waitForCurrent(vsc, ['hotfix.patching.writing_test']);

    // feature, started from the Start Workflow Run command: its initial configuration, planning.
    await vsc.openFile('feature.statechart.yaml');
    await vsc.runCommand('stategate: Start Workflow Run…');
    await vsc.pickQuickItem('feature');
    // The hotfix run is still live: starting feature over it asks first (issue 32, item 3), and this test replaces it.
    assert.match(await vsc.dialogText(), /"hotfix" is running in state "writing_test"/);
    await vsc.answerDialog('Replace Run');
    await waitForCurrent(vsc, ['planning'], 30_000);
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'feature › Plan');
    assert.equal(await (await state('building')).getAttribute('data-container'), 'compound');
    assert.equal(await (await state('review')).getAttribute('data-container'), 'parallel');
    assert.equal(await (await state('review.security_scan')).getAttribute('data-container'), 'region');
    assert.equal(await (await state('building')).getAttribute('data-active'), 'false');
    // Through the build phase to review: both of its regions are current side by side.
    await click('PLAN_READY');
    await waitForCurrent(vsc, ['building.implementing']);
    await click('IMPLEMENTED');
    await waitForCurrent(vsc, ['building.testing']);
    await click('TESTS_PASSED');
    await waitForCurrent(vsc, ['review.code_review.reviewing', 'review.security_scan.scanning']);
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'feature › reviewing | scanning');
    for (const id of ['review', 'review.code_review', 'review.security_scan']) assert.equal(await (await state(id)).getAttribute('data-active'), 'true', `${id} active`);
    assert.equal(await (await state('building')).getAttribute('data-active'), 'false');
    // The scan's 30-minute `after` is pending, with its countdown: m:ss left, going down as the panel ticks.
    await (await panel(vsc)).locator('[data-testid="chart-timer"]').first().waitFor({ timeout: 10_000 });
    const left = async (): Promise<number> => {
      const text = (await (await panel(vsc)).locator('[data-testid="chart-timer-left"]').first().innerText()).trim();
      const m = /^(\d+):(\d\d)$/.exec(text);
      assert.ok(m, `the countdown reads m:ss, not ${JSON.stringify(text)}`);
      return Number(m[1]) * 60 + Number(m[2]);
    };
    const first = await left();
    assert.ok(first > 0 && first <= 30 * 60, `at most 30 minutes left: ${first} s`);
    await waitUntil('the countdown to go down', async () => (await left()) < first, 15_000, 250);
    // The scan region's agent task is listed as an active invocation.
    const task = (await panel(vsc)).locator('[data-testid="chart-invocation"][data-id="security_scan_task"]');
    await task.waitFor({ timeout: 10_000 });
    assert.equal(await task.getAttribute('data-status'), 'running');
    assert.match(await task.innerText(), /security_scan_task \(agent:security\) running/);
    // The widest example in this panel: what is out of view is signalled (the cut-off side faded, the zoom shown).
    const opening = await waitUntil('the overflow signalled', async () => {
      const m = await measureDiagram(await panel(vsc));
      const wider = m.contentWidth > m.svgWidth + 1;
      return m.overflow === (wider ? 'right' : 'none') && m.fadeRight === (wider ? 1 : 0) ? m : undefined;
    }, 10_000);
    assert.equal(opening.zoomText, `${Math.round(scaleOf(opening) * 100)}%`);
    t.diagnostic(`feature at the opening view: ${opening.contentWidth}px drawn in ${opening.svgWidth}px, ${opening.zoomText}, overflow ${opening.overflow}`);
    // "Show all": see all of it in view.
    await (await panel(vsc)).locator('[data-testid="diagram-fit"]').click();
    await waitForInView(vsc, ['planning', 'review', 'merging']);
    // The picture at the opening view (text at the editor's size) in a wider panel, the review regions in view.
    await vsc.widenSideBar(1100);
    await (await panel(vsc)).locator('[data-testid="diagram-reset"]').click();
    await waitUntil('the opening view again', async () => (await measureDiagram(await panel(vsc))).zoomText === '100%', 5_000);
    await showInPanel(vsc, 'review.code_review.reviewing');
    t.diagnostic(`screenshot: ${await keepScreenshot(vsc, 'example-feature-statechart')}`);
  });
});
