/**
 * The machine's public operations. Each is pure and synchronous: it takes a
 * run snapshot (never modified) and returns the next snapshot, the journal
 * entries to append, and an outcome for the caller. Nothing here throws on
 * bad input; refusals come back as typed errors (`outcome.error`), and a
 * refused event is journaled as `rejected` while the snapshot stays as it was.
 *
 * The store calls these under its lock; the semantics are docs/format.md's
 * (transitions, guards, interrupts, fork and join, invoke) and the reasons
 * docs/design/formats.md's (see the module comments of resolve.ts and
 * patterns/interrupts.ts, patterns/fork.ts and patterns/invoke.ts for each part).
 */
import type { ChartAgent, JsonObject, JsonValue, StateNode, Workflow } from '../model/index.js';
import { cloneJson, mergeShallow } from '../model/json-value.js';
import { activeLoc, copyRun, isError, Op, scopeOf } from './cursor.js';
import type { BranchOption, Loc, MachineEnv } from './cursor.js';
import { resolveEvent } from './resolve.js';
import { applyMove, afterMove, enterState, isFailureState, isFinalState, settle } from './progress.js';
import type { Move } from './progress.js';
import { fireInterrupt, matchInterrupt } from './patterns/interrupts.js';
import type { FireResult } from './patterns/interrupts.js';
import { BRANCH_DONE_PREFIX, bindSessionAt, branchDone, startFork } from './patterns/fork.js';
import { startInvoke } from './patterns/invoke.js';
import { plainMove, stateTable } from './table.js';
import { freshCounters, hashText, resetStateCounters, RUN_SNAPSHOT_VERSION } from './run.js';
import type { ActiveFork, ForceOutcome, Frame, JournalEntry, MachineError, Position, RunSnapshot, RunStatus } from './run.js';
import { FRAME_ENDINGS } from './patterns/endings.js';
import { chartWorkflow, isChartWorkflow, sendChartEvent, startChartRun, type ChartView } from './chart-run.js';
import { chartFileChanged, chartReloadRefusal, fireChartInterrupt, forceChart, type ChartFileReason, type ChartForced } from './chart-ops.js';

export type { MachineEnv, BranchOption, InvokeResolution } from './cursor.js';
export { describe } from './describe.js';
export type { StateView } from './describe.js';

export const INTERRUPT_PREFIX = 'INTERRUPT:';

export interface MachineResult<O> {
  run: RunSnapshot;
  journal: JournalEntry[];
  outcome: O;
}

export interface SendOutcome {
  event: string;
  transitioned: boolean;
  /** The state events went to before, and the state `describe` reports after. */
  from: string;
  to: string;
  status: RunStatus;
  error?: MachineError;
  /** The transition was parked until a person approves it. */
  pending_approval?: { event: string; target: string; message?: string };
  /** `approval_mode: "none"`: the transition happened; a person is to be notified. */
  approval_notice?: { event: string; target: string; message?: string };
  /** An `INTERRUPT:<name>` event fired that interrupt (or a parked approval was withdrawn by it). */
  interrupted?: { name: string; from: string; to: string; withdrew_approval?: string };
  interrupt_ended?: string;
  fork_started?: { branches: string[]; join: string; mode: string; current?: string };
  child_started?: { workflow: string; state: string };
  branch?: string;
}

// ---------------------------------------------------------------------------
// start

export interface StartOptions {
  runId: string;
  file?: string;
  hash: string;
  /** Merged (shallow) over the workflow's own `context`. */
  context?: JsonObject;
  /** A statechart run: its chart's declared variables as the starting process had them (machine/chart-env.ts). */
  chartEnv?: Record<string, string | null>;
  /** A statechart run: the agents `agents.select` picks from (machine/agents.ts). */
  agents?: ChartAgent[];
}

export interface StartOutcome {
  started: boolean;
  state?: string;
  status?: RunStatus;
  error?: MachineError;
}

