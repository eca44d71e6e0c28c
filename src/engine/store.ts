/**
 * Persistence of runs under `.stategate/` (the layout is in DESIGN.md):
 *
 *   .stategate/
 *     active                 id of the active run
 *     lock                   held by whoever writes (see lock.ts)
 *     runs/<id>/run.json     the envelope below, replaced atomically
 *     runs/<id>/journal.jsonl  append-only, one entry a line with a `seq`
 *
 * The commit point of a change is the atomic rename of run.json. The envelope
 * carries the journal entries of that change (`tail`) and the last sequence
 * number, and they are appended to the journal right after. A writer killed
 * between the two leaves the journal one change behind; the next writer (under
 * the lock) finds that and appends the missing entries, so every acknowledged
 * change is in the journal exactly once and the journal replays to run.json.
 *
 * The store knows nothing of workflow semantics: it stores any JSON snapshot
 * with a `runId`, and asks the caller to check the snapshot's shape.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appendLinesDurable, uniqueHex, writeFileAtomic } from './atomic-file.js';
import { LockBusyError, withFileLock } from './lock.js';

export const RUN_FORMAT = 'stategate-run';
export const RUN_FORMAT_VERSION = 1;

export type StoreErrorCode = 'no_active_run' | 'run_unreadable' | 'busy' | 'unknown_run' | 'io';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface StoredEntry {
  readonly seq: number;
  readonly [key: string]: unknown;
}

interface Envelope<R> {
  readonly format: typeof RUN_FORMAT;
  readonly version: number;
  readonly journalSeq: number;
  readonly tail: readonly StoredEntry[];
  readonly run: R;
}

export type ActiveRun<R> =
  | { readonly kind: 'none'; readonly why: string }
  | { readonly kind: 'ok'; readonly runId: string; readonly run: R }
  | { readonly kind: 'unreadable'; readonly runId?: string; readonly reason: string };

export interface StoreOptions<R> {
  /** Checks a parsed snapshot's shape; returns a reason when it is not a run. */
  readonly checkRun: (value: unknown) => string | undefined;
  /** How long a writer waits for the lock (a hook has a time budget). */
  readonly lockTimeoutMs?: number;
  /** Narrows the stored JSON to the snapshot type once `checkRun` passed. */
  readonly _type?: R;
}

export interface Change<R, T> {
  readonly run: R;
  readonly journal: readonly object[];
  readonly result: T;
}

const RECOVERY = 'stop it with `stategate run stop` (or delete the `.stategate/active` file), or restore the file from the journal';

export class RunStore<R extends { readonly runId: string }> {
  readonly activeFile: string;
  readonly lockFile: string;
  readonly runsDir: string;
  private readonly lockTimeoutMs: number;

  constructor(
    readonly dir: string,
    private readonly options: StoreOptions<R>,
  ) {
    this.activeFile = path.join(dir, 'active');
    this.lockFile = path.join(dir, 'lock');
    this.runsDir = path.join(dir, 'runs');
    this.lockTimeoutMs = options.lockTimeoutMs ?? 5000;
  }

  runDir(runId: string): string {
    return path.join(this.runsDir, runId);
  }
  runFile(runId: string): string {
    return path.join(this.runDir(runId), 'run.json');
  }
  journalFile(runId: string): string {
    return path.join(this.runDir(runId), 'journal.jsonl');
  }

  /** A new run id: sortable by creation time, unique across processes. */
  static newRunId(now = new Date()): string {
    const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    return `${stamp}-${uniqueHex(6)}`;
  }

