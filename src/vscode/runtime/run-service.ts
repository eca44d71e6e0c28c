/**
 * The extension's one reader and writer of runs: it wraps the engine's
 * Runner (store + machine) for the workspace folder, and tells the status
 * bar, the panel and the commands when the run changed, whoever changed it
 * (this window, the CLI in a terminal, a hook process, the MCP server,
 * another window). `.stategate/` is the only source of truth, so "changed" is
 * decided by re-reading it: on a file-system event, and on a slow poll as a
 * backstop for file systems whose events are unreliable. A shared store
 * (PostgreSQL) is "changed" when its LISTEN says so, after the LISTEN session
 * reconnects, and on a slower poll that is also its health check. The poll also looks
 * at the record of the active run outside the workspace, so a `.stategate/`
 * deleted behind stategate's back shows as tampering (the engine decides
 * that; this only shows it, with one warning per finding).
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { chooseStorage, findSandbox, isLiveRun, sandboxStatusHere, userStateDir, type SandboxStatus, writeStorePointer, FileRunStorage, readRecord, Runner, RunnerError, type AgentStateRecord, type StateView, type RunSnapshot, type StoredEntry, type StoreProblem, type Workflow } from '../../engine/index.js';
import { analyseShellLazily, rewriteShellLazily } from './lazy-shell.js';
import { statStamp } from './stat-stamp.js';
import { configuredStore } from './store-setting.js';
import { readCustomAgents } from '../custom-agents.js';

export type RunSituation =
  | { readonly kind: 'none' }
  /** `tampered`: the files do not match the record outside the workspace (docs/enforcement.md). */
  | { readonly kind: 'unreadable'; readonly reason: string; readonly tampered?: boolean; readonly store?: StoreProblem }
  | {
      readonly kind: 'active';
      readonly run: RunSnapshot;
      readonly view: StateView;
      readonly workflow: Workflow | undefined;
      /**
       * The saved workflow file differs from (or vanished since) the definition the run uses, and the
       * run can still take a reload (running or paused): what the "Reload definition" banner offers.
       * Unsaved edits are not on disk, so they never count; a finished run has nothing to reload into.
       */
      readonly definitionChanged: boolean;
      /** Whether the hooks put allowed shell commands in the kernel sandbox on this machine (src/engine/sandbox/). */
      readonly sandbox?: SandboxStatus;
    };

const POLL_MS = 1000;
/**
 * A shared store tells of its changes (LISTEN), so its poll is slower: it is
 * the store's health check (a server that went away shows in the status bar
 * even while nothing changes) and a backstop for a LISTEN that is reconnecting.
 */
const SHARED_POLL_MS = 5000;

export class RunService implements vscode.Disposable {
  readonly runner: Runner;
  private readonly changed = new vscode.EventEmitter<RunSituation>();
  /** Fires whenever the run (or its absence) changed. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private situation: RunSituation = { kind: 'none' };
  private stamp = '';
  /** The active run's journal as of the last refresh (the panel's history). */
  private entries: StoredEntry[] = [];
  /** The run `entries` belong to. */
  private entriesRun: string | undefined;
  /** What the shared store showed at the last refresh: a refresh that reads the same fires nothing. */
  private sharedPrint = '';
  /** The refresh in flight: refreshes run one after another, so an older read never overwrites a newer one. */
  private refreshing: Promise<RunSituation> = Promise.resolve(this.situation);
  /** The tampering last warned about, so a finding is announced once, not on every poll. */
  private warned: string | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The shared store's LISTEN subscription. */
  private storeWatch: { dispose(): void } | undefined;