export function startRun(
  wf: Workflow,
  definitionText: string,
  opts: StartOptions,
  env: MachineEnv,
): { run?: RunSnapshot; journal: JournalEntry[]; outcome: StartOutcome } {
  if (isChartWorkflow(wf)) {
    const started = startChartRun(wf, definitionText, opts, fixedEnv(env, env.now()));
    return { ...started, outcome: { started: true, state: started.run.state, status: started.run.status } };
  }
  const initial = settle(wf, wf.initial.name);
  if (!wf.states.has(initial)) {
    return { journal: [], outcome: { started: false, error: { code: 'unknown_state', message: `initial state "${initial}" is not defined` } } };
  }
  const at = env.now();
  const context = mergeShallow(wf.context, opts.context);
  const run: RunSnapshot = {
    version: RUN_SNAPSHOT_VERSION,
    runId: opts.runId,
    workflow: { id: wf.id, ...(opts.file === undefined ? {} : { file: opts.file }), hash: opts.hash, definitionText },
    status: 'running',
    state: initial,
    context,
    counters: freshCounters(),
    visited: [initial],
    taken: [],
    createdAt: at,
    updatedAt: at,
  };
  const op = new Op(run, fixedEnv(env, at), FRAME_ENDINGS);
  op.log({ frame: 0 }, {
    kind: 'start',
    runId: opts.runId,
    workflowId: wf.id,
    hash: opts.hash,
    ...(opts.file === undefined ? {} : { file: opts.file }),
    state: initial,
    context: cloneJson(context),
  });
  // A workflow whose initial state is final is complete at once.
  afterMove(op, { frame: 0 }, wf);
  return { run: op.finish(), journal: op.journal, outcome: { started: true, state: run.state, status: run.status } };
}

/** The env with `now()` pinned, so one operation carries one time stamp. */
function fixedEnv(env: MachineEnv, at: string): MachineEnv {
  return new PinnedEnv(env, at);
}

class PinnedEnv implements MachineEnv {
  constructor(
    private readonly base: MachineEnv,
    private readonly at: string,
  ) {}

  now(): string {
    return this.at;
  }

  load(text: string): Workflow | undefined {
    return this.base.load(text);
  }

  resolveInvoke(name: string, fromFile?: string): ReturnType<MachineEnv['resolveInvoke']> {
    return this.base.resolveInvoke(name, fromFile);
  }

  resolveChart(src: string, from: { readonly workflow: Workflow; readonly file?: string }): ReturnType<NonNullable<MachineEnv['resolveChart']>> {
    return this.base.resolveChart ? this.base.resolveChart(src, from) : { problem: `\`${src}\` cannot be looked up: this host finds no child charts.` };
  }
}

// ---------------------------------------------------------------------------
// helpers shared by the operations

/** The operation's own copy of the snapshot (see `copyRun`: what it changes is copied, strings and the trail lists are shared). */
function begin(run: RunSnapshot, env: MachineEnv): Op {
  return new Op(copyRun(run), env, FRAME_ENDINGS);
}

/** Refuses work on a run that is not running (final, failed, paused or stopped). */
function runningGate(op: Op): MachineError | undefined {
  const run = op.run;
  if (run.status === 'running') return undefined;
  const wf = op.workflow(0);
  if (wf && isFinalState(wf, run.state)) {
    return { code: 'final_state', message: `the run is ${run.status}: state "${run.state}" is final` };
  }
  return { code: 'not_running', message: `the run is ${run.status}` };
}

function loadAt(op: Op, loc: Loc): Workflow | MachineError {
  return op.workflow(loc.frame) ?? { code: 'invalid_definition', message: 'the run\'s workflow definition no longer loads' };
}

/** The state `describe` reports: the active position's, or the top-level frame's. */
function reportedState(op: Op, opt: BranchOption): string {
  const loc = activeLoc(op, opt);
  if (isError(loc)) return op.frame(op.frames().length - 1).state;
  const b = loc.branch === undefined ? undefined : op.branch(loc);
  return b ? b.state : op.frame(loc.frame).state;
}

/** No branch: nothing to add to an outcome. */
const NO_TAG: { branch?: string } = Object.freeze({});

const MOVING: ReadonlySet<JournalEntry['kind']> = new Set([
  'transition', 'interrupt', 'join', 'child_done', 'fork_start', 'invoke_start', 'branch_done',
]);

