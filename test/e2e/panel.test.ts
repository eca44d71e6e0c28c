// The state panel in the real VS Code: the diagram follows the run (panel
// buttons, the CLI in another process, editor saves that fire an interrupt),
// approvals wait for a person in the notification, and a window reload brings
// the panel back. Assertions read the webview's DOM (data-testid / data-*).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Frame } from 'playwright-core';
import { cardSpills } from './card-overflow';
import { goto } from './editor-actions';
import { REPO_ROOT, type VsCode, withVsCode } from './harness';
import { showInPanel } from './chart-panel';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const PANEL = '[data-testid="run"], [data-testid="no-run"]';

/** `stategate run ...` in the workspace, as a person would type it in a terminal. */
function cli(vsc: VsCode, ...args: string[]): Record<string, unknown> {
  return JSON.parse(execFileSync(process.execPath, [CLI, 'run', ...args], { cwd: vsc.workspaceDir, encoding: 'utf8' })) as Record<string, unknown>;
}

/** The panel's webview frame (looked up again each time: a reload or re-show replaces it). */
async function panel(vsc: VsCode): Promise<Frame> {
  return await vsc.webviewFrame(PANEL, 30_000);
}

async function currentState(vsc: VsCode): Promise<string | null> {
  const f = await panel(vsc);
  const el = await f.$('[data-testid="diagram-state"][data-current="true"]');
  return el ? await el.getAttribute('data-state') : null;
}

/** Waits until the diagram highlights `state`; returns how long that took (ms). */
async function waitForCurrent(vsc: VsCode, state: string, timeoutMs = 20_000, everyMs = 25): Promise<number> {
  const t0 = Date.now();
  let last: string | null = null;
  while (Date.now() - t0 < timeoutMs) {
    last = await currentState(vsc).catch(() => null);
    if (last === state) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`the diagram did not highlight ${state} within ${timeoutMs} ms (it shows ${last})`);
}

/** How many webviews show the panel now (the side-bar view, the editor tab). */
async function panelCount(vsc: VsCode): Promise<number> {
  let n = 0;
  for (const f of vsc.page.frames()) if (f !== vsc.page.mainFrame() && (await f.$('[data-testid="run"]').catch(() => null))) n++;
  return n;
}

