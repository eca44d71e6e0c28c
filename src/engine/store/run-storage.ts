/**
 * The one interface every part of stategate uses to keep runs (Runner is its
 * only direct consumer). Two stores implement it with the same semantics:
 *
 * - the file store (file-storage.ts over run-store.ts): `.stategate/` in the
 *   workspace, the embedded default for one machine;
 * - the PostgreSQL store (postgres/): one run shared by every machine of a
 *   team (docs/team.md).
 *
 * It is asynchronous because a server is. What both promise:
 *
 * - one decision at a time per run: `updateActive`/`update`/`activate` read
 *   the run, call `fn` and commit its snapshot and journal entries as one
 *   step, while no other change of that run can come in between;
 * - the journal has a per-run sequence number (1, 2, ...) without gaps, and
 *   replays to the stored snapshot (replay.ts);
 * - a change that carries an idempotency key (`ChangeOptions.key`, the
 *   client's tool-use id where there is one) is committed at most once per
 *   run: asking again with a key already committed returns the FIRST answer
 *   (the `result` as JSON, stored with the change) and commits nothing, so a
 *   hook killed after the commit but before it saw the answer can retry.
 *   `fn` is not called for a repeat. A change with no journal entries that
 *   leaves the run as it was is no event and keeps no key (asked again, it is
 *   decided again); an allowed tool call (counters only) keeps its key.
 * - reads never throw for a run that cannot be used: `readActive` answers
 *   `unreadable` with the reason, so enforcement denies (fail closed).
 */
import type { ActiveRun, Change, StoredEntry } from './run-store.js';

export type { ActiveRun, Change, StoredEntry } from './run-store.js';

export interface ChangeOptions {
  /** Idempotency key: a change whose key this run already committed returns the first answer and commits nothing. */
  readonly key?: string;
}

/** Something moved in the store: `runId` changed (or the active run did), up to journal entry `seq` when known. */
export interface StoreEvent {
  readonly runId?: string;
  readonly seq?: number;
}

export interface Disposable {
  dispose(): void;
}

export interface RunStorage<R extends { readonly runId: string }> {
  /** `file` or `postgres`. */
  readonly kind: 'file' | 'postgres';
  /** Where the runs are, for messages: a folder, or a server URL without its credentials. */
  readonly location: string;

  /** The active run, or why there is none, or why it cannot be used. Never throws. */
  readActive(): Promise<ActiveRun<R>>;
  /** A run by id; throws StoreError (`unknown_run`, `run_unreadable`). */
  readRun(runId: string): Promise<R>;
  /** Every run that can be read, oldest first. */
  listRuns(): Promise<R[]>;
  /** The run's journal entries with `seq` greater than `afterSeq` (default 0: all of it), in order. */
  readJournal(runId: string, afterSeq?: number): Promise<StoredEntry[]>;

  /**
   * Shared stores only: which machine and client committed each journal entry
   * with `seq` greater than `afterSeq` (the panel shows it; the entries
   * themselves stay as the journal has them).
   */
  readOrigins?(runId: string, afterSeq?: number): Promise<Map<number, { readonly machine?: string; readonly client?: string }>>;

  /** Store a new run with its first journal entries and make it the active run. */
  create(run: R, journal: readonly object[]): Promise<R>;
  /** Decide and append on the active run under its lock; throws StoreError (`no_active_run`, `run_unreadable`, `run_tampered`, `busy`, ...). */
  updateActive<T>(fn: (run: R) => Change<R, T>, options?: ChangeOptions): Promise<T>;
  /** The same on a run by id. */
  update<T>(runId: string, fn: (run: R) => Change<R, T>, options?: ChangeOptions): Promise<T>;
  /** The same, and the run becomes the active run in that step (resume). */
  activate<T>(runId: string, fn: (run: R) => Change<R, T>, options?: ChangeOptions): Promise<T>;
  /** No active run any more (the run itself is kept). */
  deactivate(): Promise<void>;

  /** Called when a run changes, here or (for a shared store) on another machine. Best effort: re-read from the last seq seen. */
  watch(listener: (event: StoreEvent) => void): Disposable;
  /** Release connections and watchers. */
  close(): Promise<void>;
}