function finishSend(op: Op, event: string, from: string, opt: BranchOption, extra?: Partial<SendOutcome>): MachineResult<SendOutcome> {
  const run = op.finish();
  const journal = op.journal;
  let transitioned = false;
  let ended: string | undefined;
  for (let i = 0; i < journal.length; i++) {
    const e = journal[i]!;
    if (!transitioned && MOVING.has(e.kind)) transitioned = true;
    // The first transition entry that ended an interrupt names it.
    if (ended === undefined && e.kind === 'transition' && e.endedInterrupt) ended = e.endedInterrupt;
  }
  const outcome: SendOutcome = { event, transitioned, from, to: reportedState(op, opt), status: run.status };
  if (ended !== undefined) outcome.interrupt_ended = ended;
  return { run, journal, outcome: extra === undefined ? outcome : { ...outcome, ...extra } };
}

/** A refused event: the original snapshot, a `rejected` journal entry, the error. */
function refuse(run: RunSnapshot, env: MachineEnv, event: string, from: string, error: MachineError, scope?: string): MachineResult<SendOutcome> {
  const entry: JournalEntry = { kind: 'rejected', at: env.now(), event, state: from, code: error.code, message: error.message, ...(scope ? { scope } : {}) };
  return { run, journal: [entry], outcome: { event, transitioned: false, from, to: from, status: run.status, error } };
}

// ---------------------------------------------------------------------------
// send

/** A completion tool's event (pipeline/completion.ts): guards also read the payload, as `payload.<field>`. */
export interface SendOptions extends BranchOption {
  payload?: JsonObject;
}

export function sendEvent(
  run: RunSnapshot,
  event: string,
  data: JsonValue | undefined,
  env: MachineEnv,
  opt: SendOptions = {},
): MachineResult<SendOutcome | (SendOutcome & ChartView)> {
  const cw = chartWorkflow(run, env);
  if (cw && event.startsWith(INTERRUPT_PREFIX)) return sendChartInterrupt(run, cw, event, fixedEnv(env, env.now()));
  if (cw) {
    const r = sendChartEvent(run, cw, event, data, fixedEnv(env, env.now()));
    return { ...r, outcome: { ...r.outcome, event } };
  }
  const op = begin(run, fixedEnv(env, env.now()));
  const env1 = op.env;
  const gate = runningGate(op);
  if (gate) return refuse(run, env1, event, run.state, gate);
  // BRANCH_DONE addresses the fork itself, so it needs no branch option even in parallel mode.
  if (event.startsWith(BRANCH_DONE_PREFIX)) return sendBranchDone(op, run, event, data, opt);
  const loc = activeLoc(op, opt);
  if (isError(loc)) return refuse(run, env1, event, run.state, loc);
  const wf = loadAt(op, loc);
  const pos = op.position(loc);
  const from = pos.state;
  const scoped = (e: MachineError): MachineResult<SendOutcome> => refuse(run, env1, event, from, e, scopeOf(loc));
  if (isError(wf)) return scoped(wf);
  const branchTag = loc.branch === undefined ? NO_TAG : { branch: loc.branch };

  if (event.startsWith(INTERRUPT_PREFIX)) {
    const name = event.slice(INTERRUPT_PREFIX.length);
    const def = wf.interrupts.find((i) => i.name === name);
    if (!def) {
      const names = wf.interrupts.map((i) => i.name);
      return scoped({ code: 'unknown_event', message: `no interrupt "${name}" is defined; interrupts: ${names.join(', ') || 'none'}` });
    }
    const fired = fireInterrupt(op, loc, wf, def);
    if (!fired.fired) return scoped(notFired(fired));
    return finishSend(op, event, from, opt, { ...branchTag, interrupted: interruptOutcome(fired) });
  }

  if (pos.pendingApproval) {
    const p = pos.pendingApproval;
    return scoped({ code: 'pending_approval', message: `"${p.event}" (${p.from} -> ${p.target}) is waiting for a person's approval; no other transition until it is approved or rejected` });
  }
  const entry = stateTable(wf).get(from);
  if (!entry) return scoped({ code: 'unknown_state', message: `state "${from}" is not defined in the workflow` });
  if (entry.final) return scoped({ code: 'final_state', message: `state "${from}" is final: no transitions leave it` });

  // A plain transition (no guards, no approval, a named target that exists): resolved ahead, in the table.
  const plain = plainMove(entry, event);
  if (plain) {
    const move: Move = { event: plain.event, from, to: plain.to };
    if (data !== undefined) move.data = data;
    applyMove(op, loc, wf, move, false);
    return loc.branch === undefined ? finishSend(op, event, from, opt) : finishSend(op, event, from, opt, { ...branchTag });
  }

  // The one exception to "guards read the context before the transition": a completion's payload (docs/format.md, stage pipelines).
  const guardPos = opt.payload === undefined ? pos : { ...pos, context: { ...pos.context, payload: opt.payload } };
  const res = resolveEvent(wf, entry.node, guardPos, event, data);
  switch (res.kind) {
    case 'error':
      return scoped(res.error);
    case 'move': {
      if (!wf.states.has(res.to)) return scoped({ code: 'unknown_state', message: `target state "${res.to}" is not defined` });
      res.to = settle(wf, res.to);
      const approval = res.approval ? { event, target: res.to, ...(res.approval.message === undefined ? {} : { message: res.approval.message }) } : undefined;
      if (approval && wf.meta.approvalMode !== 'none') {
        pos.pendingApproval = {
          event,
          from,
          target: res.to,
          ...(approval.message === undefined ? {} : { message: approval.message }),
          ...(res.data === undefined ? {} : { data: res.data }),
          ...(res.via === 'return' ? { returns: true as const } : {}),
          requestedAt: op.at,
        };
        op.log(loc, { kind: 'approval_requested', event, from, target: res.to, ...(approval.message === undefined ? {} : { message: approval.message }), ...(res.data === undefined ? {} : { data: res.data }) });
        return finishSend(op, event, from, opt, { ...branchTag, pending_approval: approval });
      }
      const via = approval ? 'advisory_approval' : res.via;
      const move: Move = { event: res.event, from: res.from, to: res.to };
      if (res.data !== undefined) move.data = res.data;
      if (via) move.via = via;
      applyMove(op, loc, wf, move, res.via === 'return');
      if (loc.branch === undefined && !approval) return finishSend(op, event, from, opt);
      return finishSend(op, event, from, opt, { ...branchTag, ...(approval ? { approval_notice: approval } : {}) });
    }
    case 'fork':
    case 'invoke': {
      if (loc.branch !== undefined) {
        return scoped({ code: 'nested_not_supported', message: `"${event}" would start a ${res.kind} inside fork branch "${loc.branch}"; forks and invokes inside a branch are not supported` });
      }
      if (res.kind === 'fork') {
        const fork = startFork(op, loc.frame, event, res.transition, res.data);
        return finishSend(op, event, from, opt, {
          fork_started: { branches: fork.branches.map((b) => b.name), join: fork.join, mode: fork.mode, ...(fork.current === undefined ? {} : { current: fork.current }) },
        });
      }
      const child = startInvoke(op, loc.frame, event, res.transition, res.data);
      if (isError(child)) return scoped(child);
      return finishSend(op, event, from, opt, { child_started: { workflow: child.workflow.id, state: child.state } });
    }
  }
}

