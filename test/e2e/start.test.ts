// `npm start` (scripts/start.mjs), run through npm as the README says: prints an
// address once code-server answers; a browser there shows VS Code with stategate
// on examples/; Ctrl+C stops everything.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { ARTIFACTS, REPO_ROOT, e2eEnv, freePort } from './harness';
import { tempDir } from '../unit/helpers/temp-dir';

test('npm start serves VS Code with stategate on examples/ and stops on Ctrl+C', { timeout: 300_000 }, async (t) => {
  const home = tempDir('stategate-start-', t);
  const port = await freePort();
  // Through npm (its environment reaches scripts/start.mjs and setup.sh), in a
  // process group of its own, like a command started from a terminal.
  const child = spawn('npm', ['start'], {
    cwd: REPO_ROOT,
    // A temp folder of its own: code-server leaves its IPC sockets there.
    env: { ...process.env, PORT: String(port), STATEGATE_START_HOME: home, TMPDIR: tempDir('sg-start-tmp-', t) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const closed = new Promise((resolve) => child.once('close', resolve)); // npm gone and its output read
  const browser = await chromium.launch({
    executablePath: e2eEnv().chromium,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update'],
  });
  let page: import('playwright-core').Page | undefined;
  try {
    const deadline = Date.now() + 180_000;
    let url: string | undefined;
    while (!url) {
      url = /http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+/.exec(out)?.[0];
      if (child.exitCode !== null || child.signalCode !== null) assert.fail(`npm start exited early:\n${out}`);
      if (Date.now() > deadline) assert.fail(`no address printed:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(url.startsWith(`http://127.0.0.1:${port}/`), `the address uses PORT: ${url}`);
    assert.ok(url.endsWith(encodeURI(path.join(REPO_ROOT, 'examples'))), `it opens examples/: ${url}`);
    // It printed the address only once the server answered.
    assert.equal((await fetch(url)).status, 200);

    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    await page.locator('#workbench\\.parts\\.statusbar').waitFor({ timeout: 60_000 });
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'review.workflow.json' }).waitFor({ timeout: 60_000 });
    // The extension is installed and enabled: its commands are in the palette (asked
    // again until the extension host has registered them: the page is just loaded).
    const input = page.locator('.quick-input-widget .quick-input-box input');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'stategate: Start Workflow Run' }).first();
    const paletteBy = Date.now() + 60_000;
    for (;;) {
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible' });
      await input.fill('>stategate: Start Workflow Run');
      if (await row.waitFor({ timeout: 3_000 }).then(() => true, () => false)) break;
      await page.keyboard.press('Escape');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
      if (Date.now() > paletteBy) assert.fail('stategate: Start Workflow Run… never appeared in the palette');
    }
    await page.keyboard.press('Escape');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'npm-start.png') });
  } catch (e) {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page?.screenshot({ path: path.join(ARTIFACTS, 'FAILED-npm-start.png') }).catch(() => undefined);
    throw e;
  } finally {
    await browser.close();
    // What Ctrl+C sends: SIGINT to the terminal's foreground process group
    // (npm, its shell and scripts/start.mjs; code-server has a group of its own).
    process.kill(-child.pid!, 'SIGINT');
  }
  const stopped = await groupEnds(child.pid!, 20_000);
  if (stopped) await closed;
  else process.kill(-child.pid!, 'SIGKILL');
  assert.ok(stopped, `npm start stops on Ctrl+C:\n${out}`);
  assert.match(out, /\[start\] stopping code-server/);
  // Nothing is left listening.
  await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`));
  t.diagnostic(out.split('\n').filter((l) => l.includes('http://')).join(' '));
});

/** Whether every process of the group `pgid` has ended within `ms`. */
async function groupEnds(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return true; // ESRCH: no process left in the group
    }
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}
