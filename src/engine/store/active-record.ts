/**
 * The workspace's active run, recorded a second time outside the workspace
 * (docs/enforcement.md). An agent allowed an interpreter can
 * delete `.stategate/` (`python3 -c "shutil.rmtree('.stategate')"`), and "no
 * active run" allows everything: the record in the user's state directory
 * (util/user-state-dir.ts) says that a run is active here and what stategate last
 * committed, so files that vanished or changed behind stategate's back are seen
 * as tampering, and every decision denies until a person recovers.
 *
 *   <state dir>/workspaces/<key>.json   key: sha256 of the workspace's real path
 *
 * The record names the active run and the sha256 of its run.json exactly as
 * stategate wrote it. The store (run-store.ts) writes it on every commit of a
 * running active run, under the run's lock, BEFORE the rename of run.json that
 * is the commit point, and keeps in it what it replaces (`previous`): a writer
 * killed between the two leaves a record one step ahead of the files, which the
 * previous step still matches, so no crash reads as tampering. When the run
 * stops enforcing (paused, stopped, final), the record is removed, also before
 * the rename. Readers take no lock: a mismatch counts only when the record read
 * again is the same, so a commit in between is never taken for tampering.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';
import { hashText as sha256 } from '../machine/run.js';

export const RECORD_FORMAT = 'stategate-active-run';
export const RECORD_VERSION = 1;

/** The workspace's files as stategate reads them: the id in `active` and the sha256 of that run's run.json (null: absent). */
export interface Seen {
  readonly run: string | null;
  readonly sha256: string | null;
}

export interface ActiveRecord {
  readonly format: typeof RECORD_FORMAT;
  readonly version: number;
  /** The workspace's real path, for people reading the folder. */
  readonly workspace: string;
  readonly run: string;
  /** The journal position of that commit (for people: "stategate last wrote entry N"). */
  readonly journalSeq: number;
  readonly sha256: string;
  /** What the files looked like before the commit this record announces; accepted as well until the next commit. */
  readonly previous?: Seen;
  readonly updatedAt: string;
}

export type RecordRead =
  | { readonly kind: 'none' }
  | { readonly kind: 'ok'; readonly record: ActiveRecord; readonly text: string }
  | { readonly kind: 'unreadable'; readonly reason: string; readonly text: string };

/** The real path of the workspace a store folder belongs to (its parent), or the resolved path if it does not exist. */
export function workspaceOf(storeDir: string): string {
  const parent = path.dirname(path.resolve(storeDir));
  try {
    return fs.realpathSync.native(parent);
  } catch {
    return parent;
  }
}

/**
 * The record file of a workspace given by its real path. On macOS and Windows
 * file names are compared without case by default: two processes that reach
 * the workspace through differently cased paths must find the same record.
 */
export function recordFileFor(realWorkspace: string, stateDir: string, platform: NodeJS.Platform = process.platform): string {
  const key = platform === 'darwin' || platform === 'win32' ? realWorkspace.toLowerCase() : realWorkspace;
  return path.join(stateDir, 'workspaces', `${sha256(key).slice(0, 32)}.json`);
}

function isSeen(value: unknown): value is Seen {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (v.run === null || typeof v.run === 'string') && (v.sha256 === null || typeof v.sha256 === 'string');
}

function checkRecord(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'not an object';
  const v = value as Record<string, unknown>;
  if (v.format !== RECORD_FORMAT) return `format ${JSON.stringify(v.format)}`;
  if (v.version !== RECORD_VERSION) return `version ${JSON.stringify(v.version)} (this stategate reads version ${RECORD_VERSION})`;
  if (typeof v.run !== 'string' || typeof v.sha256 !== 'string' || typeof v.journalSeq !== 'number') return 'no run, sha256 or journalSeq';
  if (v.previous !== undefined && !isSeen(v.previous)) return 'a malformed previous';
  return undefined;
}

function same(a: Seen, b: Seen): boolean {
  return a.run === b.run && a.sha256 === b.sha256;
}

/** Do the files match the record: its commit, or the one before it (a writer killed before its rename)? */
export function accepts(record: ActiveRecord, seen: Seen): boolean {
  return same(seen, { run: record.run, sha256: record.sha256 }) || (record.previous !== undefined && same(seen, record.previous));
}

export class ActiveRecordFile {
  readonly file: string;

  constructor(
    readonly workspace: string,
    stateDir: string,
  ) {
    this.file = recordFileFor(workspace, stateDir);
  }

  /** One small read. Never throws: a record that is there but cannot be used is `unreadable` (the caller denies). */
  read(): RecordRead {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
      return { kind: 'unreadable', reason: `cannot read ${this.file}: ${(err as Error).message}`, text: '' };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      return { kind: 'unreadable', reason: `${this.file} is not valid JSON (${(err as Error).message})`, text };
    }
    const bad = checkRecord(parsed);
    if (bad) return { kind: 'unreadable', reason: `${this.file} is not a stategate record: ${bad}`, text };
    return { kind: 'ok', record: parsed as ActiveRecord, text };
  }

  /** Replace the record atomically (one small write). */
  write(fields: { run: string; journalSeq: number; sha256: string; previous?: Seen }, now: string): void {
    const record: ActiveRecord = { format: RECORD_FORMAT, version: RECORD_VERSION, workspace: this.workspace, ...fields, updatedAt: now };
    const text = `${JSON.stringify(record, null, 2)}\n`;
    try {
      writeFileAtomic(this.file, text);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      writeFileAtomic(this.file, text);
    }
  }

  clear(): void {
    try {
      fs.unlinkSync(this.file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/**
 * The store folder that governs `cwd`. The run is found from the record kept
 * outside every workspace, never from the first `.stategate` above `cwd`: an
 * agent that creates `sub/.stategate` (with a forged run that allows
 * everything) and works from `sub/` must not take its hook there.
 *
 * 1. The nearest folder at or above `cwd` that a record in the user state
 *    directory names as having an active run: its `.stategate` (even when that
 *    is gone: the store reports the tampering). Every enforced run has such a
 *    record (the store writes it on each commit of a running run), so a real
 *    run always wins over any `.stategate` an agent made below it.
 * 2. Only where no record names any ancestor (no run above `cwd` is enforced):
 *    the outermost `.stategate` above `cwd` whose `active` names a run, else
 *    the nearest `.stategate`. Outermost, because a folder an agent creates
 *    lies inside the workspace it works in, below the workspace's own
 *    `.stategate`; a run without a record (a store started before records, or
 *    under another state directory) is then still the workspace's.
 *
 * Undefined when none is found: nothing to enforce.
 */
export function findStoreDir(cwd: string, stateDir: string): string | undefined {
  let start = path.resolve(cwd);
  try {
    start = fs.realpathSync.native(start);
  } catch {
    /* a cwd that does not exist: look from its resolved path */
  }
  const ancestors: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    ancestors.push(dir);
    if (path.dirname(dir) === dir) break;
  }
  // An ancestor of a real path is real, so its record key needs no realpath.
  const recorded = ancestors.find((dir) => fs.existsSync(recordFileFor(dir, stateDir)));
  if (recorded !== undefined) return path.join(recorded, '.stategate');
  const stores = ancestors.map((dir) => path.join(dir, '.stategate')).filter(isDirectory);
  return [...stores].reverse().find(namesARun) ?? stores[0];
}

/** Does the store folder's `active` file name a run? */
function namesARun(store: string): boolean {
  try {
    return fs.readFileSync(path.join(store, 'active'), 'utf8').trim() !== '';
  } catch {
    return false;
  }
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}
