/**
 * The PostgreSQL store behind the store interface (run-storage.ts): one run
 * shared by every machine of a team, with the file store's semantics.
 *
 * - One decision at a time per run: a change reads the run's row with
 *   SELECT ... FOR UPDATE in its transaction, so a second decision of the same
 *   run waits for the first to commit (at most lock_timeout, then `busy`).
 *   Changes of the active run lock the project's active-run row first (shared),
 *   activations lock it exclusively, always in that order: no deadlock.
 * - The snapshot row and its journal rows are written in that one transaction;
 *   `last_seq` on the run row numbers the journal per run without gaps.
 * - A keyed change (the client's tool-use id) keeps its key and its answer in
 *   stategate_answers (migration 2: an allowed call changes the run's counters
 *   without a journal row) and on its first journal row when it has one, each
 *   inserted ON CONFLICT DO NOTHING on (run, key): asked again, the first answer
 *   is read back and nothing is committed.
 * - Runs belong to a project (project-key.ts); the project's active run is a
 *   row of its own.
 *
 * Reads never throw for enforcement: a store that cannot be reached, refuses
 * the password or TLS, or has a newer schema reads as `unreadable` with the
 * reason and the recovery, so the hook denies (fail closed); nothing falls back
 * to the local files.
 */
import * as os from 'node:os';
import type { Sql, TransactionSql } from 'postgres';
import { isStoreError, StoreError } from '../store-error.js';
import { stable } from '../recent-calls.js';
import type { ActiveRun, Change, ChangeOptions, Disposable, RunStorage, StoredEntry, StoreEvent } from '../run-storage.js';
import { RUN_NOTIFY_CHANNEL } from './migrations.js';
import { PgSession } from './pg-session.js';

export interface PostgresStoreOptions<R> {
  readonly url: string;
  /** The project the runs belong to (project-key.ts); a Error when the workspace has none (every operation fails with it). */
  readonly project: string | Error;
  readonly checkRun: (value: unknown) => string | undefined;
  /** Which client this process is (`hook`, `cli`, `vscode`, `mcp`): kept with each change. */
  readonly client?: string;
  /** The machine kept with each change (default: STATEGATE_MACHINE, else the host name). */
  readonly machine?: string;
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Connections in the pool (the extension keeps one more for LISTEN). */
  readonly max?: number;
  /** The password when the URL has none (VS Code's SecretStorage), read at each connect; else PGPASSWORD. */
  readonly password?: () => Promise<string | undefined>;
  /**
   * Called after each commit this process made (outside the transaction): files of this
   * machine that follow the run (the run record). Its failure never fails the change.
   */
  readonly afterCommit?: (change: PgCommittedChange<R>) => Promise<void> | void;
  readonly _type?: R;
}

/** A change this process committed, for what follows it on this machine (the run record). */
export interface PgCommittedChange<R> {
  readonly run: R;
  /** The journal rows of this change, with their seq. */
  readonly tail: readonly StoredEntry[];
  /** The run's last journal seq after this change. */
  readonly journalSeq: number;
  /** The run's journal from the store (read on demand, when this machine's record is behind). */
  readonly journal: () => Promise<readonly StoredEntry[]>;
}

type Commit<R> = Omit<PgCommittedChange<R>, 'journal'>;

/** Thrown inside a transaction to roll it back and answer with a change already committed under the same key. */
class AlreadyAnswered {
  constructor(readonly result: unknown) {}
}

type Tx = TransactionSql<Record<string, never>>;

/** Names this machine in the journal rows it commits (default: the host name). */
export const MACHINE_ENV = 'STATEGATE_MACHINE';

/** A watch whose LISTEN could not start tries again after this long, doubling up to the max. */
const WATCH_RETRY_MS = 1000;
const WATCH_RETRY_MAX_MS = 30_000;

const NO_ACTIVE = 'no active run: start one with `stategate run start WORKFLOW_FILE`';

export class PostgresRunStorage<R extends { readonly runId: string }> implements RunStorage<R> {
  readonly kind = 'postgres' as const;
  readonly session: PgSession;
  private readonly machine: string;

  constructor(private readonly options: PostgresStoreOptions<R>) {
    this.session = new PgSession({
      url: options.url,
      ...(options.client ? { client: options.client } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.max ? { max: options.max } : {}),
      ...(options.password ? { password: options.password } : {}),
    });
    // A configured machine name (STATEGATE_MACHINE: a CI job, a sandbox whose host name says nothing), else the host name.
    this.machine = options.machine ?? ((options.env ?? process.env)[MACHINE_ENV]?.trim() || os.hostname());
  }

  get location(): string {
    return this.session.redacted;
  }

