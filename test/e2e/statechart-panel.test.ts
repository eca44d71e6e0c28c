// The state panel and the status bar on a statechart run, in the real VS Code:
// the nested diagram with every active state highlighted (compound states and
// the two regions of a parallel state), a history node, the events with their
// guard results, an event fired from a panel button, and an `after` transition
// fired by the extension host's timer with no command from anyone. The
// screenshot is kept in test-artifacts/ and copied to docs/images/ for the README.
// The panel's SVG button saves the diagram through the save dialog.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Frame } from 'playwright-core';
import { panel, waitForCurrent } from './chart-panel';
import { allStatesInView, measureDiagram, scaleOf, wheelOver, type DiagramMetrics } from './diagram-readability';
import { REPO_ROOT, type VsCode, waitUntil, withVsCode } from './harness';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const CHART = 'pipeline.statechart.yaml';
const COMPILING = 'work.build.compile.compiling';
const TESTING = 'work.build.compile.testing';
const TESTED = 'work.build.compile.tested';
const LINTING = 'work.build.lint.linting';

function cli(vsc: VsCode, ...args: string[]): string {
  return execFileSync(process.execPath, [CLI, ...args], { cwd: vsc.workspaceDir, encoding: 'utf8' });
}

/**
 * The diagram as it opens is readable: labels (states and edges) at least the
 * editor's font size, as computed and as drawn; as wide as the panel, within
 * it; labels contrasting with their boxes (WCAG AA, 4.5:1).
 */
async function assertReadable(f: Frame, what: string): Promise<DiagramMetrics> {
  const m = await measureDiagram(f);
  assert.ok(m.editorFontPx >= 10, `${what}: the webview has the editor's font size (${m.editorFontPx})`);
  assert.ok(m.minLabelPx >= m.editorFontPx, `${what}: state labels at ${m.minLabelPx}px, below the editor's ${m.editorFontPx}px`);
  assert.ok(m.minDrawnLabelPx >= m.editorFontPx - 0.01, `${what}: state labels drawn at ${m.minDrawnLabelPx}px, below the editor's ${m.editorFontPx}px`);
  assert.ok(m.minEdgeLabelPx >= m.editorFontPx, `${what}: edge labels at ${m.minEdgeLabelPx}px`);
  assert.ok(m.svgWidth <= m.panelWidth && m.svgWidth >= 0.75 * m.panelWidth, `${what}: the diagram is ${m.svgWidth}px wide in a ${m.panelWidth}px panel`);
  assert.ok(m.minContrast >= 4.5, `${what}: a state's label contrasts ${m.minContrast.toFixed(2)}:1 with its box`);
  return m;
}