async function waitForPanels(vsc: VsCode, count: number, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while ((await panelCount(vsc)) !== count) {
    if (Date.now() > end) throw new Error(`expected ${count} panels, found ${await panelCount(vsc)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}


async function clickEvent(vsc: VsCode, event: string): Promise<void> {
  await (await panel(vsc)).locator(`[data-testid="event-button"][data-event="${event}"]`).click();
}

/** The approval notification's button (Approve or Reject). */
async function answerNotification(vsc: VsCode, event: string, choice: 'Approve' | 'Reject'): Promise<void> {
  const toast = vsc.page.locator('.notifications-toasts .notification-list-item', { hasText: `approve ${event}` });
  await toast.first().waitFor({ state: 'visible', timeout: 15_000 });
  await toast.first().locator('.monaco-button', { hasText: choice }).click();
}

test('the state panel follows a run and lets a person step in', { timeout: 420_000 }, async (t) => {
  await withVsCode(t, { workspace: 'test/e2e/fixtures/panel' }, async (vsc) => {
    await vsc.hostReady();

    // The view in its own activity-bar container, before any run.
    await vsc.page.locator('.activitybar .action-item a[aria-label^="stategate"]').click();
    await (await panel(vsc)).locator('[data-testid="no-run"]').waitFor({ timeout: 30_000 });
    await vsc.widenSideBar(560);
    // A quoted command reads as code, not as raw backticks (issue 32, item 6).
    const noRun = (await panel(vsc)).locator('[data-testid="no-run"]');
    assert.doesNotMatch(await noRun.innerText(), /`/, 'no raw backticks');
    assert.equal((await noRun.locator('code').innerText()).trim(), 'stategate run start FILE');

    // A run started from the CLI shows with no action in VS Code.
    const startedAt = Date.now();
    cli(vsc, 'start', 'feature.workflow.json');
    const startDelay = await waitForCurrent(vsc, 'plan');
    t.diagnostic(`CLI start -> panel: ${startDelay} ms after the CLI exited (${Date.now() - startedAt} ms including the CLI)`);
    const f0 = await panel(vsc);
    assert.equal(await f0.locator('[data-testid="diagram-state"][data-current="true"]').count(), 1, 'exactly one current state');
    assert.match((await f0.locator('[data-testid="diagram-state"][data-state="plan"]').getAttribute('class')) ?? '', /\bcurrent\b/);
    assert.equal(await f0.locator('[data-testid="diagram-state"][data-state="shipped"]').getAttribute('data-final'), 'true');
    assert.match(await f0.locator('[data-testid="limit-iterations"]').innerText(), /iterations 0\/10/);
    assert.match(await f0.locator('[data-testid="steps"]').innerText(), /steps 0\/6/);
    assert.equal((await f0.locator('[data-testid="danger"]').innerText()).trim(), 'moderate');
    // One status vocabulary (issue 32, item 6): the badge and the record read "running", the record's counts in plain words.
    assert.equal((await f0.locator('[data-testid="run-status"]').innerText()).trim(), 'running');
    assert.equal((await f0.locator('[data-testid="record-status"] .chip').textContent())?.trim(), 'running');
    assert.match((await f0.locator('[data-testid="record-counts"]').textContent())?.trim() ?? '', /^0 tasks done, \d+ pending, 0 lessons recorded, 1 checkpoint$/);
    const timeShown = async () => (await f0.locator('[data-testid="record-time"]').textContent())?.replace(/\s+/g, ' ').trim();
    const before = await timeShown();
    await vsc.page.waitForTimeout(2_100);
    assert.notEqual(await timeShown(), before, `the record's time ticks (was ${before})`);
    assert.equal(await f0.locator('[data-testid="diagram-group"][data-kind="interrupts"]').count(), 1);
    await vsc.page.waitForTimeout(300);
    t.diagnostic(`screenshot: ${await vsc.screenshot('panel-current-state')}`);

    // A panel button fires an event through the engine; the diagram moves and marks the path.
    await clickEvent(vsc, 'READY');
    await waitForCurrent(vsc, 'implement');
    const f1 = await panel(vsc);
    await f1.locator('[data-testid="diagram-edge"][data-from="plan"][data-to="implement"][data-taken="true"]').waitFor({ timeout: 5_000 });
    assert.equal(await f1.locator('[data-testid="diagram-state"][data-state="plan"]').getAttribute('data-visited'), 'true');
    assert.equal(await f1.locator('[data-testid="guard"][data-passes="false"]').count(), 1, 'TESTED shows its failing guard');
    assert.equal(await f1.locator('[data-testid="event-button"][data-event="TESTED"]').getAttribute('data-available'), 'false');
    assert.equal(cli(vsc, 'state').state, 'implement');

    // A transition made by another process shows with no reload: measure the delay.
    const delays: number[] = [];
    cli(vsc, 'send', 'SUBMIT');
    delays.push(await waitForCurrent(vsc, 'review'));
    t.diagnostic(`CLI send SUBMIT -> panel: ${delays[0]} ms`);

    // Saving a file that matches the interrupt's pattern switches the state and shows the banner.
    await vsc.openFile('.env');
    await vsc.typeInEditor('DEBUG=1\n');
    await vsc.page.keyboard.press('Control+s');
    await waitForCurrent(vsc, 'secret_review');
    const f2 = await panel(vsc);
    await f2.locator('[data-testid="interrupt-banner"]').waitFor({ timeout: 5_000 });
    assert.equal((await f2.locator('[data-testid="interrupt-file"]').innerText()).trim(), '.env');
    assert.equal((await f2.locator('[data-testid="interrupt-return"]').innerText()).trim(), 'review');
    // $return goes back to the interrupted state and ends the interrupt.
    await clickEvent(vsc, 'RESUME');
    await waitForCurrent(vsc, 'review');
    await (await panel(vsc)).locator('[data-testid="interrupt-banner"]').waitFor({ state: 'detached', timeout: 5_000 });

    // An approval-gated event waits; Reject in the notification leaves the state unchanged.
    await clickEvent(vsc, 'SHIP');
    await (await panel(vsc)).locator('[data-testid="approval-card"]').waitFor({ timeout: 10_000 });
    assert.equal((await (await panel(vsc)).locator('[data-testid="run-status"]').innerText()).trim(), 'waiting for approval');
    assert.equal(await currentState(vsc), 'review');
    assert.equal((cli(vsc, 'state').pending_approval as { event: string }).event, 'SHIP');
    // With a transition waiting, the palette offers Approve and Reject (issue 32, item 7; runs.test.ts checks that it does not without one).
    for (const query of ['Approve Pending Transition', 'Reject Pending Transition']) {
      assert.equal((await vsc.paletteItems(`stategate: ${query}`)).filter((p) => p.includes(query)).length, 1, `an approval pending: "${query}" in the palette`);
    }
    await answerNotification(vsc, 'SHIP', 'Reject');
    await (await panel(vsc)).locator('[data-testid="approval-card"]').waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(await currentState(vsc), 'review');
    assert.equal(cli(vsc, 'state').pending_approval, undefined);

    // Asked again: clicking a state opens its definition; the picture for the README is taken mid-run.
    await clickEvent(vsc, 'SHIP');
    await (await panel(vsc)).locator('[data-testid="approval-card"]').waitFor({ timeout: 10_000 });
    await (await panel(vsc)).locator('[data-testid="diagram-state"][data-state="review"]').click();
    await vsc.page.locator('.tabs-container .tab.active[aria-label*="feature.workflow.json"]').waitFor({ timeout: 10_000 });
    assert.equal(await currentState(vsc), 'review', 'still waiting for the approval');
    await vsc.page.locator('.notifications-toasts .notification-list-item', { hasText: 'approve SHIP' }).first().waitFor({ timeout: 15_000 });
    // The picture shows the panel from its top (the approval card, the diagram) with the side bar's height.
    await vsc.page.locator('.pane-header', { hasText: 'Flows' }).first().click();
    await vsc.widenSideBar(640);
    await showInPanel(vsc);
    const docShot = await vsc.screenshot('panel-mid-run');
    fs.mkdirSync(path.join(REPO_ROOT, 'docs', 'images'), { recursive: true });
    fs.copyFileSync(docShot, path.join(REPO_ROOT, 'docs', 'images', 'panel.png'));
    t.diagnostic(`screenshot: ${docShot} (copied to docs/images/panel.png)`);
    // Approve in the notification: only now does the run move.
    await answerNotification(vsc, 'SHIP', 'Approve');
    await waitForCurrent(vsc, 'shipped');
    assert.equal(cli(vsc, 'state').status, 'completed');

    // Time travel: the history entry of SUBMIT shows the run as it was then (read-only).
    const f3 = await panel(vsc);
    await f3.locator('[data-testid="history-entry"][data-kind="transition"]', { hasText: 'SUBMIT' }).click();
    await f3.locator('[data-testid="history-point-state"]', { hasText: 'review' }).waitFor({ timeout: 5_000 });
    assert.equal(await currentState(vsc), 'shipped', 'the live state stays highlighted');

    // The diagram as the panel drew it, saved as SVG.
    const svgFile = path.join(vsc.workspaceDir, 'out', 'feature.svg');
    assert.equal(await vsc.executeCommand('stategate.exportSvg', svgFile), svgFile);
    const svg = fs.readFileSync(svgFile, 'utf8');
    assert.match(svg, /^<\?xml/);
    assert.match(svg, /<svg[^>]*viewBox/);
    assert.ok(svg.includes('secret_review') && !svg.includes('var(--'), 'standalone: names drawn, no theme variables left');

    // Another CLI transition timing, from a fresh run, then a reload restores the panel.
    cli(vsc, 'start', 'feature.workflow.json');
    delays.push(await waitForCurrent(vsc, 'plan'));
    cli(vsc, 'send', 'READY');
    delays.push(await waitForCurrent(vsc, 'implement'));
    t.diagnostic(`CLI -> panel delays (ms): ${delays.join(', ')}`);

    await vsc.reloadWindow();
    const restored = await waitForCurrent(vsc, 'implement', 60_000);
    t.diagnostic(`after a window reload the panel showed implement in ${restored} ms`);
    await (await panel(vsc)).locator('[data-testid="history-entry"]').first().waitFor({ timeout: 10_000 });

    // The same panel as an editor tab, also restored by a reload.
    await vsc.runCommand('stategate: Show State Panel');
    await waitForPanels(vsc, 2);
    await vsc.reloadWindow();
    await waitForPanels(vsc, 2);
  });
});

