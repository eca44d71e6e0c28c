/**
 * An inter-process lock on one file, for serialising writers to a run.
 *
 * Several processes act on a run at once (the extension host, a hook process
 * per tool call, an MCP server, the CLI), and any of them may be killed with
 * SIGKILL while holding the lock. So:
 * - the lock is a file created with O_EXCL that names its holder's pid and a
 *   random token;
 * - a lock whose holder is a dead process on this machine is stale and may be
 *   broken; breaking is itself guarded by a second O_EXCL file so that two
 *   breakers can never remove a lock that a third process has just taken.
 * - waiting is bounded: the caller says how long it may wait (a hook has a
 *   time budget) and gets a typed "busy" answer instead of hanging.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { uniqueHex } from './atomic-file.js';

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
  readonly since: number;
  /**
   * The holder's start time (Linux: clock ticks since boot, /proc/<pid>/stat
   * field 22). Pids are reused (pid_max is often 32768, and every hook call is a
   * process): a dead holder's pid may belong to another live process by the time
   * someone looks, which would make its lock look held forever. The pid names the
   * holder only while this start time matches. Absent where /proc is not.
   */
  readonly start?: string;
}

export class LockBusyError extends Error {
  readonly code = 'busy';
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder | undefined,
    waitedMs: number,
  ) {
    super(
      `the run is busy: another process (${holder ? `pid ${holder.pid}` : 'unknown'}) has held ${lockPath} for more than ${waitedMs} ms; try again, or if no stategate process is running remove that file`,
    );
  }
}

export interface LockOptions {
  /** How long to wait for the lock before giving up with LockBusyError. */
  readonly timeoutMs: number;
}

const sleepBuffer = new Int32Array(new SharedArrayBuffer(4));
/** A synchronous sleep: the store's API is synchronous so a hook can answer without an event loop turn. */
function sleepSync(ms: number): void {
  Atomics.wait(sleepBuffer, 0, 0, ms);
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object') {
      const h = parsed as Record<string, unknown>;
      if (typeof h.pid === 'number' && typeof h.token === 'string') {
        return { pid: h.pid, token: h.token, host: String(h.host ?? ''), since: Number(h.since ?? 0), ...(typeof h.start === 'string' ? { start: h.start } : {}) };
      }
    }
  } catch {
    // missing, or torn by a crash between create and write: treated below
  }
  return undefined;
}

/**
 * Whether process `pid` still runs and is the one that started at `start`
 * (when known): a recorded pid may since belong to another process.
 */
export function processRunning(pid: number, start?: string): boolean {
  if (!isAlive(pid)) return false;
  const now = start === undefined ? undefined : processStart(pid);
  return now === undefined || now === start;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When process `pid` started (Linux: field 22 of /proc/<pid>/stat), or undefined where that cannot be read. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command name, is in parentheses and may hold spaces: count from the last ')'.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

let ownStart: string | undefined | null = null;
/** This process's start time (processStart of its own pid, read once). */
export function myStart(): string | undefined {
  if (ownStart === null) ownStart = processStart(process.pid);
  return ownStart;
}

/**
 * A lock file is stale when its holder is a dead process of this host (or its
 * pid now belongs to a process that started later: a reused pid), or it is
 * unreadable and old.
 */
function isStale(file: string, holder: LockHolder | undefined): boolean {
  if (holder) {
    if (holder.host !== os.hostname()) return false;
    return !processRunning(holder.pid, holder.start);
  }
  try {
    // A holder is written right after the O_EXCL create; an unreadable lock older than
    // a second was left by a process killed in between.
    return Date.now() - fs.statSync(file).mtimeMs > 1000;
  } catch {
    return false;
  }
}

function tryCreate(file: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeSync(fd, JSON.stringify(holder));
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/** Break `file` if it is stale, under the breaker lock. Returns true when it was removed. */
function breakIfStale(file: string): boolean {
  const breaker = `${file}.break`;
  const start = myStart();
  const me: LockHolder = { pid: process.pid, host: os.hostname(), token: uniqueHex(16), since: Date.now(), ...(start ? { start } : {}) };
  if (!tryCreate(breaker, me)) {
    const other = readHolder(breaker);
    if (isStale(breaker, other)) {
      // A breaker killed mid-break: its window is tiny, so removing it is safe.
      try {
        fs.unlinkSync(breaker);
      } catch {
        /* someone else removed it */
      }
    }
    return false;
  }
  try {
    // Re-read under the breaker lock: nobody can create `file` while it exists,
    // so if it is still stale now, removing it cannot hurt a live holder.
    const holder = readHolder(file);
    if (fs.existsSync(file) && isStale(file, holder)) {
      fs.unlinkSync(file);
      return true;
    }
    return false;
  } finally {
    try {
      fs.unlinkSync(breaker);
    } catch {
      /* already gone */
    }
  }
}

export class FileLock {
  private token: string | undefined;

  constructor(readonly path: string) {}

  /** Take the lock, waiting up to `timeoutMs`. Throws LockBusyError when it cannot. */
  acquire(options: LockOptions): void {
    const started = Date.now();
    const start = myStart();
    const me: LockHolder = { pid: process.pid, host: os.hostname(), token: uniqueHex(16), since: started, ...(start ? { start } : {}) };
    let delay = 1;
    for (;;) {
      if (tryCreate(this.path, me)) {
        this.token = me.token;
        return;
      }
      const holder = readHolder(this.path);
      if (isStale(this.path, holder) && breakIfStale(this.path)) continue;
      const waited = Date.now() - started;
      if (waited >= options.timeoutMs) throw new LockBusyError(this.path, holder, waited);
      sleepSync(Math.min(delay, options.timeoutMs - waited));
      delay = Math.min(delay * 2, 25);
    }
  }

  /** Release the lock if we still hold it (never remove someone else's). */
  release(): void {
    if (!this.token) return;
    const holder = readHolder(this.path);
    if (holder?.token === this.token) {
      try {
        fs.unlinkSync(this.path);
      } catch {
        /* already gone */
      }
    }
    this.token = undefined;
  }
}

/** Run `fn` while holding the lock at `path`. */
export function withFileLock<T>(path: string, options: LockOptions, fn: () => T): T {
  const lock = new FileLock(path);
  lock.acquire(options);
  try {
    return fn();
  } finally {
    lock.release();
  }
}
