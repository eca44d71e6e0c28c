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
import { panel, waitForCurrent } from './chart-panel';
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

test('the state panel on a statechart run: nested diagram, an event from a button, an after firing by itself', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, { workspace: 'test/e2e/fixtures/statechart-panel', viewport: { width: 1500, height: 950 } }, async (vsc) => {
    await vsc.hostReady();
    await vsc.page.locator('.activitybar .action-item a[aria-label^="stategate"]').click();
    await (await panel(vsc)).locator('[data-testid="no-run"]').waitFor({ timeout: 30_000 });
    await vsc.widenSideBar(760);

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
    assert.equal((await state('work.resume').textContent())?.trim(), 'H*');
    const [compile, lint] = [await state('work.build.compile').boundingBox(), await state('work.build.lint').boundingBox()];
    assert.ok(compile && lint && (compile.x + compile.width <= lint.x || lint.x + lint.width <= compile.x || compile.y + compile.height <= lint.y || lint.y + lint.height <= compile.y), 'the regions are drawn apart');
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'pipeline › compile.compiling | lint.linting');

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

    // A panel button sends COMPILED: the compile region moves, a 2 s timer is pending.
    // From here nothing but VS Code touches the run (a CLI command would fire a due timer itself).
    await f.locator('[data-testid="event-button"][data-event="COMPILED"]').click();
    await waitForCurrent(vsc, [TESTING, LINTING]);
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'pipeline › compile.testing | lint.linting');
    const timer = (await panel(vsc)).locator('[data-testid="chart-timer"]');
    assert.match(await timer.innerText(), /after 2s → tested/);

    // The after transition fires by itself, from the extension host's timer.
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'pipeline › compile.tested | lint.linting', 20_000);
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