  private project(): string {
    if (this.options.project instanceof Error) {
      const message = this.options.project.message;
      throw new StoreError('store_unavailable', message, { reason: 'no_project', message, recovery: 'add a git remote to the repository or set STATEGATE_PROJECT' });
    }
    return this.options.project;
  }

  async readActive(): Promise<ActiveRun<R>> {
    try {
      const project = this.project();
      const row = await this.session.run('reading the active run', async (sql) => {
        const [r] = await sql<{ run_id: string; snapshot: unknown }[]>`
          SELECT a.run_id, r.snapshot FROM stategate_active_runs a JOIN stategate_runs r USING (run_id) WHERE a.project_key = ${project}`;
        return r;
      });
      if (!row) return { kind: 'none', why: `no active run of project ${project} in the shared store` };
      const bad = this.options.checkRun(row.snapshot);
      if (bad) return { kind: 'unreadable', runId: row.run_id, reason: `run ${row.run_id} in the shared store is not usable (${bad}); stop it with \`stategate run stop\`` };
      return { kind: 'ok', runId: row.run_id, run: row.snapshot as R };
    } catch (err) {
      const e = isStoreError(err) ? err : this.session.storeError('reading the active run', err);
      return { kind: 'unreadable', reason: `the shared store cannot be used, so every tool call is denied: ${e.message}`, ...(e.problem ? { store: e.problem } : {}) };
    }
  }

  async readRun(runId: string): Promise<R> {
    const row = await this.session.run(`reading run ${runId}`, async (sql) => {
      const [r] = await sql<{ snapshot: unknown }[]>`SELECT snapshot FROM stategate_runs WHERE run_id = ${runId}`;
      return r;
    });
    if (!row) throw new StoreError('unknown_run', `no run ${runId} in the shared store`);
    const bad = this.options.checkRun(row.snapshot);
    if (bad) throw new StoreError('run_unreadable', `run ${runId} in the shared store is not usable: ${bad}`);
    return row.snapshot as R;
  }

  async listRuns(): Promise<R[]> {
    const project = this.project();
    const rows = await this.session.run('listing runs', (sql) => sql<{ snapshot: unknown }[]>`SELECT snapshot FROM stategate_runs WHERE project_key = ${project} ORDER BY created_at, run_id`);
    return rows.filter((r) => this.options.checkRun(r.snapshot) === undefined).map((r) => r.snapshot as R);
  }

  async readJournal(runId: string, afterSeq = 0): Promise<StoredEntry[]> {
    const rows = await this.session.run(`reading the journal of run ${runId}`, (sql) => sql<{ entry: StoredEntry }[]>`
      SELECT entry FROM stategate_journal WHERE run_id = ${runId} AND seq > ${afterSeq} ORDER BY seq`);
    return rows.map((r) => r.entry);
  }

  async readOrigins(runId: string, afterSeq = 0): Promise<Map<number, { readonly machine?: string; readonly client?: string }>> {
    const rows = await this.session.run(`reading the journal of run ${runId}`, (sql) => sql<{ seq: string; machine: string | null; client: string | null }[]>`
      SELECT seq, machine, client FROM stategate_journal WHERE run_id = ${runId} AND seq > ${afterSeq} ORDER BY seq`);
    return new Map(rows.map((r) => [Number(r.seq), { ...(r.machine ? { machine: r.machine } : {}), ...(r.client ? { client: r.client } : {}) }]));
  }

  async create(run: R, journal: readonly object[]): Promise<R> {
    const project = this.project();
    await this.session.run(`creating run ${run.runId}`, (sql) =>
      sql.begin(async (tx) => {
        await this.lockActiveRow(tx, project, 'exclusive');
        await tx`INSERT INTO stategate_runs (run_id, project_key, snapshot, status, last_seq, changed_by_machine, changed_by_client)
                 VALUES (${run.runId}, ${project}, ${tx.json(run as never)}, ${statusOf(run)}, 0, ${this.machine}, ${this.options.client ?? null})`;
        await this.appendLocked(tx, run.runId, run, journal, 0, undefined, undefined);
        await this.setActive(tx, project, run.runId);
      }),
    );
    await this.committed({ run, tail: journal.map((e, i) => ({ seq: i + 1, ...e }) as StoredEntry), journalSeq: journal.length });
    return run;
  }

  async updateActive<T>(fn: (run: R) => Change<R, T>, options: ChangeOptions = {}): Promise<T> {
    const project = this.project();
    return this.change('deciding on the active run', options, async (tx) => {
      const active = await this.lockActiveRow(tx, project, 'shared');
      if (!active) throw new StoreError('no_active_run', NO_ACTIVE);
      return this.changeLocked(tx, active, fn, options.key);
    });
  }

