/**
 * Navigation inside a run snapshot while the machine computes the next one:
 * which frame and which position an operation acts on, the journal it writes,
 * and the workflow IR of each frame. Every machine operation works on its own
 * copy of the caller's snapshot (an `Op`, see `copyRun`), so the public
 * functions stay pure.
 */
import type { InvokeProblem, JsonValue, Workflow } from '../model/index.js';
import { cloneJson } from '../model/json-value.js';
import type { ActiveFork, ActiveInterrupt, BranchRun, ChildRun, Counters, Frame, JournalEntry, MachineError, NodeCounters, PendingApproval, Position, RunSnapshot, Scope } from './run.js';

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
  resolveInvoke(name: string, fromFile?: string): InvokeResolution | InvokeProblem | undefined;
  /**
   * Finds the chart a `statechart:<id>[@version]` invoke names, seen from the
   * invoking chart (its machine_registry, the workspace registry, chart ids):
   * its file and text, or what was searched in vain. Absent: child charts
   * cannot be found (every such invocation fails).
   */
  resolveChart?(src: string, from: { readonly workflow: Workflow; readonly file?: string }): { readonly file: string; readonly text: string } | InvokeProblem;
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

/**
 * What a final state means for a frame that is a fork branch or a child run.
 * The patterns (fork.ts, invoke.ts) answer; progress.ts asks through the Op,
 * so the lifecycle does not import the patterns that build on it
 * (patterns/endings.ts wires them).
 */
export interface FrameEndings {
  /** A fork branch stands in a final state. */
  branchReachedFinal(op: Op, loc: Loc): void;
  /** A child run (frame `childIdx` > 0) ended: its parent resumes. */
  completeChild(op: Op, childIdx: number, outcome: 'complete' | 'fail'): void;
}

export class Op {
  readonly journal: JournalEntry[] = [];
  readonly at: string;
  /** Frame 0's IR (the common case), then deeper frames' (loaded once per operation). */
  private wf0: Workflow | undefined;
  private wf0Loaded = false;
  private wfDeeper: Map<number, Workflow | undefined> | undefined;

  constructor(
    readonly run: RunSnapshot,
    readonly env: MachineEnv,
    readonly endings: FrameEndings,
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

  /** The index of the innermost frame (frames().length - 1, without building the list). */
  innermost(): number {
    let i = 0;
    for (let f: Frame = this.run; f.child; f = f.child) i++;
    return i;
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
    if (i === 0) {
      if (!this.wf0Loaded) {
        this.wf0 = this.env.load(this.run.workflow.definitionText);
        this.wf0Loaded = true;
      }
      return this.wf0;
    }
    const cache = (this.wfDeeper ??= new Map());
    if (!cache.has(i)) cache.set(i, this.env.load(this.frame(i).workflow.definitionText));
    return cache.get(i);
  }

  forgetWorkflow(i: number): void {
    if (i === 0) {
      this.wf0 = undefined;
      this.wf0Loaded = false;
    } else this.wfDeeper?.delete(i);
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

  /**
   * Journals `entry` (a fresh object the caller built for this call: it is
   * completed in place with `at` and `scope` rather than copied, so its keys
   * keep their order: the entry's own, then `at`, then `scope`).
   */
  log(loc: Loc, entry: DistributiveOmit<JournalEntry, 'at' | 'scope'>): JournalEntry {
    const full = entry as JournalEntry;
    full.at = this.at;
    const scope = scopeOf(loc);
    if (scope) full.scope = scope;
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
 * An operation's copy of a snapshot: what an operation (or the policy) changes
 * in place is copied (each frame object, its counters, a fork with its
 * branches, a parked approval, an active interrupt, a child frame), and the
 * rest is shared with the original: strings, the workflow reference, the
 * context, and the diagram trail (`visited`, `taken`). Those are never changed
 * in place: a context is replaced (`mergeShallow` returns a new object), the
 * trail lists are replaced by longer copies when they grow (see progress.ts,
 * `addToTrail`), and a reload replaces the workflow reference. That keeps a
 * transition's cost independent of the workflow's size and the context's.
 */
export function copyRun(run: RunSnapshot): RunSnapshot {
  // A snapshot with exactly the keys (in the order) startRun gives one is copied as a literal, which
  // V8 does several times faster than a spread; any other (a fork, a child, keys from disk) is spread.
  if (!sameKeys(run, RUN_KEYS)) return copyFrame(run);
  return {
    version: run.version,
    runId: run.runId,
    workflow: run.workflow,
    status: run.status,
    state: run.state,
    context: run.context,
    counters: copyCounters(run.counters),
    visited: run.visited,
    taken: run.taken,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  };
}

/** The keys of a top-level snapshot as startRun writes them, with no fork, child, approval or interrupt. */
const RUN_KEYS: readonly string[] = ['version', 'runId', 'workflow', 'status', 'state', 'context', 'counters', 'visited', 'taken', 'createdAt', 'updatedAt'];
/** The keys of `freshCounters()`, in its order. */
const COUNTER_KEYS: readonly string[] = ['iterations', 'transitions', 'filesEdited', 'editLines', 'bytesRead', 'stepsTotal'];

/** `o` has exactly `keys` as its own enumerable keys, in that order. */
function sameKeys(o: object, keys: readonly string[]): boolean {
  const own = Object.keys(o);
  if (own.length !== keys.length) return false;
  for (let i = 0; i < own.length; i++) if (own[i] !== keys[i]) return false;
  return true;
}

function copyFrame<F extends Frame>(f: F): F {
  // Spread defines own data properties, so a `__proto__` key (a snapshot read from disk could carry one) stays plain data.
  const out = { ...f };
  out.counters = copyCounters(f.counters);
  if (f.fork !== undefined) out.fork = cloneJson(f.fork as unknown as JsonValue) as unknown as ActiveFork;
  if (f.pendingApproval !== undefined) out.pendingApproval = cloneJson(f.pendingApproval as unknown as JsonValue) as unknown as PendingApproval;
  if (f.interrupt !== undefined) out.interrupt = cloneJson(f.interrupt as unknown as JsonValue) as unknown as ActiveInterrupt;
  if (f.nodeCounters !== undefined) out.nodeCounters = cloneJson(f.nodeCounters as unknown as JsonValue) as unknown as Record<string, NodeCounters>;
  const child = f.child;
  if (child !== undefined) out.child = typeof child === 'object' && child !== null && !Array.isArray(child) ? copyFrame(child) : (cloneJson(child as unknown as JsonValue) as unknown as ChildRun);
  return out;
}

function copyCounters(c: Counters): Counters {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return cloneJson(c as unknown as JsonValue) as unknown as Counters;
  if (Array.isArray(c.filesEdited) && sameKeys(c, COUNTER_KEYS)) {
    return { iterations: c.iterations, transitions: c.transitions, filesEdited: c.filesEdited.slice(), editLines: c.editLines, bytesRead: c.bytesRead, stepsTotal: c.stepsTotal };
  }
  const out = { ...c };
  if (Array.isArray(c.filesEdited)) out.filesEdited = c.filesEdited.slice();
  else if (c.filesEdited !== undefined) out.filesEdited = cloneJson(c.filesEdited as unknown as JsonValue) as unknown as string[];
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
  const frame = op.innermost();
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
