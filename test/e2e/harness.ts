// End-to-end harness: a real VS Code (code-server) on a loopback port, driven by
// Debian's Chromium through playwright-core, with stategate's freshly built VSIX
// and the in-host test runner (test/e2e/host-runner) installed.
//
//   const vsc = await VsCode.launch({ workspace: 'test/e2e/fixtures/smoke' });
//   await vsc.runCommand('stategate: Show Version');
//   const result = await vsc.host('smoke');       // suites run inside the extension host
//   await vsc.close();
//
// Or, in a node:test test, `withVsCode(t, options, async (vsc) => ...)`, which
// saves a screenshot and the VS Code logs to test-artifacts/ when the body fails
// and always tears everything down.
//
// Prerequisite: `bash test/e2e/setup.sh` (npm run test:e2e runs it) and a built
// stategate.vsix at the repository root (npm run package).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { type Browser, type Frame, type Locator, type Page, chromium } from 'playwright-core';
import type { HostSuiteResult } from './host-runner/src/suite';
// STATEGATE_STATE_DIR: a temporary folder, inherited by code-server, its extension host and the hooks it runs.
import '../unit/helpers/state-dir';
import { removeTempDir, tempDir } from '../unit/helpers/temp-dir';

export type { HostSuiteResult, HostTestResult } from './host-runner/src/suite';

const run = promisify(execFile);

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');
export const STATEGATE_VSIX = process.env.STATEGATE_VSIX ?? path.join(REPO_ROOT, 'stategate.vsix');
const CACHE = process.env.STATEGATE_E2E_CACHE ?? path.join(os.homedir(), '.cache', 'stategate-e2e');

export interface E2eEnv {
  /** Node 24, code-server's engine. */
  readonly node: string;
  /** code-server's out/node/entry.js. */
  readonly codeServer: string;
  readonly chromium: string;
}

