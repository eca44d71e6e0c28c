/**
 * Fork / join. The frame waits in the forking state while its branches run.
 * Sequential mode: branches run one after another in name order, each from
 * its `initial` state; events go to the current branch; `BRANCH_DONE:<name>`
 * is accepted only while that branch stands in its terminal state, then the
 * next pending branch starts. Parallel mode: every branch starts at once and
 * events name their branch. `join: all` resumes the frame at `on_complete`
 * when every branch is done, `any` after the first. A branch that reaches a
 * final state other than its terminal fails (a failing final state by the
 * failure rule, or any other final state, which it could never leave to reach
 * its terminal), and a failed branch fails the fork: `on_fail`, else the
 * frame's `failed` state, else the frame fails.
 *
 * Branch contexts start as copies of the frame's context. On join (or fail)
 * what each started branch changed is merged into the frame's context, in
 * branch name order (a later branch wins a key both changed).
 */
import type { ForkTransition, JsonObject, JsonValue } from '../../model/index.js';
import { cloneJson, mergeShallow, shallowDiff } from '../../model/json-value.js';
import type { Loc, Op, StartedBranch } from '../cursor.js';
import { addVisited, failedStateOf, resumeFrame } from '../progress.js';
import type { ActiveFork, BranchRun, MachineError } from '../run.js';
import { freshCounters } from '../run.js';

export const BRANCH_DONE_PREFIX = 'BRANCH_DONE:';
const MAX_SESSION_ID = 200;

/** Starts a fork in frame `frameIdx` (the event's data is merged into the frame first). */
export function startFork(op: Op, frameIdx: number, event: string, t: ForkTransition, data: JsonValue | undefined): ActiveFork {
  const frame = op.frame(frameIdx);
  frame.context = mergeShallow(frame.context, data);
  const fork: ActiveFork = {
    event,
    from: frame.state,
    join: t.join,
    mode: t.mode,
    onComplete: t.onComplete.name,
    ...(t.onFail ? { onFail: t.onFail.name } : {}),
    branches: t.branches.map((b): BranchRun => ({ name: b.name, initial: b.initial.name, terminal: b.terminal.name, status: 'pending' })),
    startedAt: op.at,
  };
  frame.fork = fork;
  op.log({ frame: frameIdx }, {
    kind: 'fork_start',
    event,
    from: frame.state,
    branches: fork.branches.map((b) => b.name),
    join: fork.join,
    mode: fork.mode,
    ...(data === undefined ? {} : { data }),
  });
  const toStart = fork.mode === 'parallel' ? fork.branches.map((b) => b.name) : fork.branches.slice(0, 1).map((b) => b.name);
  for (const name of toStart) startBranch(op, frameIdx, name);
  return fork;
}

function startBranch(op: Op, frameIdx: number, name: string): void {
  const frame = op.frame(frameIdx);
  const fork = frame.fork;
  if (!fork) return;
  const i = fork.branches.findIndex((b) => b.name === name);
  const b = fork.branches[i];
  if (!b) return;
  fork.branches[i] = { name: b.name, initial: b.initial, terminal: b.terminal, ...(b.sessions ? { sessions: b.sessions } : {}), status: 'running', state: b.initial, context: cloneJson(frame.context), counters: freshCounters() };
  if (fork.mode === 'sequential') fork.current = name;
  addVisited(frame, b.initial);
  op.log({ frame: frameIdx, branch: name }, { kind: 'branch_start', branch: name, state: b.initial });
}

/** `BRANCH_DONE:<name>`: accepted only while that branch stands in its terminal state. */
export function branchDone(op: Op, frameIdx: number, name: string, data: JsonValue | undefined): MachineError | undefined {
  const fork = op.frame(frameIdx).fork;
  const b = fork?.branches.find((x) => x.name === name);
  if (!fork || !b) {
    const names = fork?.branches.map((x) => x.name).join(', ') ?? 'none (no fork is active)';
    return { code: 'unknown_branch', message: `no branch "${name}" in the active fork; branches: ${names}` };
  }
  if (b.status !== 'running' || b.state !== b.terminal) {
    const where = b.status === 'running' ? `stands in "${b.state}"` : `is ${b.status}`;
    return { code: 'branch_not_terminal', message: `branch "${name}" ${where}; BRANCH_DONE:${name} is accepted only in its terminal state "${b.terminal}"` };
  }
  b.context = mergeShallow(b.context, data);
  markBranch(op, frameIdx, b, 'done');
  const done = fork.branches.filter((x) => x.status === 'done').length;
  if (fork.join === 'any' || done === fork.branches.length) {
    join(op, frameIdx, 'complete');
    return undefined;
  }
  const next = fork.branches.find((x) => x.status === 'pending');
  if (fork.mode === 'sequential') {
    if (next) startBranch(op, frameIdx, next.name);
    else delete fork.current;
  }
  return undefined;
}