  async update<T>(runId: string, fn: (run: R) => Change<R, T>, options: ChangeOptions = {}): Promise<T> {
    return this.change(`changing run ${runId}`, options, (tx) => this.changeLocked(tx, runId, fn, options.key));
  }

  async activate<T>(runId: string, fn: (run: R) => Change<R, T>, options: ChangeOptions = {}): Promise<T> {
    const project = this.project();
    return this.change(`making run ${runId} active`, options, async (tx) => {
      await this.lockActiveRow(tx, project, 'exclusive');
      const result = await this.changeLocked(tx, runId, fn, options.key);
      await this.setActive(tx, project, runId);
      return result;
    });
  }

  async deactivate(): Promise<void> {
    const project = this.project();
    await this.session.run('clearing the active run', (sql) =>
      sql.begin(async (tx) => {
        await tx`DELETE FROM stategate_active_runs WHERE project_key = ${project}`;
        await tx`SELECT pg_notify(${RUN_NOTIFY_CHANNEL}, ${':0'})`;
      }),
    );
  }

  /**
   * LISTEN on the store's channel: every committed journal row is announced as
   * `run:seq`. After a (re)connect the listener is called with no run, since
   * notifications sent while disconnected are lost: re-read from the last seq.
   */
  watch(listener: (event: StoreEvent) => void): Disposable {
    let stop: (() => Promise<void>) | undefined;
    let disposed = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = WATCH_RETRY_MS;
    const subscribe = (): void => {
      if (disposed) return;
      void this.session
        .client()
        .then((sql) =>
          sql.listen(
            RUN_NOTIFY_CHANNEL,
            (payload) => {
              const at = payload.lastIndexOf(':');
              const runId = payload.slice(0, at);
              const seq = Number(payload.slice(at + 1));
              listener({ ...(runId ? { runId } : {}), ...(seq > 0 ? { seq } : {}) });
            },
            // Also on every reconnect of the driver's LISTEN session.
            () => listener({}),
          ),
        )
        .then((sub) => {
          stop = () => sub.unlisten();
          if (disposed) void stop().catch(() => undefined);
        })
        .catch(() => {
          // The store cannot be reached yet (readers see why on their next read): listen once it can.
          // (Once listening, the driver itself reconnects a dropped LISTEN session.)
          if (disposed) return;
          retry = setTimeout(subscribe, delay);
          retry.unref?.();
          delay = Math.min(delay * 2, WATCH_RETRY_MAX_MS);
        });
    };
    subscribe();
    return {
      dispose: () => {
        disposed = true;
        if (retry) clearTimeout(retry);
        if (stop) void stop().catch(() => undefined);
      },
    };
  }

  async close(): Promise<void> {
    await this.session.close();
  }