/** Switches the color theme as a person does (Preferences: Color Theme) and waits for the webview to follow. */
async function setTheme(vsc: VsCode, f: Frame, theme: string): Promise<void> {
  const background = async (): Promise<string> => String(await f.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-background')"));
  const before = await background();
  // Ctrl+K Ctrl+T (the palette ranks "Browse Color Themes in Marketplace" first for the command's name).
  await vsc.page.locator('.statusbar').click({ position: { x: 5, y: 5 } });
  await vsc.page.keyboard.press('Control+k');
  await vsc.page.keyboard.press('Control+t');
  await vsc.pickQuickItem(theme);
  await waitUntil(`the webview in ${theme}`, async () => (await background()) !== before, 15_000);
}

test('the state panel on a statechart run: nested diagram, an event from a button, an after firing by itself', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, { workspace: 'test/e2e/fixtures/statechart-panel', viewport: { width: 1500, height: 950 } }, async (vsc) => {
    await vsc.hostReady();
    await vsc.page.locator('.activitybar .action-item a[aria-label^="stategate"]').click();
    await (await panel(vsc)).locator('[data-testid="no-run"]').waitFor({ timeout: 30_000 });
    // The Run view gets the side bar's height and enough width for this chart at the editor's font size (the screenshots).
    await vsc.page.locator('.pane-header', { hasText: 'Flows' }).first().click();
    await vsc.widenSideBar(1000);

    // A run started from the CLI: both regions' states are current, their ancestors active.
    cli(vsc, 'run', 'start', CHART);
    await waitForCurrent(vsc, [COMPILING, LINTING]);
    const f = await panel(vsc);
    const state = (id: string) => f.locator(`[data-testid="diagram-state"][data-state="${id}"]`);
    for (const id of ['work', 'work.build', 'work.build.compile', 'work.build.lint']) assert.equal(await state(id).getAttribute('data-active'), 'true', `${id} active`);
    assert.equal(await state('work.build').getAttribute('data-container'), 'parallel');
    assert.equal(await state('work.build.lint').getAttribute('data-container'), 'region');
    assert.equal(await state('work').getAttribute('data-container'), 'compound');
    assert.equal(await state('paused').getAttribute('data-active'), 'false');
    assert.equal(await state('work.resume').getAttribute('data-history'), 'deep');
    assert.equal((await state('work.resume').locator('text').textContent())?.trim(), 'H*');
    assert.equal(await state('work.resume').locator('title').textContent(), 'work (where it was)', 'its tooltip says what it is, not work.resume');
    const [compile, lint] = [await state('work.build.compile').boundingBox(), await state('work.build.lint').boundingBox()];
    assert.ok(compile && lint && (compile.x + compile.width <= lint.x || lint.x + lint.width <= compile.x || compile.y + compile.height <= lint.y || lint.y + lint.height <= compile.y), 'the regions are drawn apart');
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'pipeline › compiling | linting');
    // One history row per happening (issue 32, item 9): the start, not also "statechart started" for its first step.
    const rows = await f.locator('[data-testid="history-entry"]').allInnerTexts();
    assert.equal(rows.filter((r) => /started/.test(r)).length, 1, `the start once: ${JSON.stringify(rows)}`);
    // States by the diagram's names everywhere a person reads (issue 32, item 6): no dotted id in the history.
    assert.ok(!rows.some((r) => /\b(work|compile|lint)\.[a-z]/.test(r)), `no dotted id in the history: ${JSON.stringify(rows)}`);

    // The events of the configuration: LINTED's guard fails, with the reason on hover.
    const linted = f.locator('[data-testid="event-button"][data-event="LINTED"]');
    assert.equal(await linted.getAttribute('data-available'), 'false');
    assert.match((await linted.getAttribute('title')) ?? '', /guard context\.approved is false/);
    assert.equal(await f.locator('[data-testid="event-button"][data-event="COMPILED"]').getAttribute('data-available'), 'true');
    assert.equal(await f.locator('[data-testid="guard"][data-passes="false"]').count(), 1);
    await vsc.page.waitForTimeout(300);
    const shot = await vsc.screenshot('statechart-panel');
    fs.mkdirSync(path.join(REPO_ROOT, 'docs', 'images'), { recursive: true });
    fs.copyFileSync(shot, path.join(REPO_ROOT, 'docs', 'images', 'statechart-panel.png'));
    t.diagnostic(`screenshot: ${shot} (copied to docs/images/statechart-panel.png)`);

    // Readable as it opens (the default light theme): the editor's font size, the panel's width, contrast, an arrow from each initial dot.
    const opening = await assertReadable(f, 'light');
    for (const id of ['work', 'work.build', COMPILING, LINTING]) assert.ok(opening.initials.includes(id), `an initial arrow to ${id} (${opening.initials.join(', ')})`);
    // The diagram follows the panel's width.
    await vsc.widenSideBar(520);
    const narrow = await waitUntil('the diagram to follow a narrower panel', async () => {
      const m = await measureDiagram(f);
      return m.panelWidth < opening.panelWidth - 100 && m.svgWidth < opening.svgWidth - 100 ? m : undefined;
    }, 10_000);
    assert.ok(narrow.svgWidth <= narrow.panelWidth && narrow.minDrawnLabelPx >= narrow.editorFontPx - 0.01, 'narrower: within the panel, text still at the editor font size');
    await vsc.widenSideBar(1000);
    await waitUntil('the diagram to follow a wider panel', async () => (await measureDiagram(f)).svgWidth >= opening.svgWidth - 2, 10_000);
    // The wheel as a person turns it: Playwright's mouse over the webview's frame, real wheel events from the
    // browser. A plain wheel scrolls the panel and leaves the diagram's scale alone; Ctrl + wheel zooms the
    // diagram, and the toolbar shows the zoom.
    const top = await measureDiagram(f);
    assert.ok(top.scrollable, 'the panel is taller than its view, so a wheel has something to scroll');
    assert.equal(top.zoomText, `${Math.round(scaleOf(top) * 100)}%`, 'the zoom is shown');
    const viewport = f.locator('[data-testid="run"] [data-testid="diagram-viewport"]').first();
    // A wheel turned as the pointer first enters the webview's frame can reach the page outside it (seen
    // once in four runs): a person turns again, and so does the test until the panel moves.
    const scrolled = await waitUntil('the wheel to scroll the panel', async () => {
      await wheelOver(vsc.page, viewport, { y: 200 }, { atY: 80 });
      const m = await measureDiagram(f);
      return m.scrollTop > top.scrollTop + 50 ? m : undefined;
    }, 10_000, 400);
    assert.equal(scrolled.transform, top.transform, 'a plain wheel does not zoom the diagram');
    const zoomed = await waitUntil('Ctrl + wheel to zoom in', async () => {
      await wheelOver(vsc.page, viewport, { y: -200 }, { ctrl: true, atY: 300 });
      const m = await measureDiagram(f);
      return scaleOf(m) > scaleOf(scrolled) ? m : undefined;
    }, 10_000, 400);
    assert.equal(zoomed.zoomText, `${Math.round(scaleOf(zoomed) * 100)}%`, 'the zoom shown follows');
    assert.equal(await vsc.page.evaluate('window.devicePixelRatio'), 1, 'Ctrl + wheel zoomed the diagram, not the browser page');
    // "Fit to width" goes back to the opening view.
    await f.locator('[data-testid="diagram-reset"]').click();
    await waitUntil('the opening view again', async () => scaleOf(await measureDiagram(f)) === scaleOf(top), 5_000);

    // A panel button sends COMPILED: the compile region moves, a 2 s timer is pending.
    // From here nothing but VS Code touches the run (a CLI command would fire a due timer itself).
    await f.locator('[data-testid="event-button"][data-event="COMPILED"]').click();
    await waitForCurrent(vsc, [TESTING, LINTING]);
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'pipeline › testing | linting');
    const timer = (await panel(vsc)).locator('[data-testid="chart-timer"]');
    assert.match(await timer.innerText(), /after 2s → tested/);

    // The after transition fires by itself, from the extension host's timer.
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'pipeline › tested | linting', 20_000);
    await waitForCurrent(vsc, [TESTED, LINTING]);
    await (await panel(vsc)).locator('[data-testid="chart-timer"]').waitFor({ state: 'detached', timeout: 5_000 });
    const journal = fs.readFileSync(path.join(vsc.workspaceDir, '.stategate', 'runs', String(JSON.parse(cli(vsc, 'run', 'state')).run_id), 'journal.jsonl'), 'utf8');
    assert.ok(journal.split('\n').some((l) => l.includes('"op":"timers"')), 'the timer was fired (journaled as a timers operation)');

    // Export as SVG from the panel's button: a save dialog offers <chart>.svg in the workspace, and
    // what it saves is the same document `stategate export --format svg` writes.
    const exported = cli(vsc, 'export', '--format', 'svg', CHART);
    await (await panel(vsc)).locator('[data-testid="export-svg"]').click();
    const saveAs = vsc.page.locator('.quick-input-widget .quick-input-box input');
    await saveAs.waitFor({ state: 'visible', timeout: 15_000 });
    await waitUntil('the save dialog to offer pipeline.svg', async () => (await saveAs.inputValue()).endsWith('/pipeline.svg'), 10_000);
    await vsc.page.keyboard.press('Enter');
    const saved = path.join(vsc.workspaceDir, 'pipeline.svg');
    await waitUntil('the SVG saved from the panel', () => fs.existsSync(saved) && fs.readFileSync(saved, 'utf8') === exported, 15_000);
    // The command, given a file (as other extensions and tasks call it), writes the same.
    const svgFile = path.join(vsc.workspaceDir, 'out', 'pipeline.svg');
    assert.equal(await vsc.executeCommand('stategate.exportSvg', svgFile), svgFile);
    assert.equal(fs.readFileSync(svgFile, 'utf8'), exported);

    // A dark theme: the same measures, and the screenshot for the README.
    await setTheme(vsc, await panel(vsc), 'Dark Modern');
    await assertReadable(await panel(vsc), 'dark');
    const darkShot = await vsc.screenshot('statechart-panel-dark');
    fs.copyFileSync(darkShot, path.join(REPO_ROOT, 'docs', 'images', 'statechart-panel-dark.png'));
    t.diagnostic(`screenshot: ${darkShot} (copied to docs/images/statechart-panel-dark.png)`);

    // A 40-state chart shown from its file opens as readable, in the editor panel.
    await vsc.executeCommand('stategate.showPanel', path.join(vsc.workspaceDir, 'release-train.statechart.yaml'));
    const big = await vsc.webviewFrame('[data-testid="definition"][data-file="release-train.statechart.yaml"]', 20_000);
    await big.locator('[data-testid="diagram-state"]').first().waitFor({ timeout: 10_000 });
    const bigM = await measureDiagram(big);
    assert.equal(bigM.states, 40);
    assert.ok(bigM.minDrawnLabelPx >= bigM.editorFontPx - 0.01 && bigM.minLabelPx >= bigM.editorFontPx, `40 states: labels at ${bigM.minDrawnLabelPx}px`);
    assert.ok(bigM.svgWidth <= bigM.panelWidth && bigM.svgWidth >= 0.75 * bigM.panelWidth, `40 states: ${bigM.svgWidth}px in ${bigM.panelWidth}px`);
    assert.ok(bigM.minContrast >= 4.5);
    // Wider than this panel at the editor's font size: it says so at once. A real scroller wider than its view,
    // the right edge faded (the theme's scrollbar shadow), the zoom shown at 100%.
    const cut = await waitUntil('the cut-off side to fade', async () => {
      const m = await measureDiagram(big);
      return m.fadeRight === 1 ? m : undefined;
    }, 5_000);
    assert.ok(cut.contentWidth > cut.svgWidth + 50, `40 states: ${cut.contentWidth}px drawn in a ${cut.svgWidth}px view`);
    assert.equal(cut.overflow, 'right');
    assert.equal(cut.fadeLeft, 0);
    assert.equal(cut.zoomText, '100%');
    t.diagnostic(`screenshot: ${await vsc.screenshot('statechart-40-states')}`);
    // A sideways wheel (a trackpad's swipe) over it scrolls it: now both sides have more.
    const bigViewport = big.locator('[data-testid="definition"] [data-testid="diagram-viewport"]').first();
    await wheelOver(vsc.page, bigViewport, { x: 300 }, { atY: 60 });
    const swiped = await waitUntil('the sideways wheel to scroll the diagram', async () => {
      const m = await measureDiagram(big);
      return m.scrollLeft > 0 && m.overflow === 'both' && m.fadeLeft === 1 ? m : undefined;
    }, 5_000);
    // The chevron on the cut edge scrolls further that way.
    await big.locator('[data-testid="diagram-more-right"]').click();
    await waitUntil('the chevron to scroll the diagram', async () => (await measureDiagram(big)).scrollLeft > swiped.scrollLeft + 100, 5_000);
    // "Show all" (asked for, so smaller than the editor's font size may be): every state in view, the zoom shown.
    await big.locator('[data-testid="diagram-fit"]').click();
    const all = await waitUntil('the whole diagram in view', async () => {
      const m = await measureDiagram(big);
      return m.overflow === 'none' && m.fadeRight === 0 && (await allStatesInView(big)).length === 0 ? m : undefined;
    }, 5_000);
    assert.ok(scaleOf(all) < 1, `Show all zoomed out (${all.zoomText})`);
    assert.equal(all.zoomText, `${Math.round(scaleOf(all) * 100)}%`);
    t.diagnostic(`screenshot: ${await vsc.screenshot('statechart-40-states-all')}`);

    // "Show diagram" on another file while this run is active: the editor panel shows that file's
    // definition with no state highlighted (not this run), the side bar keeps the run, and
    // "Export Diagram…" exports the file in the editor, not the run's workflow.
    await vsc.openFile('review.workflow.json');
    const lens = vsc.page.locator('.editor-group-container.active .codelens-decoration a', { hasText: '◈ Show diagram' }).first();
    await lens.waitFor({ state: 'visible', timeout: 30_000 });
    await lens.click();
    const def = await vsc.webviewFrame('[data-testid="definition"][data-file="review.workflow.json"]', 20_000);
    const drawn = def.locator('[data-testid="diagram-state"]');
    await drawn.first().waitFor({ timeout: 10_000 });
    assert.deepEqual((await drawn.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).sort(), ['drafting', 'merged', 'reviewing']);
    assert.equal(await def.locator('[data-testid="diagram-state"][data-current="true"], [data-testid="diagram-state"][data-active="true"]').count(), 0, 'no state highlighted');
    assert.equal(await (await panel(vsc)).locator('[data-testid="run"]').count(), 1, 'the side bar still shows the run');
    const mermaid = String(await vsc.executeCommand('stategate.exportDiagram', 'mermaid'));
    assert.match(mermaid, /s_drafting --> s_reviewing: SUBMIT/);
    assert.doesNotMatch(mermaid, /compil/);
    // "Show run" goes back to the run in the same panel.
    await def.locator('[data-testid="close-definition"]').click();
    await def.locator('[data-testid="run"]').waitFor({ timeout: 10_000 });
  });
});