/** `INTERRUPT:<name>` sent to a statechart run: fires that root interrupt, or says why not. */
function sendChartInterrupt(run: RunSnapshot, wf: Workflow, event: string, env: MachineEnv): MachineResult<SendOutcome> {
  const name = event.slice(INTERRUPT_PREFIX.length);
  if (!wf.interrupts.some((i) => i.name === name)) {
    const names = wf.interrupts.map((i) => i.name);
    return refuse(run, env, event, run.state, { code: 'unknown_event', message: `no interrupt "${name}" is defined; interrupts: ${names.join(', ') || 'none'}` });
  }
  const r = fireChartInterrupt(run, wf, name, env);
  if (!r.fired) return refuse(run, env, event, run.state, chartNotFired(name, r.reason));
  return { run: r.run, journal: r.journal, outcome: { event, transitioned: true, from: run.state, to: r.run.state, status: r.run.status, interrupted: r.fired } };
}

function chartNotFired(name: string, reason: ChartFileReason | undefined): MachineError {
  if (reason === 'not_running') return { code: 'not_running', message: `interrupt "${name}" cannot fire: the run is not running` };
  if (reason === 'invalid_definition') return { code: 'unknown_state', message: `interrupt "${name}" has a target that is not a state of the chart` };
  return notFired({ fired: false, name, reason: reason === 'final_state' || reason === 'interrupt_active' ? reason : 'already_in_handler' });
}