/** Paths written by test/e2e/setup.sh. */
export function e2eEnv(): E2eEnv {
  const file = path.join(CACHE, 'env.sh');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run bash test/e2e/setup.sh first`);
  const vars = new Map<string, string>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^(\w+)='(.*)'$/.exec(line);
    if (m) vars.set(m[1]!, m[2]!);
  }
  const get = (k: string): string => {
    const v = vars.get(k);
    if (!v || !fs.existsSync(v)) throw new Error(`${k} (${v}) from ${file} does not exist: rerun bash test/e2e/setup.sh`);
    return v;
  };
  return { node: get('STATEGATE_E2E_NODE'), codeServer: get('STATEGATE_E2E_CODE_SERVER'), chromium: get('STATEGATE_E2E_CHROMIUM') };
}

/** Settings every run starts from; `LaunchOptions.settings` is merged over them. */
export const BASE_SETTINGS: Readonly<Record<string, unknown>> = {
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.reduceMotion': 'on',
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'files.autoSave': 'off',
  'editor.accessibilitySupport': 'off',
  // typeInEditor types literally: no auto-closing, auto-indent or suggestions accepted by Enter.
  // (A test of completion turns suggestions back on through LaunchOptions.settings.)
  'editor.autoClosingBrackets': 'never',
  'editor.autoClosingQuotes': 'never',
  'editor.autoClosingComments': 'never',
  'editor.autoSurround': 'never',
  'editor.autoIndent': 'none',
  'editor.formatOnType': false,
  'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
  'editor.suggestOnTriggerCharacters': false,
  'editor.acceptSuggestionOnEnter': 'off',
  'editor.parameterHints.enabled': false,
  'window.commandCenter': false,
  // The DOM renderer, so tests can read the terminal's text.
  'terminal.integrated.gpuAcceleration': 'off',
  'terminal.integrated.enablePersistentSessions': false,
  // A plain bash without rc files: the PATH a test gives (LaunchOptions.env) reaches the shell as it is.
  'terminal.integrated.profiles.linux': { 'e2e-bash': { path: '/bin/bash', args: ['--noprofile', '--norc'] } },
  'terminal.integrated.defaultProfile.linux': 'e2e-bash',
  'terminal.integrated.shellIntegration.enabled': false,
  'chat.commandCenter.enabled': false,
};

export interface LaunchOptions {
  /** A folder to copy and open as the workspace (relative to the repository root or absolute). Default: an empty folder. */
  readonly workspace?: string;
  /** Leave workspace trust on, so the workspace opens in Restricted Mode. */
  readonly restricted?: boolean;
  /** User settings merged over BASE_SETTINGS. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** VSIX files to install; default: stategate.vsix and the host runner. */
  readonly extensions?: readonly string[];
  /** Extra environment for code-server, its extension host and terminals (a function gets the run's folders). */
  readonly env?: Readonly<Record<string, string>> | ((vsc: VsCode) => Readonly<Record<string, string>>);
  /** Browser viewport. Default 1400x900. */
  readonly viewport?: { readonly width: number; readonly height: number };
}

const live = new Set<VsCode>();
process.on('exit', () => {
  for (const v of live) v.killNow();
});

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

const builtVsix = new Map<string, Promise<string>>();

/**
 * Builds a test-only extension folder (`package.json` + `src/extension.ts`,
 * bundled with esbuild, `vscode` external) into a VSIX, once per process and folder.
 */
export function testExtensionVsix(dir: string): Promise<string> {
  let built = builtVsix.get(dir);
  if (!built) {
    built = (async () => {
      const out = tempDir(`stategate-${path.basename(dir)}-`); // lives as long as this process
      const { build } = await import('esbuild');
      await build({
        entryPoints: [path.join(dir, 'src', 'extension.ts')],
        outfile: path.join(out, 'dist', 'extension.js'),
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        external: ['vscode'],
        logLevel: 'warning',
      });
      fs.copyFileSync(path.join(dir, 'package.json'), path.join(out, 'package.json'));
      fs.writeFileSync(path.join(out, 'README.md'), 'Test-only extension for stategate end-to-end tests.\n');
      fs.writeFileSync(path.join(out, '.vscodeignore'), '*.vsix\n');
      const vsix = path.join(out, `${path.basename(dir)}.vsix`);
      // @vscode/vsce's programmatic API (no types shipped).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const vsce = require('@vscode/vsce') as { createVSIX(o: Record<string, unknown>): Promise<unknown> };
      // vsce reports on the console; keep the test output to the tests.
      const saved = { log: console.log, info: console.info, warn: console.warn };
      console.log = console.info = console.warn = () => undefined;
      try {
        await vsce.createVSIX({ cwd: out, packagePath: vsix, dependencies: false, allowMissingRepository: true, skipLicense: true });
      } finally {
        Object.assign(console, saved);
      }
      return vsix;
    })();
    builtVsix.set(dir, built);
  }
  return built;
}

/** The in-host test runner (test/e2e/host-runner) as a VSIX. */
export function hostRunnerVsix(): Promise<string> {
  return testExtensionVsix(path.join(__dirname, 'host-runner'));
}

export async function waitUntil<T>(what: string, check: () => T | Promise<T>, timeoutMs: number, everyMs = 100): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface StatusBarItem {
  /** The item's DOM id: `<extension id>.<item id>` for extension items (e.g. `stategate.stategate.run`). */
  readonly id: string;
  readonly text: string;
  /** The accessible label (the item's text, or its `accessibilityInformation`). */
  readonly label: string;
}

export class VsCode {
  /** Milliseconds from launch() to a ready workbench, for reports. */
  readonly timings: Record<string, number> = {};
  private server: ChildProcess | undefined;
  private browser: Browser | undefined;
  private serverLog = '';
  private closed = false;

  private constructor(
    readonly root: string,
    readonly workspaceDir: string,
    readonly userDataDir: string,
    readonly extensionsDir: string,
    readonly ipcDir: string,
    private _page?: Page,
    private _url = '',
  ) {}

  /** A folder on the integrated terminal's PATH, for commands a test provides. */
  get binDir(): string {
    return path.join(this.root, 'bin');
  }

  get page(): Page {
    if (!this._page) throw new Error('VS Code page is not open');
    return this._page;
  }

  /** The address the workbench is served at. */
  get url(): string {
    return this._url;
  }

  static async launch(opts: LaunchOptions = {}): Promise<VsCode> {
    const env = e2eEnv();
    const t0 = Date.now();
    const root = tempDir('stategate-e2e-');
    const workspaceDir = path.join(root, 'workspace');
    if (opts.workspace) fs.cpSync(path.resolve(REPO_ROOT, opts.workspace), workspaceDir, { recursive: true });
    else fs.mkdirSync(workspaceDir);
    const vsc = new VsCode(root, workspaceDir, path.join(root, 'user-data'), path.join(root, 'extensions'), path.join(root, 'ipc'));
    live.add(vsc);
    try {
      const extraEnv = typeof opts.env === 'function' ? opts.env(vsc) : opts.env;
      fs.mkdirSync(path.join(vsc.userDataDir, 'User'), { recursive: true });
      fs.mkdirSync(vsc.extensionsDir);
      fs.mkdirSync(vsc.ipcDir);
      fs.mkdirSync(vsc.binDir);
      const settings = {
        ...BASE_SETTINGS,
        // Commands a test puts in binDir are on the terminal's PATH (VS Code's server
        // resolves the shell's environment itself, so a PATH given to code-server alone is lost).
        'terminal.integrated.env.linux': { PATH: `${vsc.binDir}:\${env:PATH}` },
        // Restricted Mode without the startup dialog asking whether to trust the folder.
        ...(opts.restricted ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' } : {}),
        ...opts.settings,
      };
      fs.writeFileSync(path.join(vsc.userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
      // An explicit config file keeps code-server from reading or writing ~/.config/code-server.
      const config = path.join(root, 'code-server.yaml');
      fs.writeFileSync(config, 'auth: none\n');
      const common = ['--config', config, '--user-data-dir', vsc.userDataDir, '--extensions-dir', vsc.extensionsDir];

      const vsixes = opts.extensions ?? [STATEGATE_VSIX, await hostRunnerVsix()];
      for (const v of vsixes) if (!fs.existsSync(v)) throw new Error(`${v} does not exist (npm run package builds stategate.vsix)`);
      if (vsixes.length > 0) {
        await run(env.node, [env.codeServer, ...common, ...vsixes.flatMap((v) => ['--install-extension', v])], {
          env: vsc.childEnv(extraEnv),
          timeout: 120_000,
        });
      }
      vsc.timings.installMs = Date.now() - t0;

      const port = await freePort();
      const args = [
        env.codeServer,
        ...common,
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--auth',
        'none',
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-getting-started-override',
        '--ignore-last-opened',
        workspaceDir,
      ];
      const server = spawn(env.node, args, { env: vsc.childEnv(extraEnv), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      vsc.server = server;
      const onData = (d: Buffer): void => {
        vsc.serverLog += d.toString();
        if (vsc.serverLog.length > 1_000_000) vsc.serverLog = vsc.serverLog.slice(-500_000);
      };
      server.stdout!.on('data', onData);
      server.stderr!.on('data', onData);
      const base = `http://127.0.0.1:${port}`;
      await waitUntil(
        'code-server to answer',
        async () => {
          if (server.exitCode !== null) throw new Error(`code-server exited (${server.exitCode}):\n${vsc.serverLog}`);
          const res = await fetch(`${base}/healthz`);
          return res.ok;
        },
        60_000,
        200,
      );
      vsc.timings.serverMs = Date.now() - t0;

      vsc.browser = await chromium.launch({
        executablePath: env.chromium,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--disable-quic',
          '--no-first-run',
          '--disable-breakpad',
          '--disable-crash-reporter',
          '--disable-features=Translate,MediaRouter,OptimizationHints',
        ],
      });
      const browserContext = await vsc.browser.newContext({
        viewport: opts.viewport ?? { width: 1400, height: 900 },
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      vsc._page = await browserContext.newPage();
      vsc._url = `${base}/?folder=${encodeURIComponent(workspaceDir)}`;
      // Playwright's default 30 s is too short for the first load of the workbench on a machine shared by several runs.
      await vsc.page.goto(vsc._url, { timeout: 120_000 });
      await vsc.waitForWorkbench();
      vsc.timings.workbenchMs = Date.now() - t0;
      return vsc;
    } catch (e) {
      await vsc.close().catch(() => undefined);
      throw e;
    }
  }

  /** code-server's own temp files (IPC sockets, the TypeScript server's folder), removed with the run. */
  private tmp: string | undefined;

  private childEnv(extra?: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
    // A short path of its own (unix socket paths are limited to 107 bytes), not one inside root.
    this.tmp ??= tempDir('sg-vsc-');
    // Not this test runner's child context: with it, a `node --test` run in VS Code's terminal (a flow's
    // `npm test` in examples/) would report to a parent that is not there and skip its files.
    const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
    return {
      ...inherited,
      TMPDIR: this.tmp,
      // Keep code-server's own state (coder.json, ...) in this run's folder.
      XDG_DATA_HOME: path.join(this.root, 'xdg-data'),
      XDG_CONFIG_HOME: path.join(this.root, 'xdg-config'),
      STATEGATE_E2E_IPC: this.ipcDir,
      ...extra,
    };
  }

  /** Waits until the workbench is laid out (activity bar, status bar, editor area). */
  async waitForWorkbench(timeoutMs = 60_000): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
    await this.page.locator('#workbench\\.parts\\.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
    await this.page.locator('#workbench\\.parts\\.editor').waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /** Waits for the in-host runner: proves the extension host is up and the runner active. */
  async hostReady(timeoutMs = 60_000): Promise<{ vscodeVersion: string; execPath: string; workspaceFolders: string[]; trusted: boolean }> {
    const file = path.join(this.ipcDir, 'ready.json');
    await waitUntil('the in-host runner (ready.json)', () => fs.existsSync(file), timeoutMs);
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  }

  /** Runs an in-host suite (test/e2e/host-runner/suites) and returns its result. */
  async host(suite: string, only?: readonly string[], timeoutMs = 60_000): Promise<HostSuiteResult> {
    return (await this.request({ suite, ...(only ? { only } : {}) }, `in-host suite ${suite}`, timeoutMs)) as HostSuiteResult;
  }

  /**
   * Runs a command by id in the extension host (vscode.commands.executeCommand)
   * and returns its JSON result; throws when the command throws. For steps a test
   * does not check through the UI; `runCommand` goes through the palette.
   */
  async executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
    const r = (await this.request({ command, args }, `command ${command}`, 60_000)) as { ok: boolean; value?: unknown; error?: string };
    if (!r.ok) throw new Error(`${command} failed in the extension host: ${r.error}`);
    return r.value;
  }

  private async request(body: object, what: string, timeoutMs: number): Promise<unknown> {
    await this.hostReady(timeoutMs);
    const id = randomUUID();
    const req = path.join(this.ipcDir, `${id}.request.json`);
    fs.writeFileSync(`${req}.tmp`, JSON.stringify(body));
    fs.renameSync(`${req}.tmp`, req);
    const res = path.join(this.ipcDir, `${id}.result.json`);
    await waitUntil(what, () => fs.existsSync(res), timeoutMs);
    const result = JSON.parse(fs.readFileSync(res, 'utf8')) as unknown;
    fs.rmSync(res, { force: true });
    return result;
  }

  /** Opens the command palette and types `text` after the `>` prompt. */
  async openPalette(text: string): Promise<void> {
    const input = await this.quickInput();
    await input.fill(`>${text}`);
  }

  /** Opens the quick input (F1) unless it is open, and returns its text box. */
  private async quickInput(): Promise<Locator> {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    if (!((await input.isVisible()) && (await input.isEditable().catch(() => false)))) {
      // A quick input that is closing is visible but inert for a moment: let it go first.
      await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
      await this.page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
    }
    return input;
  }

  /** Closes the quick input if it is open. */
  async closeQuickInput(): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    if (await widget.isVisible()) {
      await this.page.keyboard.press('Escape');
      await widget.waitFor({ state: 'hidden', timeout: 5_000 });
    }
  }

  /** Labels of the rows the quick input shows now (after its list settles). */
  async quickPickItems(): Promise<string[]> {
    const rows = this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
    await this.page.waitForTimeout(150);
    return (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /** Palette entries matching `text` (e.g. to check a command is contributed). */
  async paletteItems(text: string): Promise<string[]> {
    await this.openPalette(text);
    const items = await this.quickPickItems();
    await this.closeQuickInput();
    return items;
  }

  /**
   * Runs a command by its palette label (`stategate: Show Version`): the first row
   * must start with it. Right after a (re)load the palette may not list extension
   * commands yet, so it is asked again until `timeoutMs`.
   */
  async runCommand(label: string, timeoutMs = 20_000): Promise<void> {
    const row = this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first();
    const matches = async (): Promise<boolean> => ((await row.getAttribute('aria-label').catch(() => null)) ?? '').startsWith(label);
    const end = Date.now() + timeoutMs;
    for (;;) {
      await this.openPalette(label);
      const found = await waitUntil(`palette row "${label}"`, matches, 3_000).catch(() => false);
      if (found) break;
      if (Date.now() > end) throw new Error(`the palette has no "${label}" (first row: ${await row.getAttribute('aria-label').catch(() => null)})`);
      await this.closeQuickInput();
    }
    await this.page.keyboard.press('Enter');
  }

  /** In an open quick pick, filters by `label` and accepts the first row whose label starts with it. */
  async pickQuickItem(label: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill(label);
    const row = this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first();
    await waitUntil(`quick pick row "${label}"`, async () => ((await row.getAttribute('aria-label')) ?? '').startsWith(label), 10_000);
    await this.page.keyboard.press('Enter');
  }

  /** Opens a workspace file through quick open (Go to File). */
  async openFile(relPath: string): Promise<void> {
    const input = await this.quickInput();
    await input.fill(relPath); // no `>`: quick open searches files
    const base = path.basename(relPath);
    const row = this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first();
    await waitUntil(`quick open row for ${relPath}`, async () => ((await row.getAttribute('aria-label')) ?? '').includes(base), 15_000);
    await this.page.keyboard.press('Enter');
    await this.page
      .locator(`.tabs-container .tab.active[aria-label*="${base}"], .tabs-container .tab.active[data-resource-name="${base}"]`)
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
  }

  /**
   * Types into the active editor: at the end of the document, or over all of it
   * with `replaceAll`. BASE_SETTINGS turns off auto-closing and suggestions, so
   * the text lands as typed.
   */
  async typeInEditor(text: string, opts: { replaceAll?: boolean } = {}): Promise<void> {
    const editor = this.page.locator('.editor-group-container.active .monaco-editor').first();
    await editor.waitFor({ state: 'visible', timeout: 10_000 });
    await editor.locator('.view-lines').click();
    await this.page.keyboard.press(opts.replaceAll ? 'Control+A' : 'Control+End');
    await this.page.keyboard.type(text, { delay: 5 });
  }

  /** The Problems panel's rows (file rows and marker rows), as their accessible labels. */
  async problems(): Promise<string[]> {
    await this.runCommand('View: Focus Problems');
    const panel = this.page.locator('.markers-panel');
    await panel.waitFor({ state: 'visible', timeout: 10_000 });
    await this.page.waitForTimeout(300);
    // Read every row in one go: the list re-renders while diagnostics update, and a row
    // counted a moment ago may be gone when asked for one by one.
    return await panel.locator('.monaco-list-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? r.textContent ?? ''));
  }

  /** Every status bar item now shown. */
  async statusBarItems(): Promise<StatusBarItem[]> {
    return await this.page.$$eval('#workbench\\.parts\\.statusbar .statusbar-item', (els) =>
      els
        .filter((el) => el.getClientRects().length > 0)
        .map((el) => ({
          id: el.id,
          text: (el.querySelector('.statusbar-item-label')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
          label: el.querySelector('.statusbar-item-label')?.getAttribute('aria-label') ?? el.getAttribute('aria-label') ?? '',
        })),
    );
  }

  /** Waits for a status bar item whose id contains `idPart` and whose text satisfies `match`. */
  async waitForStatusBar(idPart: string, match: (text: string) => boolean, timeoutMs = 15_000): Promise<StatusBarItem> {
    return await waitUntil(
      `status bar item ${idPart}`,
      async () => (await this.statusBarItems()).find((i) => i.id.includes(idPart) && match(i.text)),
      timeoutMs,
    );
  }

  /** Opens a new integrated terminal and waits until its shell has printed something (its prompt). */
  async newTerminal(): Promise<void> {
    const before = await this.page.locator('.terminal-wrapper').count();
    await this.runCommand('Terminal: Create New Terminal');
    await waitUntil('a new terminal', async () => (await this.page.locator('.terminal-wrapper').count()) > before, 15_000);
    await waitUntil('the shell prompt', async () => (await this.terminalText()).trim().length > 0, 15_000);
  }

  /** Types a command line into the active terminal and presses Enter. */
  async runInTerminal(commandLine: string): Promise<void> {
    const term = this.page.locator('.terminal-wrapper.active .xterm');
    await term.click();
    await this.page.keyboard.type(commandLine);
    await this.page.keyboard.press('Enter');
  }

  /** The visible text of the active terminal (needs the DOM renderer: BASE_SETTINGS sets it). */
  async terminalText(): Promise<string> {
    const rows = this.page.locator('.terminal-wrapper.active .xterm-rows');
    if ((await rows.count()) === 0) return '';
    return (await rows.first().allInnerTexts()).join('\n');
  }

  /** Reloads the window (Developer: Reload Window) and waits for the workbench and a new extension host. */
  async reloadWindow(): Promise<void> {
    fs.rmSync(path.join(this.ipcDir, 'ready.json'), { force: true });
    const loaded = this.page.waitForEvent('load', { timeout: 60_000 });
    await this.runCommand('Developer: Reload Window');
    await loaded;
    await this.waitForWorkbench();
    await this.hostReady();
  }

  /** The modal dialog's text (message, detail and buttons) once one shows. */
  async dialogText(timeoutMs = 15_000): Promise<string> {
    const box = this.page.locator('.monaco-dialog-box');
    await box.waitFor({ state: 'visible', timeout: timeoutMs });
    return (await box.innerText()).replace(/\s+/g, ' ').trim();
  }

  /** Answers the modal dialog with the button labelled `label`, or with the key Escape or Enter; waits for it to close. */
  async answerDialog(label: string | 'Escape' | 'Enter'): Promise<void> {
    const box = this.page.locator('.monaco-dialog-box');
    if (label === 'Escape' || label === 'Enter') await this.page.keyboard.press(label);
    else await box.locator('.dialog-buttons .monaco-button', { hasText: label }).first().click();
    await box.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** Texts of the notification toasts now shown. */
  async notifications(): Promise<string[]> {
    return (await this.page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts()).map((t) => t.trim());
  }

  /**
   * The frame of a webview whose document has an element matching `selector`
   * (VS Code nests each webview's content in an inner iframe).
   */
  async webviewFrame(selector: string, timeoutMs = 15_000): Promise<Frame> {
    return await waitUntil(
      `a webview frame with ${selector}`,
      async () => {
        for (const f of this.page.frames()) {
          if (f === this.page.mainFrame()) continue;
          if (await f.$(selector).catch(() => null)) return f;
        }
        return undefined;
      },
      timeoutMs,
    );
  }

  /** Widens the side bar to `width` px by dragging its edge (screenshots that show the panel readably). */
  async widenSideBar(width: number): Promise<void> {
    const box = await this.page.locator('#workbench\\.parts\\.sidebar').boundingBox();
    if (!box) return;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + box.width + 1, y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width, y, { steps: 8 });
    await this.page.mouse.up();
  }

  /** Saves a screenshot to test-artifacts/<name>.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, `${name.replace(/[^\w.-]+/g, '-')}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** Copies code-server's output and VS Code's logs to test-artifacts/<name>-logs/. */
  saveLogs(name: string): string {
    const dir = path.join(ARTIFACTS, `${name.replace(/[^\w.-]+/g, '-')}-logs`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'code-server.txt'), this.serverLog);
    const logs = path.join(this.userDataDir, 'logs');
    if (fs.existsSync(logs)) fs.cpSync(logs, path.join(dir, 'logs'), { recursive: true });
    return dir;
  }

  /** Text of VS Code's logs whose file name matches `name` (e.g. /exthost\.log$/). */
  readLogs(name: RegExp): string {
    const out: string[] = [];
    const walk = (dir: string): void => {
      if (!fs.existsSync(dir)) return;
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (name.test(e.name)) out.push(fs.readFileSync(p, 'utf8'));
      }
    };
    walk(path.join(this.userDataDir, 'logs'));
    return out.join('\n');
  }

  /** Synchronous last resort (process exit): kills code-server's process group. */
  killNow(): void {
    const pid = this.server?.pid;
    if (pid && this.server?.exitCode === null) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }

  /** Closes the browser, stops code-server and its children, removes the temp folders. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.browser?.close().catch(() => undefined);
    const server = this.server;
    if (server?.pid && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise<void>((r) => server.once('exit', () => r()));
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      const timer = setTimeout(() => this.killNow(), 5_000);
      await exited;
      clearTimeout(timer);
      // The extension host and other children are in the same group; make sure none stays.
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        /* all gone */
      }
    }
    live.delete(this);
    fs.rmSync(this.root, { recursive: true, force: true, maxRetries: 3 });
    if (this.tmp) removeTempDir(this.tmp);
  }
}

