/**
 * The file store behind the store interface (run-storage.ts): today's
 * `.stategate/` files (run-store.ts, synchronous, under the inter-process
 * file lock) answered through promises. Nothing about the files changes;
 * an idempotency key is kept with its first answer in run.json's envelope
 * (`answers`, the last 64), so the answer and its change commit in the same
 * rename. recent-calls.json stays what it was: the counted-once window for
 * two hooks of one call and the panel's list, kept by Runner.
 */
import * as fs from 'node:fs';
import { RunStore, type StoreOptions } from './run-store.js';
import type { ActiveRun, Change, ChangeOptions, Disposable, RunStorage, StoredEntry, StoreEvent } from './run-storage.js';

/** How often `watch` looks at the files: a panel refresh, not a decision, waits on it. */
const WATCH_INTERVAL_MS = 500;

export class FileRunStorage<R extends { readonly runId: string }> implements RunStorage<R> {
  readonly kind = 'file' as const;
  readonly files: RunStore<R>;

  constructor(dir: string, options: StoreOptions<R>) {
    this.files = new RunStore<R>(dir, options);
  }

  get location(): string {
    return this.files.dir;
  }

  async readActive(): Promise<ActiveRun<R>> {
    return this.files.readActive();
  }
  async readRun(runId: string): Promise<R> {
    return this.files.readRun(runId);
  }
  async listRuns(): Promise<R[]> {
    return this.files.listRuns();
  }
  async readJournal(runId: string, afterSeq = 0): Promise<StoredEntry[]> {
    const all = this.files.readJournal(runId);
    return afterSeq > 0 ? all.filter((e) => e.seq > afterSeq) : all;
  }
  async create(run: R, journal: readonly object[]): Promise<R> {
    return this.files.create(run, journal);
  }
  async updateActive<T>(fn: (run: R) => Change<R, T>, options?: ChangeOptions): Promise<T> {
    return this.files.updateActive(fn, options);
  }
  async update<T>(runId: string, fn: (run: R) => Change<R, T>, options?: ChangeOptions): Promise<T> {
    return this.files.update(runId, fn, options);
  }
  async activate<T>(runId: string, fn: (run: R) => Change<R, T>, options?: ChangeOptions): Promise<T> {
    return this.files.activate(runId, fn, options);
  }
  async deactivate(): Promise<void> {
    this.files.deactivate();
  }

  /**
   * Polls `active` and the active run's run.json (replaced by rename on every
   * commit, so its inode or mtime changes): portable, and a missed
   * notification cannot happen, only a late one.
   */
  watch(listener: (event: StoreEvent) => void): Disposable {
    let last = this.fingerprint();
    const timer = setInterval(() => {
      const now = this.fingerprint();
      if (now === last) return;
      last = now;
      const runId = now.split('|')[0];
      listener(runId ? { runId } : {});
    }, WATCH_INTERVAL_MS);
    // Not unref'd: a watcher is disposed by whoever asked for it.
    return { dispose: () => clearInterval(timer) };
  }

  async close(): Promise<void> {
    // Nothing held open: every operation opens and closes its files.
  }

  private fingerprint(): string {
    let runId: string | undefined;
    try {
      runId = this.files.activeRunId();
    } catch {
      return '|unreadable';
    }
    if (!runId) return '|';
    try {
      const st = fs.statSync(this.files.runFile(runId));
      return `${runId}|${st.ino}|${st.mtimeMs}|${st.size}`;
    } catch {
      return `${runId}|missing`;
    }
  }
}