  /** `password`: the shared store's password when its URL has none (SecretStorage, store-commands.ts), read at each connect. */
  constructor(readonly folder: vscode.WorkspaceFolder, options: { password?: () => Promise<string | undefined> } = {}) {
    const dir = path.join(folder.uri.fsPath, '.stategate');
    // The shell parser loads only when a shell call is decided (the participant's tool loop).
    // The shared store from the user's settings only (never the workspace's: an agent can write those), else STATEGATE_STORE_URL.
    const configured = configuredStore();
    // Hooks this workspace's agents start see only their environment: point them at the same store
    // through a file outside the workspace (no password in it), or back at the files (store-pointer.ts).
    try {
      writeStorePointer(folder.uri.fsPath, configured || undefined);
    } catch (err) {
      void vscode.window.showWarningMessage(`stategate: could not tell this workspace's hooks which store to use: ${(err as Error).message}`);
    }
    const storage = chooseStorage({ ...(configured ? { url: configured } : {}), workspaceRoot: folder.uri.fsPath, client: 'vscode', max: 2, ...(options.password ? { password: options.password } : {}) });
    // A statechart started here may pick the workspace's custom agents with agents.select (read when a run starts).
    const root = folder.uri.fsPath;
    this.runner = new Runner({ dir, workspaceRoot: root, analyseShell: analyseShellLazily, rewriteShell: rewriteShellLazily, customAgents: () => readCustomAgents(root), ...(storage ? { storage } : {}) });
    if (this.runner.store.kind !== 'file') {
      // Another machine moved the run: LISTEN tells, and the view re-reads (also after a reconnect).
      this.storeWatch = this.runner.store.watch(() => void this.refresh(true));
      this.disposables.push({ dispose: () => (this.storeWatch?.dispose(), void this.runner.store.close()) });
    }
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.stategate/**'));
    const poke = () => void this.refresh();
    this.disposables.push(watcher, watcher.onDidChange(poke), watcher.onDidCreate(poke), watcher.onDidDelete(poke));
    this.timer = setInterval(poke, this.runner.store.kind === 'file' ? POLL_MS : SHARED_POLL_MS);
    void this.refresh();
  }

  get current(): RunSituation {
    return this.situation;
  }

  /** Re-read the run and fire onDidChange if anything changed. Cheap when nothing did. */
  refresh(force = false): Promise<RunSituation> {
    this.refreshing = this.refreshing.then(
      () => this.refreshNow(force),
      () => this.refreshNow(force),
    );
    return this.refreshing;
  }

  private async refreshNow(force: boolean): Promise<RunSituation> {
    const shared = this.runner.store.kind !== 'file';
    const stamp = this.readStamp();
    if (!shared && !force && stamp === this.stamp) return this.situation;
    this.stamp = stamp;
    const situation = await this.read();
    const entries = await this.readEntries(situation);
    if (shared) {
      // The shared store is read on every poll: tell the views only when something moved.
      const print = JSON.stringify([situation.kind, situation.kind === 'unreadable' ? situation.reason : situation.kind === 'active' ? situation.run : '', entries.length, entries.at(-1)?.seq]);
      if (!force && print === this.sharedPrint) return this.situation;
      this.sharedPrint = print;
    }
    this.entries = entries;
    this.entriesRun = situation.kind === 'active' ? situation.run.runId : undefined;
    this.situation = situation;
    this.warnOfTampering(this.situation);
    this.changed.fire(this.situation);
    return this.situation;
  }

  /**
   * The active run's journal. A shared store's journal only grows, so the
   * entries after the last seq seen are added to what was read before (after a
   * reconnect too: notifications sent while disconnected are lost, the seq is
   * not); the files' journal is read whole, as it may be repaired.
   */
  private async readEntries(s: RunSituation): Promise<StoredEntry[]> {
    if (s.kind !== 'active') return [];
    const runId = s.run.runId;
    const last = this.entries.at(-1)?.seq;
    if (this.runner.store.kind === 'file' || this.entriesRun !== runId || last === undefined) {
      return await this.withOrigins(runId, await this.runner.store.readJournal(runId).catch(() => []), 0);
    }
    const more = await this.runner.store.readJournal(runId, last).catch(() => undefined);
    return more ? [...this.entries, ...(await this.withOrigins(runId, more, last))] : this.entries;
  }

  /** A shared run's entries with the machine and client that committed each (the panel's history shows them). */
  private async withOrigins(runId: string, entries: StoredEntry[], afterSeq: number): Promise<StoredEntry[]> {
    const store = this.runner.store;
    if (!store.readOrigins || entries.length === 0) return entries;
    const origins = await store.readOrigins(runId, afterSeq).catch(() => undefined);
    return origins ? entries.map((e) => (origins.has(e.seq) ? { ...e, origin: origins.get(e.seq) } : e)) : entries;
  }

  /** The journal of the active run (for the panel's history), as of the last refresh. */
  journal(): StoredEntry[] {
    return this.situation.kind === 'active' ? this.entries : [];
  }

  /** The active run's record (agent-state.json), when it has one. */
  record(): AgentStateRecord | undefined {
    return this.situation.kind === 'active' ? readRecord(this.runner.runDir(this.situation.run.runId)) : undefined;
  }

  /** Run an engine operation, then refresh so every view follows at once. */
  async act<T>(fn: (runner: Runner) => T | Promise<T>): Promise<T> {
    try {
      return await fn(this.runner);
    } finally {
      await this.refresh(true);
    }
  }

  /** Connect to the shared store afresh (its password changed): new sessions, a new LISTEN, then a re-read. */
  async reconnectStore(): Promise<RunSituation> {
    if (this.runner.store.kind === 'file') return await this.refresh(true);
    this.storeWatch?.dispose();
    await this.runner.store.close();
    this.storeWatch = this.runner.store.watch(() => void this.refresh(true));
    return await this.refresh(true);
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    for (const d of this.disposables) d.dispose();
  }

  private warnOfTampering(s: RunSituation): void {
    const finding = s.kind === 'unreadable' && s.tampered ? s.reason : undefined;
    if (finding && finding !== this.warned) void vscode.window.showWarningMessage(`stategate: the active run was tampered with. ${finding}`);
    this.warned = finding;
  }

  private async read(): Promise<RunSituation> {
    const active = await this.runner.active();
    if (active.kind === 'none') return { kind: 'none' };
    if (active.kind === 'unreadable') return { kind: 'unreadable', reason: active.reason, ...(active.tampered ? { tampered: true } : {}), ...(active.store ? { store: active.store } : {}) };
    try {
      const view = await this.runner.state();
      return {
        kind: 'active',
        run: active.run,
        view,
        workflow: this.runner.env.load(active.run.workflow.definitionText),
        definitionChanged: view.definition_changed && isLiveRun(active.run),
        // A stat of bwrap and its kept probe (bwrap-probe.ts): cheap enough for every poll.
        sandbox: sandboxStatusHere(findSandbox({ stateDir: userStateDir() })),
      };
    } catch (err) {
      return { kind: 'unreadable', reason: err instanceof RunnerError ? err.message : String(err) };
    }
  }

  /** What identifies the current on-disk state: the active id, run.json's size and mtime, and the record outside the workspace. */
  private readStamp(): string {
    // A shared store tells of its changes (watch, in the constructor); its slower poll re-reads it (refreshNow).
    if (!(this.runner.store instanceof FileRunStorage)) return 'shared';
    const store = this.runner.store.files;
    const record = store.record ? statStamp(store.record.file) : '';
    let id = '';
    try {
      id = store.activeRunId() ?? '';
    } catch {
      id = '?';
    }
    if (!id) return `none:${record}`;
    const wf = this.situation.kind === 'active' ? this.situation.run.workflow.file : undefined;
    return `${id}:${statStamp(store.runFile(id))}:${wf ? statStamp(wf) : ''}:${record}`;
  }
}