  /** A change in one transaction; a repeat of a committed key answers with the first answer. */
  private async change<T>(what: string, options: ChangeOptions, body: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      let commit: Commit<R> | undefined;
      const result = await this.session.run(what, (sql: Sql) =>
        sql.begin(async (tx) => {
          const r = await body(tx as unknown as Tx);
          commit = this.written.get(tx as unknown as Tx);
          return r;
        }) as Promise<T>,
      );
      // Tests: a client killed after its commit, before it could answer (the retry must get this answer).
      if (process.env.STATEGATE_TEST_KILL_AFTER_COMMIT === '1' && options.key !== undefined) process.kill(process.pid, 'SIGKILL');
      if (commit) await this.committed(commit);
      return result;
    } catch (err) {
      if (err instanceof AlreadyAnswered) return err.result as T;
      throw err;
    }
  }

  /** What each transaction wrote (set inside it, read once it committed): one per transaction, so concurrent changes never mix. */
  private readonly written = new WeakMap<Tx, Commit<R>>();

  /** After a commit: the afterCommit hook, whose failure never fails the committed change. */
  private async committed(commit: Commit<R>): Promise<void> {
    if (!this.options.afterCommit) return;
    try {
      await this.options.afterCommit({ ...commit, journal: () => this.readJournal(commit.run.runId) });
    } catch {
      // The change is committed; this machine's files that follow it are caught up by its next commit.
    }
  }

  /** The project's active run id, its row locked (shared: decisions; exclusive: the active run changes). */
  private async lockActiveRow(tx: Tx, project: string, mode: 'shared' | 'exclusive'): Promise<string | undefined> {
    const rows =
      mode === 'shared'
        ? await tx<{ run_id: string }[]>`SELECT run_id FROM stategate_active_runs WHERE project_key = ${project} FOR SHARE`
        : await tx<{ run_id: string }[]>`SELECT run_id FROM stategate_active_runs WHERE project_key = ${project} FOR UPDATE`;
    return rows[0]?.run_id;
  }

  private async setActive(tx: Tx, project: string, runId: string): Promise<void> {
    await tx`INSERT INTO stategate_active_runs (project_key, run_id) VALUES (${project}, ${runId})
             ON CONFLICT (project_key) DO UPDATE SET run_id = EXCLUDED.run_id, updated_at = now()`;
  }

  /** Under the run's row lock: the first answer of `key`, or `fn`'s change committed with its journal rows. */
  private async changeLocked<T>(tx: Tx, runId: string, fn: (run: R) => Change<R, T>, key: string | undefined): Promise<T> {
    const [row] = await tx<{ snapshot: unknown; last_seq: string }[]>`SELECT snapshot, last_seq FROM stategate_runs WHERE run_id = ${runId} FOR UPDATE`;
    if (!row) throw new StoreError('unknown_run', `no run ${runId} in the shared store`);
    if (key !== undefined) {
      const [first] = await tx<{ result: unknown }[]>`SELECT result FROM stategate_answers WHERE run_id = ${runId} AND idempotency_key = ${key}`;
      if (first) return first.result as T;
    }
    const bad = this.options.checkRun(row.snapshot);
    if (bad) throw new StoreError('run_unreadable', `run ${runId} in the shared store is not usable: ${bad}; stop it with \`stategate run stop\``);
    const change = fn(row.snapshot as R);
    if (change.run.runId !== runId) throw new StoreError('io', 'a run cannot change its id');
    // A change that journals nothing and leaves the run as it was is no event (e.g. "the state moved, call again"): it keeps no key.
    const keep = key !== undefined && (change.journal.length > 0 || !sameJson(change.run, row.snapshot)) ? key : undefined;
    await this.appendLocked(tx, runId, change.run, change.journal, Number(row.last_seq), keep, change.result);
    return change.result;
  }

  /** The journal rows (the key and the answer on the first) and the snapshot row, in the caller's transaction. */
  private async appendLocked(tx: Tx, runId: string, run: R, journal: readonly object[], lastSeq: number, key: string | undefined, result: unknown): Promise<void> {
    const client = this.options.client ?? null;
    for (const [i, entry] of journal.entries()) {
      const seq = lastSeq + i + 1;
      const keyed = i === 0 && key !== undefined;
      const stored = { seq, ...entry };
      const inserted = await tx`
        INSERT INTO stategate_journal (run_id, seq, entry, idempotency_key, result, machine, client)
        VALUES (${runId}, ${seq}, ${tx.json(stored as never)}, ${keyed ? key! : null}, ${keyed ? tx.json(toJson(result) as never) : null}, ${this.machine}, ${client})
        ON CONFLICT (run_id, idempotency_key) DO NOTHING
        RETURNING seq`;
      if (inserted.length === 0) {
        // Another transaction committed this key first (it cannot, under the row lock, but the answer is the same): its answer.
        const [first] = await tx<{ result: unknown }[]>`SELECT result FROM stategate_answers WHERE run_id = ${runId} AND idempotency_key = ${key!}`;
        throw new AlreadyAnswered(first?.result);
      }
    }
    if (key !== undefined) {
      const kept = await tx`
        INSERT INTO stategate_answers (run_id, idempotency_key, result, seq) VALUES (${runId}, ${key}, ${tx.json(toJson(result) as never)}, ${lastSeq + journal.length})
        ON CONFLICT (run_id, idempotency_key) DO NOTHING
        RETURNING seq`;
      if (kept.length === 0) {
        const [first] = await tx<{ result: unknown }[]>`SELECT result FROM stategate_answers WHERE run_id = ${runId} AND idempotency_key = ${key}`;
        throw new AlreadyAnswered(first?.result);
      }
    }
    await tx`UPDATE stategate_runs SET snapshot = ${tx.json(run as never)}, status = ${statusOf(run)}, last_seq = ${lastSeq + journal.length},
             updated_at = now(), changed_by_machine = ${this.machine}, changed_by_client = ${client} WHERE run_id = ${runId}`;
    this.written.set(tx, { run, tail: journal.map((e, i) => ({ seq: lastSeq + i + 1, ...e }) as StoredEntry), journalSeq: lastSeq + journal.length });
  }
}

function statusOf(run: unknown): string {
  const s = (run as { status?: unknown }).status;
  return typeof s === 'string' ? s : 'unknown';
}

/** Equal as JSON, key order aside (jsonb does not keep it). */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(stable(a)) === JSON.stringify(stable(b));
}

function toJson(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}
