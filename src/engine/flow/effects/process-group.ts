/**
 * One program run as a flow state's effect: in a process group of its own
 * (detached), stdout captured (and reported chunk by chunk), stderr reported,
 * optional stdin text, and an abort that ends the WHOLE group: background
 * children of a `bash -c 'a & b'` too, not only the process we started.
 *
 * Why a group: `flow stop` must leave nothing running (docs/flows.md),
 * and a shell's children do not die with the shell. SIGTERM first so tools
 * can clean up, SIGKILL after a short grace for those that ignore it.
 *
 * Never throws for an expected failure: a program that cannot start is
 * exit 127 (not found) or 126 (not executable) with a message, the codes a
 * shell gives, so a flow routes on them like on any exit code.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { constants as osConstants } from 'node:os';

export interface GroupRunRequest {
  readonly program: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The whole environment of the child (callers merge over process.env themselves). */
  readonly env: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed; without it stdin is /dev/null. */
  readonly input?: string;
  readonly signal: AbortSignal;
  onStarted?(pgid: number): void;
  onStdout?(chunk: string): void;
  onStderr?(chunk: string): void;
  /** Milliseconds between SIGTERM and SIGKILL on abort. */
  readonly killGraceMs?: number;
}

export interface GroupRunResult {
  /** The exit code; 128+n for a death by signal n; 127/126 when the program could not start. */
  readonly exitCode: number;
  readonly stdout: string;
  /** Set when the program never ran: what was missing. */
  readonly spawnError?: 'not-found' | 'not-executable' | 'no-cwd' | 'other';
  readonly spawnMessage?: string;
  /** The run was aborted (stopped) and its group killed. */
  readonly aborted: boolean;
}

const DEFAULT_KILL_GRACE_MS = 2000;
/**
 * After the process we started has exited, how long its stdout and stderr may
 * stay open: a background child (`server &`) holds them, and a state must not
 * wait for it forever. Its output after that is not captured. What the
 * process itself wrote is at most a pipe buffer (64 KiB) behind when it exits
 * (a writer blocks on a full pipe), read in far less than this.
 */
const DRAIN_AFTER_EXIT_MS = 300;
const GROUP_POLL_MS = 25;

/** 128 + the signal's number, as a shell reports it. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (osConstants.signals[signal] ?? 0);
}

/** Does any process of this group still exist? */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but is not ours to signal (cannot happen for a group we started, but it is alive).
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * SIGTERM to the group, then SIGKILL after `graceMs` if any member is still
 * there. Resolves once the group is gone or SIGKILL was sent (a killed
 * process is reaped by its parent or init right after).
 */
export function killProcessGroup(pgid: number, graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  return new Promise((resolve) => {
    const deadline = Date.now() + graceMs;
    const tick = (): void => {
      if (!groupAlive(pgid)) return resolve();
      if (Date.now() >= deadline) {
        signalGroup(pgid, 'SIGKILL');
        return resolve();
      }
      setTimeout(tick, GROUP_POLL_MS);
    };
    tick();
  });
}

function spawnFailure(err: NodeJS.ErrnoException, program: string): GroupRunResult {
  if (err.code === 'ENOENT') return { exitCode: 127, stdout: '', aborted: false, spawnError: 'not-found', spawnMessage: `${program}: command not found` };
  if (err.code === 'EACCES') return { exitCode: 126, stdout: '', aborted: false, spawnError: 'not-executable', spawnMessage: `${program}: permission denied (not executable)` };
  return { exitCode: 126, stdout: '', aborted: false, spawnError: 'other', spawnMessage: `${program} could not be started: ${err.message}` };
}

export function runInProcessGroup(req: GroupRunRequest): Promise<GroupRunResult> {
  if (req.signal.aborted) return Promise.resolve({ exitCode: signalExitCode('SIGTERM'), stdout: '', aborted: true });
  // A missing folder makes spawn fail with ENOENT too, which would read as "program not found".
  if (!isDirectory(req.cwd)) {
    return Promise.resolve({ exitCode: 127, stdout: '', aborted: false, spawnError: 'no-cwd', spawnMessage: `the folder ${req.cwd} does not exist` });
  }
  return new Promise((resolve) => {
    const child = spawn(req.program, [...req.args], { cwd: req.cwd, env: req.env, detached: true, stdio: [req.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const stdout: string[] = [];
    let killing: Promise<void> | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let done = false;

    const onAbort = (): void => {
      if (child.pid !== undefined && !killing) killing = killProcessGroup(child.pid, req.killGraceMs);
    };
    const finish = (result: GroupRunResult): void => {
      if (done) return;
      done = true;
      if (drainTimer) clearTimeout(drainTimer);
      req.signal.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      // An aborted run resolves once its group is gone: the caller's next step must not race the kill.
      void (killing ?? Promise.resolve()).then(() => resolve({ ...result, aborted: killing !== undefined }));
    };
    const finishExited = (): void => {
      const code = exit?.code ?? (exit?.signal ? signalExitCode(exit.signal) : 1);
      finish({ exitCode: code, stdout: stdout.join(''), aborted: false });
    };

    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      stdout.push(chunk);
      req.onStdout?.(chunk);
    });
    child.stderr!.on('data', (chunk: string) => req.onStderr?.(chunk));
    if (child.stdin) {
      // A program that exits without reading its input closes the pipe: that is its business, not an error.
      child.stdin.on('error', () => undefined);
      child.stdin.end(req.input);
    }
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (child.pid === undefined) finish(spawnFailure(err, req.program));
    });
    child.on('spawn', () => {
      req.signal.addEventListener('abort', onAbort, { once: true });
      if (req.signal.aborted) onAbort();
      req.onStarted?.(child.pid!);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      drainTimer = setTimeout(finishExited, DRAIN_AFTER_EXIT_MS);
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      finishExited();
    });
  });
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