function sendBranchDone(op: Op, run: RunSnapshot, event: string, data: JsonValue | undefined, opt: BranchOption): MachineResult<SendOutcome> {
  const frame = op.frames().length - 1;
  const name = event.slice(BRANCH_DONE_PREFIX.length);
  const from = reportedState(op, { branch: name });
  if (!op.frame(frame).fork) {
    return refuse(run, op.env, event, from, { code: 'unknown_branch', message: `no fork is active, so there is no branch "${name}" to finish` }, scopeOf({ frame }));
  }
  const err = branchDone(op, frame, name, data);
  if (err) return refuse(run, op.env, event, from, err, scopeOf({ frame, branch: name }));
  return finishSend(op, event, from, opt, { branch: name });
}

function notFired(r: Extract<FireResult, { fired: false }>): MachineError {
  if (r.reason === 'final_state') return { code: 'final_state', message: `interrupt "${r.name}" cannot fire from a final state` };
  if (r.reason === 'interrupt_active') return { code: 'interrupt_active', message: `interrupt "${r.name}" cannot fire while another interrupt is active (no nesting)` };
  return { code: 'interrupt_active', message: `interrupt "${r.name}" is already being handled: the run stands in its handler state` };
}

function interruptOutcome(r: Extract<FireResult, { fired: true }>): NonNullable<SendOutcome['interrupted']> {
  return { name: r.name, from: r.from, to: r.to, ...(r.withdrew === undefined ? {} : { withdrew_approval: r.withdrew }) };
}

// ---------------------------------------------------------------------------
// approvals

export interface ApprovalOutcome extends SendOutcome {
  approved?: boolean;
  rejected?: boolean;
}

/** Where a parked approval is: the active position, or in a parallel fork the first branch with one. */
function pendingLoc(op: Op, opt: BranchOption): Loc | MachineError {
  const loc = activeLoc(op, opt);
  if (!isError(loc)) return op.position(loc).pendingApproval ? loc : none();
  const frame = op.frames().length - 1;
  const fork = op.frame(frame).fork;
  const b = fork?.branches.find((x) => x.status === 'running' && x.pendingApproval);
  return b ? { frame, branch: b.name } : none();
  function none(): MachineError {
    return { code: 'no_pending_approval', message: 'no transition is waiting for approval' };
  }
}

function decide(run: RunSnapshot, env: MachineEnv, opt: BranchOption, grant: boolean): MachineResult<ApprovalOutcome> {
  const op = begin(run, fixedEnv(env, env.now()));
  const label = grant ? 'approve' : 'reject';
  const gate = runningGate(op);
  const loc = gate ?? pendingLoc(op, opt);
  if (isError(loc)) return { run, journal: [], outcome: { event: label, transitioned: false, from: run.state, to: run.state, status: run.status, error: loc } };
  const pos: Position = op.position(loc);
  const p = pos.pendingApproval;
  const wf = op.workflow(loc.frame);
  if (!p || !wf) {
    const error: MachineError = { code: 'invalid_definition', message: 'the run\'s workflow definition no longer loads' };
    return { run, journal: [], outcome: { event: label, transitioned: false, from: run.state, to: run.state, status: run.status, error } };
  }
  delete pos.pendingApproval;
  const branchTag = loc.branch === undefined ? {} : { branch: loc.branch };
  if (!grant) {
    op.log(loc, { kind: 'approval_rejected', event: p.event, from: p.from, target: p.target });
    const r = finishSend(op, p.event, p.from, opt, branchTag);
    return { ...r, outcome: { ...r.outcome, transitioned: false, rejected: true } };
  }
  op.log(loc, { kind: 'approved', event: p.event, from: p.from, target: p.target });
  applyMove(op, loc, wf, { event: p.event, from: p.from, to: p.target, ...(p.data === undefined ? {} : { data: p.data }), via: 'approved' }, p.returns === true);
  const r = finishSend(op, p.event, p.from, opt, branchTag);
  return { ...r, outcome: { ...r.outcome, approved: true } };
}

/** A person approves the parked transition: data merges and the run moves. */
export function approve(run: RunSnapshot, env: MachineEnv, opt: BranchOption = {}): MachineResult<ApprovalOutcome> {
  return decide(run, env, opt, true);
}

/** A person rejects the parked transition: the run stays where it is. */
export function reject(run: RunSnapshot, env: MachineEnv, opt: BranchOption = {}): MachineResult<ApprovalOutcome> {
  return decide(run, env, opt, false);
}

