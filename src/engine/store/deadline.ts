/**
 * One deadline for a whole process that must answer in time: a hook (one
 * process per tool call), whose client lets the call run, or kills the hook,
 * once its own timeout passes. The hook sets it from its process start; every
 * store read, lock wait and connection then takes only what remains of it
 * (pg-session.ts, run-store.ts), and the hook denies when the decision would
 * come later (src/cli/hook-command.ts). Processes that set none (the CLI, the
 * MCP server, the extension) keep their own timeouts.
 *
 * Kept on globalThis: the hook's bundle loads the shared store's code as a
 * bundle of its own (scripts/build.mjs), which would otherwise have a copy of
 * this module that never saw the deadline.
 */

export interface ProcessDeadline {
  /** ms since the epoch. */
  readonly at: number;
  /** The bound the deadline enforces, in ms from the process start (for messages). */
  readonly boundMs: number;
  /** Why there is one: what a late answer would mean, for messages. */
  readonly why: string;
}

interface DeadlineState {
  deadline?: ProcessDeadline;
  /** What the process is waiting on now (a store read, a lock), for the message when time runs out. */
  waiting?: string;
}

const KEY = Symbol.for('stategate.processDeadline');

function state(): DeadlineState {
  const g = globalThis as unknown as Record<symbol, DeadlineState | undefined>;
  return (g[KEY] ??= {});
}

export function setProcessDeadline(deadline: ProcessDeadline | undefined): void {
  state().deadline = deadline;
  state().waiting = undefined;
}

export function processDeadline(): ProcessDeadline | undefined {
  return state().deadline;
}

/** ms left before the deadline (never below 0); undefined when the process has none. */
export function remainingMs(now: number = Date.now()): number | undefined {
  const d = state().deadline;
  return d === undefined ? undefined : Math.max(0, d.at - now);
}

/** `ms`, or what remains of the deadline when that is less. */
export function withinDeadline(ms: number): number {
  const left = remainingMs();
  return left === undefined ? ms : Math.min(ms, left);
}

/** Notes what the process waits on while `fn` runs (the message of a late answer names it). */
export async function waitingOn<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const s = state();
  const before = s.waiting;
  s.waiting = what;
  try {
    return await fn();
  } finally {
    s.waiting = before;
  }
}

export function currentWait(): string | undefined {
  return state().waiting;
}
