/**
 * Navigation inside a run snapshot while the machine computes the next one:
 * which frame and which position an operation acts on, the journal it writes,
 * and the workflow IR of each frame. Every machine operation works on its own
 * copy of the caller's snapshot (an `Op`, see `copyRun`), so the public
 * functions stay pure.
 */
import type { JsonValue, Workflow } from './model.js';
import { cloneJson } from './jsonvalue.js';
import type { ActiveFork, BranchRun, Frame, JournalEntry, MachineError, Position, RunSnapshot, Scope } from './run.js';

export interface InvokeResolution {
  workflow: Workflow;
  /** The child definition's exact text (it is copied into the run). */
  text: string;
  file?: string;
}

/** What the machine needs from outside; everything else is in the snapshot. */
export interface MachineEnv {
  /** The time as an ISO string (injected so runs are deterministic in tests). */
  now(): string;
  /** The IR of a definition text (cached by hash); undefined when it does not load. */
  load(text: string): Workflow | undefined;
  /** Finds an invoked workflow by id or registered name, relative to the invoking file. */
  resolveInvoke(name: string, fromFile?: string): InvokeResolution | undefined;
}

/** Selects a branch of a parallel fork (sequential forks always act on the current branch). */
export interface BranchOption {
  branch?: string;
}

/** A position in the run: a frame (0 = top level, 1 = its child, ...) and maybe a fork branch. */
export interface Loc {
  frame: number;
  branch?: string;
}

export type StartedBranch = Extract<BranchRun, { status: 'running' | 'done' | 'failed' }>;

export class Op {
  readonly journal: JournalEntry[] = [];
  readonly at: string;
  private readonly wfCache = new Map<number, Workflow | undefined>();

  constructor(
    readonly run: RunSnapshot,
    readonly env: MachineEnv,
  ) {
    this.at = env.now();
  }

  /** The chain of frames from the top level down to the innermost child. */
  frames(): Frame[] {
    const out: Frame[] = [this.run];
    let f: Frame = this.run;
    while (f.child) {
      out.push(f.child);
      f = f.child;
    }
    return out;
  }

  frame(i: number): Frame {
    // Walks down the chain (frames()[i] without building the list: this runs several times per operation).
    let f: Frame | undefined = i >= 0 ? this.run : undefined;
    for (let k = 0; k < i && f; k++) f = f.child;
    if (!f) throw new Error(`internal: no frame ${i}`);
    return f;
  }

  /** The IR of frame `i`, loaded once per operation. */
  workflow(i: number): Workflow | undefined {
    if (!this.wfCache.has(i)) this.wfCache.set(i, this.env.load(this.frame(i).workflow.definitionText));
    return this.wfCache.get(i);
  }

  forgetWorkflow(i: number): void {
    this.wfCache.delete(i);
  }

  branch(loc: Loc): StartedBranch | undefined {
    if (loc.branch === undefined) return undefined;
    const b = this.frame(loc.frame).fork?.branches.find((x) => x.name === loc.branch);
    return b && b.status !== 'pending' ? b : undefined;
  }

  position(loc: Loc): Position {
    if (loc.branch === undefined) return this.frame(loc.frame);
    const b = this.branch(loc);
    if (!b) throw new Error(`internal: branch ${loc.branch} has not started`);
    return b;
  }

  log(loc: Loc, entry: DistributiveOmit<JournalEntry, 'at' | 'scope'>): JournalEntry {
    const scope = scopeOf(loc);
    const full = { ...entry, at: this.at, ...(scope ? { scope } : {}) } as JournalEntry;
    this.journal.push(full);
    return full;
  }

  /** Counts a transition on its position and, for nested ones, on the run as a whole. */
  countTransition(loc: Loc): void {
    this.position(loc).counters.transitions++;
    if (loc.frame !== 0 || loc.branch !== undefined) this.run.counters.transitions++;
  }

  finish(): RunSnapshot {
    this.run.updatedAt = this.at;
    return this.run;
  }
}

/**
 * An operation's copy of a snapshot: a deep copy (`cloneJson`, strings
 * shared), except that each frame's `taken` list is copied as a list whose
 * edges ({from, event, to}) are shared with the original: the machine only
 * ever appends edges and never changes one, and that list grows with the
 * workflow, so copying each edge on every operation cost more than the
 * transition itself.
 */
export function copyRun(run: RunSnapshot): RunSnapshot {
  return copyFrame(run as unknown as Record<string, unknown>) as unknown as RunSnapshot;
}

function copyFrame(f: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(f)) {
    const v = f[k];
    let copy: unknown;
    if ((k === 'visited' || k === 'taken') && Array.isArray(v)) copy = v.slice();
    else if (k === 'child' && typeof v === 'object' && v !== null && !Array.isArray(v)) copy = copyFrame(v as Record<string, unknown>);
    else copy = cloneJson(v as JsonValue);
    // `__proto__` stays a plain data property (a snapshot read from disk could carry one).
    if (k === '__proto__') Object.defineProperty(out, k, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[k] = copy;
  }
  return out;
}

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** `child/child/branch:lint` for frame 2, branch lint; undefined for the top level. */
export function scopeOf(loc: Loc): Scope | undefined {
  if (loc.frame === 0 && loc.branch === undefined) return undefined;
  const parts: string[] = Array.from({ length: loc.frame }, () => 'child');
  if (loc.branch !== undefined) parts.push(`branch:${loc.branch}`);
  return parts.length ? parts.join('/') : undefined;
}

/** Where events go: the innermost frame, and in a fork its current (or the chosen) branch. */
export function activeLoc(op: Op, opt: BranchOption = {}): Loc | MachineError {
  const frame = op.frames().length - 1;
  const fork = op.frame(frame).fork;
  if (!fork) return { frame };
  return pickLoc(frame, fork, opt);
}

function pickLoc(frame: number, fork: ActiveFork, opt: BranchOption): Loc | MachineError {
  const running = fork.branches.filter((b) => b.status === 'running').map((b) => b.name);
  if (fork.mode === 'sequential') {
    if (opt.branch !== undefined && opt.branch !== fork.current) {
      return { code: 'unknown_branch', message: `branch "${opt.branch}" is not the current branch of the fork (current: ${fork.current ?? 'none'})` };
    }
    return fork.current === undefined ? { frame } : { frame, branch: fork.current };
  }
  if (opt.branch === undefined) {
    return { code: 'unknown_branch', message: `a parallel fork is active: name the branch (running: ${running.join(', ') || 'none'})` };
  }
  if (!running.includes(opt.branch)) {
    return { code: 'unknown_branch', message: `branch "${opt.branch}" is not running (running: ${running.join(', ') || 'none'})` };
  }
  return { frame, branch: opt.branch };
}

export function isError(x: unknown): x is MachineError {
  return typeof x === 'object' && x !== null && 'code' in x && 'message' in x && !('frame' in x);
}