/** A branch reached a final state: its terminal waits for BRANCH_DONE, any other fails the fork. */
export function branchReachedFinal(op: Op, loc: Loc): void {
  const b = op.branch(loc);
  if (!b || b.state === b.terminal) return;
  markBranch(op, loc.frame, b, 'failed');
  join(op, loc.frame, 'fail');
}

function markBranch(op: Op, frameIdx: number, b: StartedBranch, status: 'done' | 'failed'): void {
  b.status = status;
  op.log({ frame: frameIdx, branch: b.name }, { kind: 'branch_done', branch: b.name, state: b.state, outcome: status });
}

function join(op: Op, frameIdx: number, outcome: 'complete' | 'fail'): void {
  const frame = op.frame(frameIdx);
  const fork = frame.fork;
  if (!fork) return;
  let patch: JsonObject = {};
  for (const b of fork.branches) {
    if (b.status !== 'pending') patch = mergeShallow(patch, shallowDiff(frame.context, b.context));
  }
  delete frame.fork;
  const wf = op.workflow(frameIdx);
  const to = outcome === 'complete' ? fork.onComplete : (fork.onFail ?? (wf ? failedStateOf(wf) : undefined));
  resumeFrame(op, frameIdx, to, patch, { kind: 'join', outcome, from: frame.state, patch });
}

/**
 * Binds an agent session to a branch of the innermost active fork (`stategate
 * run bind`, `statewright_load_workflow(name, branch)`). A fork runs in
 * parallel mode once agents bind to it, whatever its `mode`: the seed's fork
 * schema has no mode, and an agent binding to a branch is how it says the
 * branches run side by side, so a sequential fork's pending branches start
 * then. A session is bound to one branch at a time (binding again moves it).
 * Refused: no fork, an unknown branch, a branch that has ended.
 */
export function bindSessionAt(op: Op, frameIdx: number, session: string, branch: string): MachineError | { branch: string; parallel: boolean } {
  const fork = op.frame(frameIdx).fork;
  if (!fork) return { code: 'no_fork', message: 'no fork is running: a session binds to a branch of an active fork' };
  const names = fork.branches.map((b) => `${b.name} (${b.status})`).join(', ');
  const b = fork.branches.find((x) => x.name === branch);
  if (!b) return { code: 'unknown_branch', message: `no branch "${branch}" in the active fork; branches: ${names}` };
  if (b.status === 'done' || b.status === 'failed') return { code: 'branch_ended', message: `branch "${branch}" is ${b.status}; branches: ${names}` };
  // A session id is a client's identifier (a UUID or alike): anything else is not one, and the run is no place for bulk text.
  if (session === '' || session.length > MAX_SESSION_ID) return { code: 'invalid_session', message: `a session id is 1 to ${MAX_SESSION_ID} characters` };
  for (const x of fork.branches) {
    if (x.sessions?.includes(session)) {
      x.sessions = x.sessions.filter((s) => s !== session);
      if (!x.sessions.length) delete x.sessions;
    }
  }
  const parallel = fork.mode === 'sequential';
  if (parallel) {
    fork.mode = 'parallel';
    delete fork.current;
    for (const x of fork.branches) if (x.status === 'pending') startBranch(op, frameIdx, x.name);
  }
  const bound = fork.branches.find((x) => x.name === branch)!;
  bound.sessions = [...(bound.sessions ?? []), session];
  op.log({ frame: frameIdx }, { kind: 'session_bound', session, branch, ...(parallel ? { parallel: true as const } : {}) });
  return { branch, parallel };
}

/**
 * The branch a session is bound to, while that branch runs. A session bound
 * to a branch that has ended (done or failed, or its fork joined) is unbound
 * again: its calls are decided as every unbound call is, by what all running
 * branches allow.
 */
export function boundBranchOf(fork: ActiveFork | undefined, session: string | undefined): string | undefined {
  if (!fork || session === undefined) return undefined;
  // A branch standing in its terminal (a final state, waiting for BRANCH_DONE) enforces nothing: its sessions count as unbound.
  return fork.branches.find((b) => b.status === 'running' && b.state !== b.terminal && b.sessions?.includes(session))?.name;
}