// ---------------------------------------------------------------------------
// file changes

export interface FileChangedOutcome {
  interrupted: boolean;
  file: string;
  state: string;
  status: RunStatus;
  interrupt?: { name: string; from: string; to: string; withdrew_approval?: string };
  /** Why a matching interrupt did not fire (or `not_running` / `no_match`). */
  reason?: 'no_match' | 'not_running' | 'final_state' | 'interrupt_active' | 'already_in_handler' | 'unknown_branch' | 'invalid_definition';
}

/** A workspace-relative file was written by an agent's edit or saved in the editor. */
export function fileChanged(run: RunSnapshot, relPath: string, env: MachineEnv, opt: BranchOption = {}): MachineResult<FileChangedOutcome> {
  const op = begin(run, fixedEnv(env, env.now()));
  const quiet = (reason: FileChangedOutcome['reason']): MachineResult<FileChangedOutcome> => ({
    run,
    journal: [],
    outcome: { interrupted: false, file: relPath, state: reportedState(op, opt), status: run.status, reason },
  });
  if (run.status !== 'running') return quiet('not_running');
  const cw = chartWorkflow(run, env);
  if (cw) {
    const r = chartFileChanged(run, cw, relPath, op.env);
    if (!r.fired) return quiet(r.reason);
    return { run: r.run, journal: r.journal, outcome: { interrupted: true, file: relPath, state: r.run.state, status: r.run.status, interrupt: r.fired } };
  }
  const loc = activeLoc(op, opt);
  if (isError(loc)) return quiet('unknown_branch');
  const wf = op.workflow(loc.frame);
  if (!wf) return quiet('invalid_definition');
  const def = matchInterrupt(wf, relPath);
  if (!def) return quiet('no_match');
  const fired = fireInterrupt(op, loc, wf, def, relPath);
  if (!fired.fired) return quiet(fired.reason);
  const next = op.finish();
  return {
    run: next,
    journal: op.journal,
    outcome: { interrupted: true, file: relPath, state: reportedState(op, opt), status: next.status, interrupt: interruptOutcome(fired) },
  };
}

// ---------------------------------------------------------------------------
// pause / resume / stop

export interface StatusOutcome {
  status: RunStatus;
  state: string;
  error?: MachineError;
}

function setRunStatus(
  run: RunSnapshot,
  env: MachineEnv,
  allowed: readonly RunStatus[],
  status: RunStatus,
  kind: 'pause' | 'resume' | 'stop',
  mutate?: (op: Op) => void,
): MachineResult<StatusOutcome> {
  if (!allowed.includes(run.status)) {
    const error: MachineError = { code: 'not_running', message: `cannot ${kind} a run that is ${run.status}` };
    return { run, journal: [], outcome: { status: run.status, state: run.state, error } };
  }
  const op = begin(run, fixedEnv(env, env.now()));
  op.run.status = status;
  mutate?.(op);
  op.log({ frame: 0 }, { kind, status });
  const next = op.finish();
  return { run: next, journal: op.journal, outcome: { status, state: next.state } };
}

/** Saves state and context and turns enforcement off. */
export function pause(run: RunSnapshot, env: MachineEnv): MachineResult<StatusOutcome> {
  return setRunStatus(run, env, ['running'], 'paused', 'pause');
}

/** Resumes a paused run: iteration counts reset everywhere; transitions and context are kept. */
export function resume(run: RunSnapshot, env: MachineEnv): MachineResult<StatusOutcome> {
  return setRunStatus(run, env, ['paused'], 'running', 'resume', (op) => {
    for (const c of Object.values(op.run.nodeCounters ?? {})) c.iterations = 0;
    for (const f of op.frames()) {
      f.counters.iterations = 0;
      for (const b of f.fork?.branches ?? []) if (b.status !== 'pending') b.counters.iterations = 0;
    }
  });
}

/** A person ends the run. */
export function stop(run: RunSnapshot, env: MachineEnv): MachineResult<StatusOutcome> {
  return setRunStatus(run, env, ['running', 'paused'], 'stopped', 'stop');
}

// ---------------------------------------------------------------------------
// force_state

export type { ForceOutcome } from './run.js';

