// The packaged extension in a real VS Code: installed, active, its command in the palette.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withVsCode } from './harness';

test('the workbench loads with stategate installed and activatable', { timeout: 240_000 }, async (t) => {
  await withVsCode(t, { workspace: 'test/e2e/fixtures/smoke' }, async (vsc) => {
    // Inside the extension host.
    const ready = await vsc.hostReady();
    assert.match(ready.vscodeVersion, /^1\.\d+\.\d+$/);
    assert.equal(ready.trusted, true);
    const result = await vsc.host('smoke');
    for (const r of result.tests) assert.ok(r.ok, `${r.name}: ${r.error}`);
    assert.ok(result.ok, result.error);
    const activation = result.tests.find((r) => r.name.startsWith('stategate is installed'))!.data as {
      activeBefore: boolean;
      activateMs: number;
      activateCallMs?: number;
    };
    assert.equal(activation.activeBefore, false, 'nothing in the smoke workspace should activate stategate');
    t.diagnostic(
      `VS Code ${ready.vscodeVersion}; stategate activation: ${activation.activateMs.toFixed(1)} ms to load and activate ` +
        `(activate() itself: ${activation.activateCallMs?.toFixed(1) ?? '?'} ms)`,
    );
    t.diagnostic(`launch timings (ms): ${JSON.stringify(vsc.timings)}`);

    // Through the UI, as a person would.
    const items = await vsc.paletteItems('stategate: Show Version');
    assert.ok(items.some((i) => i.startsWith('stategate: Show Version')), `palette shows: ${items.join(' | ')}`);
    await vsc.runCommand('stategate: Show Version');
    // The text of the toast found (a second read of all toasts could miss it: CI once read none, the toast gone or not yet listed).
    const shown = vsc.page.locator('.notifications-toasts .notification-list-item-message', { hasText: /^stategate \d/ }).first();
    await shown.waitFor({ timeout: 10_000 });
    const toast = (await shown.innerText()).trim();
    assert.match(toast, new RegExp(`^stategate \\d+\\.\\d+\\.\\d+ \\(VS Code ${ready.vscodeVersion.replace(/\./g, '\\.')}\\)$`));
    t.diagnostic(`screenshot: ${await vsc.screenshot('smoke-workbench')}`);
  });
});

test('in Restricted Mode stategate is enabled (limited support) and activates', { timeout: 240_000 }, async (t) => {
  await withVsCode(t, { workspace: 'test/e2e/fixtures/smoke', restricted: true }, async (vsc) => {
    const ready = await vsc.hostReady();
    assert.equal(ready.trusted, false, 'the folder opened in Restricted Mode');
    const result = await vsc.host('smoke', ['stategate is installed, activates and registers its commands']);
    assert.equal(result.tests.length, 1);
    for (const r of result.tests) assert.ok(r.ok, `${r.name}: ${r.error}`);
    await vsc.screenshot('smoke-restricted');
  });
});
