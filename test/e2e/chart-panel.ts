// Reading the state panel's diagram on a statechart run (shared by the e2e tests
// that start a statechart run and look at what the panel highlights).
import type { Frame } from 'playwright-core';
import type { VsCode } from './harness';

/** The state panel's webview frame (with a run or without one). */
export async function panel(vsc: VsCode): Promise<Frame> {
  return await vsc.webviewFrame('[data-testid="run"], [data-testid="no-run"]', 30_000);
}

/** The states the diagram draws as current (the active leaves), sorted. */
export async function currentStates(vsc: VsCode): Promise<string[]> {
  const f = await panel(vsc);
  const out: string[] = [];
  for (const el of await f.$$('[data-testid="diagram-state"][data-current="true"]')) out.push((await el.getAttribute('data-state')) ?? '');
  return out.sort();
}

/** Waits until the diagram highlights exactly `states` as current (a state, not a time, is waited for). */
export async function waitForCurrent(vsc: VsCode, states: readonly string[], timeoutMs = 20_000): Promise<void> {
  const want = [...states].sort().join(' ');
  const end = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < end) {
    last = (await currentStates(vsc).catch(() => [])).join(' ');
    if (last === want) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the diagram did not highlight ${want} within ${timeoutMs} ms (it shows ${last || 'nothing'})`);
}

/**
 * Before a screenshot: the panel scrolled to its top (a click on an event button
 * below the diagram scrolls the page to it), or, given a state, that state
 * scrolled into view in the page and in the diagram's own scroller.
 */
export async function showInPanel(vsc: VsCode, state?: string): Promise<void> {
  const f = await panel(vsc);
  if (state === undefined) await f.evaluate('document.documentElement.scrollTop = 0; document.body.scrollTop = 0');
  else await f.locator(`[data-testid="diagram-state"][data-state="${state}"]`).scrollIntoViewIfNeeded();
  // The pointer off the sash it may have dragged (a hovered sash is drawn highlighted).
  await vsc.page.mouse.move(1, 1);
  await vsc.page.waitForTimeout(300);
}