/** The part of node:test's TestContext the helper uses. */
interface TestLike {
  readonly name: string;
  /** Aborted when the test times out or is cancelled. */
  readonly signal?: AbortSignal;
}

/**
 * Launches VS Code, runs `body`, and on failure saves a screenshot and the logs
 * to test-artifacts/ before closing; always tears down, also when the test times
 * out while `body` hangs (so no browser or server keeps the test process alive).
 */
export async function withVsCode<T>(t: TestLike, opts: LaunchOptions, body: (vsc: VsCode) => Promise<T>): Promise<T> {
  const vsc = await VsCode.launch(opts);
  const onAbort = (): void => {
    void vsc.screenshot(`TIMEOUT-${t.name}`).catch(() => undefined).finally(() => {
      vsc.saveLogs(`TIMEOUT-${t.name}`);
      void vsc.close();
    });
  };
  t.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await body(vsc);
  } catch (e) {
    const shot = await vsc.screenshot(`FAILED-${t.name}`).catch(() => undefined);
    const logs = vsc.saveLogs(`FAILED-${t.name}`);
    if (e instanceof Error) e.message += `\n(screenshot: ${shot ?? 'none'}; logs: ${logs})`;
    throw e;
  } finally {
    t.signal?.removeEventListener('abort', onAbort);
    await vsc.close();
  }
}

/** Keeps the screen as test-artifacts/<name>.png and copies it to docs/images/<name>.png for the README. */
export async function keepScreenshot(vsc: VsCode, name: string): Promise<string> {
  const shot = await vsc.screenshot(name);
  fs.mkdirSync(path.join(REPO_ROOT, 'docs', 'images'), { recursive: true });
  fs.copyFileSync(shot, path.join(REPO_ROOT, 'docs', 'images', `${name}.png`));
  return `${shot} (copied to docs/images/${name}.png)`;
}