  /** The id named by `active`, or undefined when there is none. */
  activeRunId(): string | undefined {
    let text: string;
    try {
      text = fs.readFileSync(this.activeFile, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StoreError('io', `cannot read ${this.activeFile}: ${(err as Error).message}`);
    }
    const id = text.trim();
    return id === '' ? undefined : id;
  }

  /**
   * Read the active run without taking the lock (run.json is only ever
   * replaced by rename, so a read is consistent). Never throws: an active run
   * that cannot be read is reported as `unreadable` so enforcement can deny.
   */
  readActive(): ActiveRun<R> {
    if (!fs.existsSync(this.dir)) return { kind: 'none', why: `no ${this.dir} directory` };
    let runId: string | undefined;
    try {
      runId = this.activeRunId();
    } catch (err) {
      return { kind: 'unreadable', reason: `${(err as Error).message}; ${RECOVERY}` };
    }
    if (!runId) return { kind: 'none', why: 'no active run' };
    const read = this.readEnvelope(runId);
    if ('reason' in read) return { kind: 'unreadable', runId, reason: `${read.reason}; ${RECOVERY}` };
    return { kind: 'ok', runId, run: read.envelope.run };
  }

  /** Read a run by id; throws StoreError when it is missing or unreadable. */
  readRun(runId: string): R {
    const read = this.readEnvelope(runId);
    if ('reason' in read) throw new StoreError(read.missing ? 'unknown_run' : 'run_unreadable', read.reason);
    return read.envelope.run;
  }

  /** Every run that can be read, oldest first (ids sort by creation time). */
  listRuns(): R[] {
    let ids: string[];
    try {
      ids = fs.readdirSync(this.runsDir).sort();
    } catch {
      return [];
    }
    const runs: R[] = [];
    for (const id of ids) {
      const read = this.readEnvelope(id);
      if ('envelope' in read) runs.push(read.envelope.run);
    }
    return runs;
  }

  /** The journal of a run, complete lines only. */
  readJournal(runId: string): StoredEntry[] {
    let text: string;
    try {
      text = fs.readFileSync(this.journalFile(runId), 'utf8');
    } catch {
      return [];
    }
    const entries: StoredEntry[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const parsed = JSON.parse(line) as StoredEntry;
        if (typeof parsed?.seq === 'number') entries.push(parsed);
      } catch {
        // a torn last line from a writer killed mid-append: repaired by the next writer
      }
    }
    return entries;
  }

  /** Create a run (its first journal entries included) and, by default, make it active. */
  create(run: R, journal: readonly object[], opts: { activate?: boolean } = {}): R {
    return this.locked(() => {
      fs.mkdirSync(this.runDir(run.runId), { recursive: true });
      this.commit(run.runId, run, journal, 0);
      if (opts.activate !== false) writeFileAtomic(this.activeFile, `${run.runId}\n`);
      return run;
    });
  }

  /**
   * Change the active run under the lock: read it, let `fn` compute the next
   * snapshot and its journal entries, commit both. Throws StoreError
   * (`no_active_run`, `run_unreadable`, `busy`).
   */
  updateActive<T>(fn: (run: R) => Change<R, T>): T {
    return this.locked(() => {
      const runId = this.activeRunId();
      if (!runId) throw new StoreError('no_active_run', 'no active run: start one with `stategate run start WORKFLOW_FILE`');
      return this.updateLocked(runId, fn);
    });
  }

  /** Change a run by id under the lock. */
  update<T>(runId: string, fn: (run: R) => Change<R, T>): T {
    return this.locked(() => this.updateLocked(runId, fn));
  }

  /** Point `active` at a run, or clear it. */
  setActive(runId: string | undefined): void {
    this.locked(() => {
      if (runId === undefined) {
        try {
          fs.unlinkSync(this.activeFile);
        } catch {
          /* already none */
        }
      } else {
        writeFileAtomic(this.activeFile, `${runId}\n`);
      }
    });
  }

  /** Run `fn` under the store's lock (for callers that compose several steps). */
  locked<T>(fn: () => T): T {
    fs.mkdirSync(this.dir, { recursive: true });
    try {
      return withFileLock(this.lockFile, { timeoutMs: this.lockTimeoutMs }, fn);
    } catch (err) {
      if (err instanceof LockBusyError) throw new StoreError('busy', err.message);
      throw err;
    }
  }

  private updateLocked<T>(runId: string, fn: (run: R) => Change<R, T>): T {
    const read = this.readEnvelope(runId);
    if ('reason' in read) throw new StoreError(read.missing ? 'no_active_run' : 'run_unreadable', `${read.reason}; ${RECOVERY}`);
    this.repairJournal(runId, read.envelope);
    const change = fn(read.envelope.run);
    if (change.run.runId !== runId) throw new StoreError('io', 'a run cannot change its id');
    this.commit(runId, change.run, change.journal, read.envelope.journalSeq);
    return change.result;
  }

  private commit(runId: string, run: R, journal: readonly object[], lastSeq: number): void {
    const tail: StoredEntry[] = journal.map((entry, i) => ({ seq: lastSeq + i + 1, ...entry }));
    const envelope: Envelope<R> = {
      format: RUN_FORMAT,
      version: RUN_FORMAT_VERSION,
      journalSeq: lastSeq + tail.length,
      tail,
      run,
    };
    writeFileAtomic(this.runFile(runId), `${JSON.stringify(envelope, null, 2)}\n`);
    appendLinesDurable(
      this.journalFile(runId),
      tail.map((e) => JSON.stringify(e)),
    );
  }