test('in a debug workflow the panel edits the context; a changed workflow file shows a banner with Reload', { timeout: 240_000 }, async (t) => {
  await withVsCode(t, { workspace: 'test/e2e/fixtures/panel-debug' }, async (vsc) => {
    await vsc.hostReady();
    cli(vsc, 'start', 'debug.workflow.json');
    await vsc.runCommand('stategate: Show State Panel');
    await waitForCurrent(vsc, 'investigate');
    const f = await panel(vsc);
    assert.equal(await f.locator('[data-testid="event-button"][data-event="FOUND"]').getAttribute('data-available'), 'false');

    // Setting `cause` makes FOUND's guard pass.
    await f.locator('[data-testid="context-key"]').fill('cause');
    await f.locator('[data-testid="context-value"]').fill('"race in the lock"');
    await f.locator('[data-testid="context-set"]').click();
    await f.locator('[data-testid="event-button"][data-event="FOUND"][data-available="true"]').waitFor({ timeout: 10_000 });
    assert.deepEqual((cli(vsc, 'state').context as Record<string, unknown>).cause, 'race in the lock');
    assert.equal(await currentState(vsc), 'investigate', 'editing the context keeps the state');

    // The workflow file changes on disk: the run keeps its definition, the panel offers a reload.
    const file = path.join(vsc.workspaceDir, 'debug.workflow.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"Reproduce the bug."', '"Reproduce the bug with a test."'));
    const banner = (await panel(vsc)).locator('[data-testid="definition-changed"]');
    await banner.waitFor({ timeout: 15_000 });
    await (await panel(vsc)).locator('[data-testid="reload-definition"]').click();
    await banner.waitFor({ state: 'detached', timeout: 15_000 });
    assert.equal((await (await panel(vsc)).locator('[data-testid="instructions"]').innerText()).trim(), 'Reproduce the bug with a test.');
    t.diagnostic(`screenshot: ${await vsc.screenshot('panel-debug')}`);

    // The banner means "the saved file differs and the run can take it" (issue 32, item 9): typing without saving shows none,
    // a save shows it, and a finished run (nothing left to reload into) shows none.
    const withBanner = async (): Promise<number> => await (await panel(vsc)).locator('[data-testid="definition-changed"]').count();
    await vsc.openFile('debug.workflow.json');
    await vsc.runCommand('View: Move Editor into Right Group'); // the panel stays in sight beside it
    const text = fs.readFileSync(file, 'utf8');
    await goto(vsc, text, text.indexOf('Reproduce the bug with a test.') + 'Reproduce the bug with a test'.length);
    await vsc.page.keyboard.type(' (unsaved)');
    await vsc.page.waitForTimeout(2_500); // the panel polls every second
    assert.equal(await withBanner(), 0, 'an unsaved edit is not a changed definition');
    await vsc.page.keyboard.press('Control+S');
    await (await panel(vsc)).locator('[data-testid="definition-changed"]').waitFor({ timeout: 15_000 });
    cli(vsc, 'send', 'FOUND');
    cli(vsc, 'send', 'FIXED');
    await (await panel(vsc)).locator('[data-testid="run"][data-status="completed"]').waitFor({ timeout: 15_000 });
    assert.equal(await withBanner(), 0, 'a completed run offers no reload');

    // Long names, commands, paths and values wrap inside their cards in a narrow side bar (issue 32, item 9).
    await vsc.runCommand('View: Close All Editors');
    cli(vsc, 'start', 'release-with-an-uncommonly-long-name.workflow.json');
    await vsc.page.locator('.activitybar .action-item a[aria-label^="stategate"]').click();
    await vsc.widenSideBar(240);
    const side = await vsc.webviewFrame('[data-testid="run"][data-state^="verifying_the_release_candidate"]', 30_000);
    await side.locator('[data-testid="record"]').waitFor({ timeout: 15_000 });
    const spills = await cardSpills(side);
    t.diagnostic(`screenshot: ${await vsc.screenshot('panel-narrow-side-bar')}`);
    assert.deepEqual(spills, [], 'no element runs out of its card');
  });
});

