/**
 * Persistence of runs under `.stategate/` (the layout is in docs/architecture.md):
 *
 *   .stategate/
 *     active                 id of the active run
 *     lock                   held by whoever writes (see util/lock.ts)
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
 * With `outsideRecord`, the active run is also recorded outside the workspace
 * (active-record.ts): every commit of the active run writes that record first
 * (or removes it when the run stops enforcing), every read checks the files
 * against it, and files that vanished or changed behind stategate's back read
 * as `unreadable` with `tampered`, so enforcement denies.
 *
 * The store knows nothing of workflow semantics: it stores any JSON snapshot
 * with a `runId`, and asks the caller to check the snapshot's shape (and, for
 * the record, whether a snapshot enforces anything).
 */
import { withinDeadline } from './deadline.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { accepts, ActiveRecordFile, workspaceOf, type RecordRead, type Seen } from './active-record.js';
import { appendLinesDurable, uniqueHex, writeFileAtomic } from '../util/atomic-file.js';
import { LockBusyError, withFileLock } from '../util/lock.js';
import { hashText, type StoredEntry } from '../machine/run.js';
import { StoreError, type StoreProblem } from './store-error.js';

export const RUN_FORMAT = 'stategate-run';
export const RUN_FORMAT_VERSION = 1;

export { isStoreError, StoreError, type StoreErrorCode, type StoreProblem } from './store-error.js';

export type { StoredEntry } from '../machine/run.js';

interface Envelope<R> {
  readonly format: typeof RUN_FORMAT;
  readonly version: number;
  readonly journalSeq: number;
  readonly tail: readonly StoredEntry[];
  readonly run: R;
  /**
   * The answers of the last changes that carried an idempotency key (run-storage.ts),
   * newest last: a change asked again with one of these keys returns its first answer
   * and commits nothing. Kept in the envelope so the answer and the change it belongs to
   * are committed by the same rename. Absent in files written before keys existed.
   */
  readonly answers?: readonly KeptAnswer[];
}

interface KeptAnswer {
  readonly key: string;
  readonly seq: number;
  readonly result: unknown;
}

/** How many keyed answers a run file keeps: a retry comes within seconds, not after hundreds of calls. */
const KEEP_ANSWERS = 64;

export type ActiveRun<R> =
  | { readonly kind: 'none'; readonly why: string }
  | { readonly kind: 'ok'; readonly runId: string; readonly run: R }
  | { readonly kind: 'unreadable'; readonly runId?: string; readonly reason: string; readonly tampered?: true; readonly store?: StoreProblem };

/** The steps of a commit, in order (`active-written` only when the commit makes the run active). */
export type CommitStep = 'record-written' | 'run-renamed' | 'journal-appended' | 'run-record-written' | 'active-written';

/** A committed change, for files kept beside run.json that follow it (the run record, record/record-file.ts). */
export interface CommittedChange<R> {
  readonly runDir: string;
  readonly run: R;
  readonly tail: readonly StoredEntry[];
  readonly journalSeq: number;
  /** The run's whole journal (read on demand). */
  readonly journal: () => readonly StoredEntry[];
}

export interface StoreOptions<R> {
  /** Checks a parsed snapshot's shape; returns a reason when it is not a run. */
  readonly checkRun: (value: unknown) => string | undefined;
  /** How long a writer waits for the lock (a hook has a time budget). */
  readonly lockTimeoutMs?: number;
  /** Narrows the stored JSON to the snapshot type once `checkRun` passed. */
  readonly _type?: R;
  /** Keep the active run tamper-evident with a record in this user state directory (active-record.ts). */
  readonly outsideRecord?: {
    readonly stateDir: string;
    /** Whether a snapshot enforces anything (a running run): only then is the record kept. */
    readonly enforcing: (run: R) => boolean;
  };
  /**
   * Called under the lock after run.json and the journal of every commit: files that follow the
   * run (the run record). Its failure never fails the commit (the change is committed by then);
   * the next commit brings those files up to date.
   */
  readonly afterCommit?: (change: CommittedChange<R>) => void;
  /** Called after each step of a commit: tests throw here to leave the files as a writer killed at that point would. */
  readonly afterStep?: (step: CommitStep) => void;
}

export interface Change<R, T> {
  readonly run: R;
  readonly journal: readonly object[];
  readonly result: T;
}

export interface KeyOption {
  /** Idempotency key (run-storage.ts): a key this run already committed returns the first answer, committing nothing. */
  readonly key?: string;
}

const RECOVERY = 'stop it with `stategate run stop` (or delete the `.stategate/active` file), or restore the file from the journal';
const TAMPER_RECOVERY =
  'If a person did this on purpose, run `stategate run stop` in the workspace (it ends the run and clears that record); otherwise restore `.stategate/` as it was (from version control or a backup)';