/**
 * Debug only (`meta.debug`): jumps the top-level run to any state, merges the
 * patch into its context, bypasses guards, resets the per-state counters and
 * clears a parked approval, an active interrupt, a fork and a child run. The
 * status follows the target (final: completed or failed; otherwise running,
 * or still paused if it was paused). A stopped run stays stopped.
 */
export function forceState(run: RunSnapshot, state: string, contextPatch: JsonObject | undefined, env: MachineEnv): MachineResult<ForceOutcome | ChartForced> {
  const op = begin(run, fixedEnv(env, env.now()));
  const wf = op.workflow(0);
  const fail = (error: MachineError): MachineResult<ForceOutcome> => ({ run, journal: [], outcome: { forced: false, from: run.state, to: run.state, status: run.status, error } });
  if (!wf) return fail({ code: 'invalid_definition', message: 'the run\'s workflow definition no longer loads' });
  if (!wf.meta.debug) return fail({ code: 'debug_only', message: 'force_state is only available where the workflow sets meta.debug: true' });
  if (run.chart && isChartWorkflow(wf)) {
    return run.status === 'stopped' ? fail({ code: 'not_running', message: 'the run is stopped' }) : forceChart(run, wf, state, contextPatch, op.env);
  }
  if (!wf.states.has(state)) return fail({ code: 'unknown_state', message: `state "${state}" is not defined; states: ${[...wf.states.keys()].join(', ')}` });
  if (run.status === 'stopped') return fail({ code: 'not_running', message: 'the run is stopped' });
  const r = op.run;
  const cleared = (['pendingApproval', 'interrupt', 'fork', 'child'] as const).filter((k) => r[k] !== undefined);
  for (const k of cleared) delete r[k];
  const from = r.state;
  r.context = mergeShallow(r.context, contextPatch);
  enterState(op, { frame: 0 }, from, 'force', state);
  resetStateCounters(r.counters);
  const status: RunStatus = isFinalState(wf, state) ? (isFailureState(wf, state) ? 'failed' : 'completed') : r.status === 'paused' ? 'paused' : 'running';
  r.status = status;
  op.log({ frame: 0 }, { kind: 'force', from, to: state, ...(contextPatch === undefined ? {} : { patch: cloneJson(contextPatch) }), cleared: [...cleared], status });
  const next = op.finish();
  return { run: next, journal: op.journal, outcome: { forced: true, from, to: state, status, cleared: [...cleared] } };
}

// ---------------------------------------------------------------------------
// reload

export interface ReloadOutcome {
  reloaded: boolean;
  hash: string;
  error?: MachineError;
}

/** Every state the run refers to, so a reload can check they all still exist. */
function statesInUse(run: RunSnapshot): string[] {
  const out = [run.state];
  if (run.pendingApproval) out.push(run.pendingApproval.target);
  if (run.interrupt) out.push(run.interrupt.returnTo, run.interrupt.target);
  const fork = run.fork;
  if (fork) {
    out.push(fork.onComplete, ...(fork.onFail ? [fork.onFail] : []));
    for (const b of fork.branches) {
      out.push(b.initial, b.terminal);
      if (b.status !== 'pending') out.push(b.state);
    }
  }
  if (run.child) out.push(run.child.onComplete, ...(run.child.onFail ? [run.child.onFail] : []));
  return out;
}

/**
 * Why the run takes no reload: it has ended (completed, failed or stopped), so
 * no state of it will read the new definition again; the way on is a new run
 * from the changed file. A paused run takes one (it goes on when resumed).
 * Every shell reaches it through Runner.reload, so the CLI, the MCP server and
 * VS Code answer alike.
 */
export function reloadRefusal(run: Pick<RunSnapshot, 'status' | 'workflow'>): MachineError | undefined {
  if (run.status === 'running' || run.status === 'paused') return undefined;
  const file = run.workflow.workspaceFile ?? run.workflow.file ?? 'WORKFLOW_FILE';
  return {
    code: 'not_running',
    message: `the run has ended (${run.status}), so a reload would change nothing: start a new run from the changed file with \`stategate run start ${file}\` (in VS Code: "stategate: Start Workflow Run…")`,
  };
}

/**
 * Applies an edited definition to a live (running or paused) run. The caller
 * validates the text first; here it must load, and every state the run stands
 * in or refers to (the current state, a parked approval's target, an
 * interrupt's states, a fork's branches) must still exist.
 */