  /**
   * Bring the journal up to run.json: drop a torn last line, then append the
   * committed entries it lacks. Called under the lock before every change.
   */
  private repairJournal(runId: string, envelope: Envelope<R>): void {
    const file = this.journalFile(runId);
    const last = lastCompleteSeq(file);
    const missing = envelope.tail.filter((e) => e.seq > last);
    appendLinesDurable(
      file,
      missing.map((e) => JSON.stringify(e)),
    );
  }

  private readEnvelope(runId: string): { envelope: Envelope<R> } | { reason: string; missing: boolean } {
    if (!/^[A-Za-z0-9._-]+$/.test(runId) || runId.startsWith('.')) {
      return { reason: `the active run id ${JSON.stringify(runId)} is not a valid run id`, missing: false };
    }
    const file = this.runFile(runId);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      return { reason: missing ? `run ${runId} has no ${file}` : `cannot read ${file}: ${(err as Error).message}`, missing };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      return { reason: `${file} is not valid JSON (${(err as Error).message})`, missing: false };
    }
    const shape = checkEnvelope(parsed);
    if (shape) return { reason: `${file}: ${shape}`, missing: false };
    const env = parsed as Envelope<unknown>;
    const bad = this.options.checkRun(env.run);
    if (bad) return { reason: `${file}: ${bad}`, missing: false };
    return { envelope: env as Envelope<R> };
  }
}

function checkEnvelope(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'not a stategate run file (expected an object)';
  const v = value as Record<string, unknown>;
  if (v.format !== RUN_FORMAT) return `not a stategate run file (format ${JSON.stringify(v.format)})`;
  if (v.version !== RUN_FORMAT_VERSION) {
    return `run file version ${JSON.stringify(v.version)} is not supported (this stategate reads version ${RUN_FORMAT_VERSION})`;
  }
  if (typeof v.journalSeq !== 'number' || !Array.isArray(v.tail)) return 'run file lacks its journal position';
  if (!v.run || typeof v.run !== 'object') return 'run file has no run';
  return undefined;
}

/**
 * The `seq` of the journal's last complete line; truncates a torn last line
 * (a writer killed mid-append). Reads only the end of the file: a window that
 * grows until it holds the last complete line. Works on bytes, not decoded
 * text, so a window starting inside a multi-byte character cannot shift the
 * cut. (Before: a last line longer than the fixed 64 KB window, e.g. an event
 * with a large `data`, read as "no line", and the next writer appended the
 * last change again; found by test/unit/fail-closed-journal.test.ts.)
 */
function lastCompleteSeq(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r+');
  } catch {
    return 0;
  }
  try {
    let size = fs.fstatSync(fd).size;
    let window = 64 * 1024;
    while (size > 0) {
      const len = Math.min(size, window);
      const start = size - len;
      const buf = Buffer.alloc(len);
      fs.readSync(fd, buf, 0, len, start);
      const lastNl = buf.lastIndexOf(0x0a);
      if (lastNl !== len - 1) {
        // A torn last line: cut it at the byte after the last newline.
        if (lastNl >= 0 || start === 0) {
          size = lastNl >= 0 ? start + lastNl + 1 : 0;
          fs.ftruncateSync(fd, size);
        } else {
          window *= 4; // the torn line is longer than the window
        }
        continue;
      }
      // Complete lines, newest first; only those that start inside the window
      // (its first line may be cut, unless the window starts the file).
      let end = lastNl;
      for (;;) {
        const prev = end === 0 ? -1 : buf.lastIndexOf(0x0a, end - 1);
        if (prev < 0 && start > 0) break; // this line may begin before the window
        const line = buf.subarray(prev + 1, end).toString('utf8');
        if (line.trim() !== '') {
          try {
            const seq = (JSON.parse(line) as { seq?: unknown }).seq;
            if (typeof seq === 'number') return seq;
          } catch {
            // not a journal line: look further back
          }
        }
        if (prev < 0) return 0;
        end = prev;
      }
      window *= 4;
    }
    return 0;
  } finally {
    fs.closeSync(fd);
  }
}