/** The workspace's files as one read saw them. */
interface Observed {
  readonly dirExists: boolean;
  /** The id in `active`; null when there is none. */
  readonly runId: string | null;
  /** `active` is there but cannot be read. */
  readonly activeError?: string;
  /** That run's run.json; null when it cannot be read (`textError` says why). */
  readonly text: string | null;
  readonly textError?: { readonly reason: string; readonly missing: boolean };
}

export class RunStore<R extends { readonly runId: string }> {
  readonly activeFile: string;
  readonly lockFile: string;
  readonly runsDir: string;
  /** The record outside the workspace; undefined without `outsideRecord`. */
  readonly record: ActiveRecordFile | undefined;
  private readonly lockTimeoutMs: number;

  constructor(
    readonly dir: string,
    private readonly options: StoreOptions<R>,
  ) {
    this.activeFile = path.join(dir, 'active');
    this.lockFile = path.join(dir, 'lock');
    this.runsDir = path.join(dir, 'runs');
    this.lockTimeoutMs = options.lockTimeoutMs ?? 5000;
    this.record = options.outsideRecord ? new ActiveRecordFile(workspaceOf(dir), options.outsideRecord.stateDir) : undefined;
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
   * that cannot be read, or whose files do not match the record outside the
   * workspace, is reported as `unreadable` so enforcement can deny.
   */
  readActive(): ActiveRun<R> {
    if (!this.record) return this.interpret(this.observe());
    let rec = this.record.read();
    for (let attempt = 0; attempt < 4; attempt++) {
      if (rec.kind === 'none') return this.interpret(this.observe());
      const seen = this.observe();
      const mismatch = this.mismatch(rec, seen);
      if (!mismatch) return this.interpret(seen);
      // A writer may have committed between the two reads (the record first, then run.json):
      // only a record that reads the same again, around files that still do not match it, is tampering.
      const again = this.record.read();
      if (again.kind !== 'none' && again.text === rec.text) return mismatch;
      rec = again;
    }
    // Commits kept coming in between: decide under the lock, where none can.
    try {
      return this.locked(() => {
        const seen = this.observe();
        return this.mismatch(this.record!.read(), seen) ?? this.interpret(seen);
      });
    } catch (err) {
      return { kind: 'unreadable', reason: (err as Error).message };
    }
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

  /** Create a run (its first journal entries included) and make it the active run. */
  create(run: R, journal: readonly object[]): R {
    return this.locked(() => {
      const seen = this.verified();
      fs.mkdirSync(this.runDir(run.runId), { recursive: true });
      this.commit(run.runId, run, journal, 0, { previous: seen.previous, activate: true });
      return run;
    });
  }

  /**
   * Change the active run under the lock: read it, let `fn` compute the next
   * snapshot and its journal entries, commit both. Throws StoreError
   * (`no_active_run`, `run_unreadable`, `run_tampered`, `busy`).
   */
  updateActive<T>(fn: (run: R) => Change<R, T>, options: KeyOption = {}): T {
    return this.locked(() => {
      const runId = this.activeRunId();
      if (!runId) {
        this.verified(); // "no active run" while the record names one is tampering
        throw new StoreError('no_active_run', 'no active run: start one with `stategate run start WORKFLOW_FILE`');
      }
      return this.updateLocked(runId, fn, false, options.key);
    });
  }

  /** Change a run by id under the lock. */
  update<T>(runId: string, fn: (run: R) => Change<R, T>, options: KeyOption = {}): T {
    return this.locked(() => this.updateLocked(runId, fn, false, options.key));
  }

  /** Change a run by id and make it the active run, in one step under the lock (resume). */
  activate<T>(runId: string, fn: (run: R) => Change<R, T>, options: KeyOption = {}): T {
    return this.locked(() => this.updateLocked(runId, fn, true, options.key));
  }

  /**
   * No active run any more: remove `active` and the record outside the
   * workspace (the recovery of an unreadable or tampered run; the run's files
   * are kept). Creates nothing when `.stategate/` is gone.
   */
  deactivate(): void {
    const clear = () => {
      try {
        fs.unlinkSync(this.activeFile);
      } catch {
        /* already none */
      }
      this.record?.clear();
    };
    if (fs.existsSync(this.dir)) this.locked(clear);
    else clear();
  }

  /** Run `fn` under the store's lock (for callers that compose several steps). */
  locked<T>(fn: () => T): T {
    fs.mkdirSync(this.dir, { recursive: true });
    try {
      // A hook waits for the lock only as long as its deadline leaves (deadline.ts).
      return withFileLock(this.lockFile, { timeoutMs: withinDeadline(this.lockTimeoutMs) }, fn);
    } catch (err) {
      if (err instanceof LockBusyError) throw new StoreError('busy', err.message);
      throw err;
    }
  }

  private updateLocked<T>(runId: string, fn: (run: R) => Change<R, T>, activate: boolean, key: string | undefined): T {
    const seen = this.verified();
    const isActive = seen.runId === runId;
    const read = isActive && seen.text !== null ? this.parseEnvelope(runId, seen.text) : isActive && seen.textError ? seen.textError : this.readEnvelope(runId);
    if ('reason' in read) throw new StoreError(read.missing ? 'no_active_run' : 'run_unreadable', `${read.reason}; ${RECOVERY}`);
    this.repairJournal(runId, read.envelope);
    const kept = read.envelope.answers ?? [];
    const first = key === undefined ? undefined : kept.find((a) => a.key === key);
    if (first) return first.result as T;
    const change = fn(read.envelope.run);
    if (change.run.runId !== runId) throw new StoreError('io', 'a run cannot change its id');
    const journalSeq = read.envelope.journalSeq + change.journal.length;
    // JSON round trip: the answer a retry gets is the one stored, not an object shared in memory.
    // A change that journals nothing and leaves the run as it was is no event (e.g. "the state moved, call again"):
    // asked again, it is decided again. (An allowed call journals nothing but counts: that is kept.)
    const noEvent = change.journal.length === 0 && JSON.stringify(change.run) === JSON.stringify(read.envelope.run);
    const answers = key === undefined || noEvent ? read.envelope.answers : [...kept, { key, seq: journalSeq, result: toJson(change.result) }].slice(-KEEP_ANSWERS);
    // The record follows the active run (and the run being made active), never another one.
    this.commit(runId, change.run, change.journal, read.envelope.journalSeq, isActive || activate ? { previous: seen.previous, activate } : undefined, answers);
    return change.result;
  }

  /**
   * The files as they are now, checked against the record outside the
   * workspace (under the lock, so no commit can come in between): throws
   * `run_tampered` when they do not match, so no change is ever committed on
   * top of files changed behind stategate's back.
   */
  private verified(): Observed & { readonly previous: Seen } {
    const seen = this.observe();
    if (!this.record) return { ...seen, previous: { run: seen.runId, sha256: null } };
    const previous = seenOf(seen);
    const mismatch = this.mismatch(this.record.read(), seen, previous);
    if (mismatch) throw new StoreError('run_tampered', mismatch.reason);
    return { ...seen, previous };
  }

  /**
   * Commit a snapshot: the record outside the workspace first (when `record`
   * says this is, or becomes, the active run), then run.json (the commit
   * point), the journal, and for an activation `active`, after which the
   * record is written once more without the step it replaced.
   */
  private commit(runId: string, run: R, journal: readonly object[], lastSeq: number, record?: { previous: Seen; activate: boolean }, answers?: readonly KeptAnswer[]): void {
    const tail: StoredEntry[] = journal.map((entry, i) => ({ seq: lastSeq + i + 1, ...entry }));
    const envelope: Envelope<R> = {
      format: RUN_FORMAT,
      version: RUN_FORMAT_VERSION,
      journalSeq: lastSeq + tail.length,
      tail,
      run,
      ...(answers && answers.length ? { answers } : {}),
    };
    const text = `${JSON.stringify(envelope, null, 2)}\n`;
    const outside = record && this.record && this.options.outsideRecord ? this.record : undefined;
    const enforcing = outside !== undefined && this.options.outsideRecord!.enforcing(run);
    const now = new Date().toISOString();
    const fields = { run: runId, journalSeq: envelope.journalSeq, sha256: enforcing ? hashText(text) : '' };
    if (outside) {
      if (enforcing) outside.write({ ...fields, previous: { run: record!.previous.run, sha256: record!.previous.sha256 } }, now);
      else outside.clear();
      this.step('record-written');
    }
    writeFileAtomic(this.runFile(runId), text);
    this.step('run-renamed');
    appendLinesDurable(
      this.journalFile(runId),
      tail.map((e) => JSON.stringify(e)),
    );
    this.step('journal-appended');
    if (this.options.afterCommit) {
      try {
        this.options.afterCommit({ runDir: this.runDir(runId), run, tail, journalSeq: envelope.journalSeq, journal: () => this.readJournal(runId) });
      } catch {
        // The run is committed; what follows it is caught up by the next commit.
      }
      this.step('run-record-written');
    }
    if (record?.activate) {
      writeFileAtomic(this.activeFile, `${runId}\n`);
      this.step('active-written');
      if (outside && enforcing) outside.write(fields, now);
    }
  }

  private step(step: CommitStep): void {
    this.options.afterStep?.(step);
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

  /** The files as they are: `.stategate/`, the id in `active`, that run's run.json. */
  private observe(): Observed {
    if (!fs.existsSync(this.dir)) return { dirExists: false, runId: null, text: null };
    let runId: string | undefined;
    try {
      runId = this.activeRunId();
    } catch (err) {
      return { dirExists: true, runId: null, activeError: (err as Error).message, text: null };
    }
    if (!runId) return { dirExists: true, runId: null, text: null };
    const read = this.readRunText(runId);
    return 'text' in read ? { dirExists: true, runId, text: read.text } : { dirExists: true, runId, text: null, textError: read };
  }

  /** What the observed files mean for enforcement (docs/enforcement.md). */
  private interpret(seen: Observed): ActiveRun<R> {
    if (!seen.dirExists) return { kind: 'none', why: `no ${this.dir} directory` };
    if (seen.activeError) return { kind: 'unreadable', reason: `${seen.activeError}; ${RECOVERY}` };
    if (seen.runId === null) return { kind: 'none', why: 'no active run' };
    const read = seen.text !== null ? this.parseEnvelope(seen.runId, seen.text) : seen.textError!;
    if ('reason' in read) return { kind: 'unreadable', runId: seen.runId, reason: `${read.reason}; ${RECOVERY}` };
    return { kind: 'ok', runId: seen.runId, run: read.envelope.run };
  }

  /**
   * Undefined when the files match the record (or there is none); else the
   * denial: what was found, what the record says, how to recover.
   */
  private mismatch(rec: RecordRead, seen: Observed, fingerprint?: Seen): (ActiveRun<R> & { kind: 'unreadable' }) | undefined {
    if (rec.kind === 'none') return undefined;
    if (rec.kind === 'unreadable') {
      return { kind: 'unreadable', tampered: true, reason: `stategate's record that this workspace has an active run cannot be used: ${rec.reason}. ${TAMPER_RECOVERY}` };
    }
    const r = rec.record;
    if (accepts(r, fingerprint ?? seenOf(seen))) return undefined;
    return {
      kind: 'unreadable',
      runId: r.run,
      tampered: true,
      reason: `${this.found(seen, r.run)}, but ${this.record!.file} records run ${r.run} as this workspace's active run (journal entry ${r.journalSeq}): the run's files were deleted or changed by something other than stategate, so every tool call is denied. ${TAMPER_RECOVERY}`,
    };
  }

  /** What the files show instead of the recorded run, in words. */
  private found(seen: Observed, recorded: string): string {
    if (!seen.dirExists) return `${this.dir} is gone`;
    if (seen.activeError) return `${this.activeFile} cannot be read (${seen.activeError})`;
    if (seen.runId === null) return `${this.activeFile} is gone (or empty)`;
    if (seen.runId !== recorded) return `${this.activeFile} names run ${seen.runId}`;
    if (seen.textError && !seen.textError.missing) return seen.textError.reason;
    if (seen.text === null) return `${this.runFile(recorded)} is gone`;
    const parsed = this.parseEnvelope(recorded, seen.text);
    const broken = 'reason' in parsed ? `, and it is no longer a usable run file (${parsed.reason})` : '';
    return `${this.runFile(recorded)} is not the file stategate last wrote (its content changed${broken})`;
  }

  private readRunText(runId: string): { text: string } | { reason: string; missing: boolean } {
    if (!/^[A-Za-z0-9._-]+$/.test(runId) || runId.startsWith('.')) {
      return { reason: `the active run id ${JSON.stringify(runId)} is not a valid run id`, missing: false };
    }
    const file = this.runFile(runId);
    try {
      return { text: fs.readFileSync(file, 'utf8') };
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      return { reason: missing ? `run ${runId} has no ${file}` : `cannot read ${file}: ${(err as Error).message}`, missing };
    }
  }

  private parseEnvelope(runId: string, text: string): { envelope: Envelope<R> } | { reason: string; missing: false } {
    const file = this.runFile(runId);
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

  private readEnvelope(runId: string): { envelope: Envelope<R> } | { reason: string; missing: boolean } {
    const read = this.readRunText(runId);
    return 'text' in read ? this.parseEnvelope(runId, read.text) : read;
  }
}

function toJson(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** The fingerprint of observed files that the record is compared with. */
function seenOf(seen: Observed): Seen {
  return { run: seen.runId, sha256: seen.text === null ? null : hashText(seen.text) };
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