export function reloadDefinition(run: RunSnapshot, newText: string, env: MachineEnv, hash?: string): MachineResult<ReloadOutcome> {
  const fail = (error: MachineError): MachineResult<ReloadOutcome> => ({ run, journal: [], outcome: { reloaded: false, hash: run.workflow.hash, error } });
  const ended = reloadRefusal(run);
  if (ended) return fail(ended);
  const op = begin(run, fixedEnv(env, env.now()));
  const newHash = hash ?? hashText(newText);
  const wf = env.load(newText);
  if (!wf) return fail({ code: 'invalid_definition', message: 'the new definition does not load' });
  const refusal = run.chart ? chartReloadRefusal(run, wf) : isChartWorkflow(wf) ? { code: 'invalid_definition' as const, message: 'the new definition is a statechart and the run is not; stop the run and start the new one' } : undefined;
  if (refusal) return fail(refusal);
  const missing = [...new Set(statesInUse(run))].filter((s) => !wf.states.has(s));
  if (missing.length) return fail({ code: 'unknown_state', message: `the new definition lacks state(s) the run uses: ${missing.join(', ')}` });
  const previousHash = run.workflow.hash;
  op.run.workflow = { ...op.run.workflow, id: wf.id, hash: newHash, definitionText: newText };
  op.forgetWorkflow(0);
  op.log({ frame: 0 }, { kind: 'reload', previousHash, hash: newHash, state: run.state });
  return { run: op.finish(), journal: op.journal, outcome: { reloaded: true, hash: newHash } };
}

// ---------------------------------------------------------------------------
// for the policy: where the agent stands

export interface Located {
  /** The workflow whose rules apply (a child's own workflow inside a child run). */
  workflow: Workflow;
  node: StateNode;
  /** A reference into the given snapshot: the policy updates its counters on its own copy. */
  position: Position;
  scope?: string;
  branch?: string;
}

/** The position whose state's rules apply now (the innermost child, the current branch). */
export function locate(run: RunSnapshot, env: MachineEnv, opt: BranchOption = {}): Located | MachineError {
  const op = new Op(run, env, FRAME_ENDINGS);
  const loc = activeLoc(op, opt);
  if (isError(loc)) return loc;
  const wf = loadAt(op, loc);
  if (isError(wf)) return wf;
  const position = op.position(loc);
  const node = wf.states.get(position.state);
  if (!node) return { code: 'unknown_state', message: `state "${position.state}" is not defined in the workflow` };
  const scope = scopeOf(loc);
  return { workflow: wf, node, position, ...(scope ? { scope } : {}), ...(loc.branch === undefined ? {} : { branch: loc.branch }) };
}

// ---------------------------------------------------------------------------
// fork sessions

export interface BindOutcome {
  session: string;
  branch: string;
  /** The binding turned a sequential fork parallel (its pending branches started). */
  parallel: boolean;
  /** The fork's branches after the binding, with their sessions (as `run state` lists them). */
  branches: { name: string; status: string; sessions: string[] }[];
  error?: MachineError;
}

/** The fork of the innermost frame, if one is running (the one agents bind to and hook calls are decided in). */
export function activeFork(run: RunSnapshot): ActiveFork | undefined {
  let f: Frame = run;
  while (f.child) f = f.child;
  return f.fork;
}

/** Binds `session` to `branch` of the active fork (patterns/fork.ts bindSessionAt says what that does). */
export function bindSession(run: RunSnapshot, session: string, branch: string, env: MachineEnv): MachineResult<BindOutcome> {
  const listed = (r: RunSnapshot): BindOutcome['branches'] => (activeFork(r)?.branches ?? []).map((b) => ({ name: b.name, status: b.status, sessions: b.sessions ?? [] }));
  const refuse = (error: MachineError): MachineResult<BindOutcome> => ({ run, journal: [], outcome: { session, branch, parallel: false, branches: listed(run), error } });
  if (run.status !== 'running') return refuse({ code: 'not_running', message: `the run is ${run.status}` });
  const op = begin(run, fixedEnv(env, env.now()));
  const bound = bindSessionAt(op, op.innermost(), session, branch);
  if (isError(bound)) return refuse(bound);
  const next = op.finish();
  return { run: next, journal: op.journal, outcome: { session, branch, parallel: bound.parallel, branches: listed(next) } };
}
