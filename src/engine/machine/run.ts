/**
 * A run: the JSON-serialisable snapshot stored as `run.json`, and the journal
 * entries appended to `journal.jsonl`. Types only (plus tiny constructors);
 * the machine (`operations.ts`) computes new snapshots, the store persists them.
 *
 * Shape of a run: a *frame* is one workflow being executed (the top-level run,
 * or a child run started by `invoke`, which is itself a frame). Where an agent
 * stands inside a frame is a *position* (state, context, counters, a parked
 * approval, an active interrupt). A frame's own position is where it is; while
 * a fork is active, each started branch has a position of its own (branches of
 * a fork share the frame's workflow) and the frame waits in the forking state.
 */
import type { ChartAgent, ForkMode, JoinRule, JsonObject, JsonValue } from '../model/index.js';
import type { ChartEffect, ChartSnapshot } from '../statechart/index.js';
import type { PipelineState, StageEvent } from '../model/pipeline.js';
import type { Evidence } from './evidence.js';

export const RUN_SNAPSHOT_VERSION = 1;

export type RunStatus = 'running' | 'paused' | 'completed' | 'failed' | 'stopped';

/** Usage counters of one position. "This state" counters reset on every state change. */
export interface Counters {
  /** Tool calls counted in the current state (reset on state change and on resume). */
  iterations: number;
  /** Transitions taken in this frame or branch (never reset; the run's counts every level). */
  transitions: number;
  /** Distinct workspace-relative paths edited in the current state. */
  filesEdited: string[];
  /** Lines edited in the current state. */
  editLines: number;
  /** Result bytes read in the current state (for context_budget_bytes). */
  bytesRead: number;
  /** Tool calls counted over the whole life of this position (never reset). */
  stepsTotal: number;
  /** Facts observed in the current state from the client's post-call reports (evidence.ts); absent: none yet. */
  evidence?: Evidence;
}

export interface WorkflowRef {
  id: string;
  file?: string;
  /**
   * `file` relative to the workspace the run was started in (`/`-separated), when it is inside it:
   * a run in a shared store is judged on every machine against that machine's clone of the file.
   */
  workspaceFile?: string;
  /** sha256 (hex) of `definitionText`. */
  hash: string;
  /** The exact text the run (or child) started with; the IR is re-derived from it. */
  definitionText: string;
}

/** A transition parked until a person approves it. Guards were checked when it was asked. */
export interface PendingApproval {
  event: string;
  from: string;
  /** The resolved target (a `$return` is already resolved to the interrupted state). */
  target: string;
  message?: string;
  /** Event data, merged only if approved. */
  data?: JsonValue;
  /** The transition was a `$return`: approving it ends the interrupt. */
  returns?: true;
  requestedAt: string;
}

export interface ActiveInterrupt {
  name: string;
  /** The interrupted state, where `$return` goes back to. */
  returnTo: string;
  /** The handler state the interrupt moved to. */
  target: string;
  /** The file whose change fired it (absent for an `INTERRUPT:<name>` event). */
  file?: string;
  firedAt: string;
}

export interface Position {
  state: string;
  context: JsonObject;
  counters: Counters;
  pendingApproval?: PendingApproval;
  interrupt?: ActiveInterrupt;
}

interface BranchBase {
  name: string;
  initial: string;
  terminal: string;
  /**
   * The agent sessions bound to this branch (`stategate run bind`,
   * `statewright_load_workflow(name, branch)`): their hook calls are decided
   * by this branch's rules. Absent: none.
   */
  sessions?: string[];
}

/** A branch that has not started has no position; a started one always has one. */
export type BranchRun =
  | (BranchBase & { status: 'pending' })
  | (BranchBase & Position & { status: 'running' | 'done' | 'failed' });

export interface ActiveFork {
  /** The event that started the fork, and the state the frame waits in. */
  event: string;
  from: string;
  join: JoinRule;
  mode: ForkMode;
  onComplete: string;
  onFail?: string;
  /** In name order. */
  branches: BranchRun[];
  /** Sequential mode: the branch events go to. */
  current?: string;
  startedAt: string;
}

export interface Frame extends Position {
  workflow: WorkflowRef;
  status: RunStatus;
  /** States entered, in order of first visit (for the diagram). */
  visited: string[];
  /** Distinct transitions taken (for the diagram). */
  taken: TakenEdge[];
  fork?: ActiveFork;
  child?: ChildRun;
  /** A statechart run: the interpreter's snapshot (`state` is then its first active atomic state, `context` its context). */
  chart?: ChartSnapshot;
  /**
   * A statechart run: the counters of the active nodes whose limits a call
   * counted against, by node id (docs/format.md: a limit counts per node that
   * declares it and resets when that node is exited). Absent: none yet.
   */
  nodeCounters?: Record<string, NodeCounters>;
}

/** What one statechart node's limits count; it is dropped when the node is exited. */
export interface NodeCounters {
  iterations: number;
  filesEdited: string[];
  editLines: number;
  bytesRead: number;
}

export interface TakenEdge {
  from: string;
  event: string;
  to: string;
}

/** A sub-workflow started by `invoke`: a frame of its own, nested in its parent. */
export interface ChildRun extends Frame {
  /** The parent's event that invoked it, and the parent state that waits. */
  event: string;
  from: string;
  /** The name written in `invoke` (a workflow id or a registered name). */
  invoked: string;
  onComplete: string;
  onFail?: string;
  startedAt: string;
}

export interface RunSnapshot extends Frame {
  version: typeof RUN_SNAPSHOT_VERSION;
  runId: string;
  createdAt: string;
  updatedAt: string;
  /** Model usage reported to the run (the participant reports what its model calls cost). Absent: none yet. */
  usage?: RunUsage;
  /** The bound warnings given so far (75% and 90% of meta.max_cost / max_time), each once. */
  boundWarnings?: BoundWarning[];
  /** A stage pipeline's own state (stage executions, upstream results, grants); absent for other runs. */
  pipeline?: PipelineState;
  /** A statechart run: the variables its chart's `env:` names, as the starting process had them (null: unset, no default). */
  chartEnv?: Record<string, string | null>;
  /** A statechart run: the agents `agents.select` picks from, captured at the start. */
  agents?: ChartAgent[];
  /**
   * A statechart run's handler calls not yet run (`invoke` actions and `send`s
   * to a declared handler, docs/statechart-handlers.md), in the order the chart
   * made them. Absent: none. `handler:`/`flow:` services are its running
   * invocations instead.
   */
  handlerCalls?: HandlerCall[];
  /** How many handler calls the run made so far (numbers their ids). */
  handlerSeq?: number;
  /**
   * Handlers some process is running now, by call or invocation id, with when
   * it began: another process (VS Code and a terminal at once) leaves them be.
   * A claim older than the handler timeout is stale (its process died).
   */
  handlerClaims?: Record<string, string>;
}

/** A handler call an action made, waiting for the host to run it. */
export interface HandlerCall {
  /** `call-<n>`, unique in the run. */
  id: string;
  handler: string;
  /** The state (or transition source) whose action made the call. */
  state: string;
  params?: JsonObject;
  at: string;
}

export interface RunUsage {
  /** Dollars. */
  cost: number;
  inputTokens?: number;
  outputTokens?: number;
}

export interface BoundWarning {
  /** `cost:75`, `time:90`, ... */
  key: string;
  message: string;
  at: string;
}

/** A lesson an agent recorded (statewright_record_learning), in the run record's shape. */
export interface LearningInput {
  type: 'pattern' | 'antipattern' | 'insight';
  lesson: string;
  pattern: string;
  context: string;
}

/**
 * Where a journal entry happened: absent for the top-level frame; otherwise a
 * path of steps such as `child`, `child/branch:lint`. Replay only applies
 * entries of the top-level frame to the state and context it rebuilds.
 */
export type Scope = string;

interface EntryBase {
  at: string;
  scope?: Scope;
  /** The frame status after the entry, when the entry changed it. */
  status?: RunStatus;
}

/** A journal line as storage reads it back: its sequence number and the entry's fields, not yet narrowed (store/run-store.ts). */
export interface StoredEntry {
  readonly seq: number;
  readonly [key: string]: unknown;
}

export type JournalEntry =
  | (EntryBase & {
      kind: 'start';
      runId: string;
      workflowId: string;
      hash: string;
      file?: string;
      state: string;
      context: JsonObject;
      /** A statechart run's captured `env` (only the names its chart declares). */
      env?: Record<string, string | null>;
      /** A statechart run's agents. */
      agents?: ChartAgent[];
    })
  | (EntryBase & {
      kind: 'transition';
      event: string;
      from: string;
      to: string;
      /** Event data merged into the context (shallow) by this transition. */
      data?: JsonValue;
      /** How the target was reached: normal, a `safe_next` fallback, `$return`, or an approval granted. */
      via?: 'safe_next' | 'return' | 'approved' | 'advisory_approval';
      /** The interrupt this transition ended. */
      endedInterrupt?: string;
    })
  | (EntryBase & { kind: 'rejected'; event: string; state: string; code: ErrorCode; message: string })
  | (EntryBase & { kind: 'approval_requested'; event: string; from: string; target: string; message?: string; data?: JsonValue })
  | (EntryBase & { kind: 'approved'; event: string; from: string; target: string })
  | (EntryBase & { kind: 'approval_rejected'; event: string; from: string; target: string })
  | (EntryBase & { kind: 'approval_withdrawn'; event: string; from: string; target: string; reason: string })
  | (EntryBase & { kind: 'interrupt'; name: string; from: string; to: string; file?: string })
  | (EntryBase & { kind: 'interrupt_return'; name: string; from: string; to: string })
  | (EntryBase & { kind: 'pause' })
  | (EntryBase & { kind: 'resume' })
  | (EntryBase & { kind: 'stop' })
  | (EntryBase & { kind: 'force'; from: string; to: string; patch?: JsonObject; cleared: string[] })
  | (EntryBase & { kind: 'fork_start'; event: string; from: string; branches: string[]; join: JoinRule; mode: ForkMode; data?: JsonValue })
  | (EntryBase & { kind: 'branch_start'; branch: string; state: string })
  /** A session bound to a branch; `parallel`: the binding turned a sequential fork parallel (its pending branches started). */
  | (EntryBase & { kind: 'session_bound'; session: string; branch: string; parallel?: true })
  | (EntryBase & { kind: 'branch_done'; branch: string; state: string; outcome: 'done' | 'failed' })
  | (EntryBase & {
      kind: 'join';
      outcome: 'complete' | 'fail';
      from: string;
      /** Absent when the frame failed for want of an on_fail and a `failed` state. */
      to?: string;
      /** What the branches added to the context, merged into the frame's context. */
      patch: JsonObject;
    })
  | (EntryBase & { kind: 'invoke_start'; event: string; from: string; invoked: string; workflowId: string; file?: string; hash: string; state: string; input: JsonObject; data?: JsonValue })
  | (EntryBase & {
      kind: 'child_done';
      outcome: 'complete' | 'fail';
      from: string;
      childState: string;
      to?: string;
      /** What the child added to the context, merged into the parent's context. */
      patch: JsonObject;
    })
  | (EntryBase & { kind: 'reload'; previousHash: string; hash: string; state: string })
  | (EntryBase & { kind: 'tool_denied'; tool: string; reason: string; state: string; input?: JsonValue; /** Denied because the run reached meta.max_cost / max_time. */ bound?: true; /** The agent client whose hook asked (`codex`, `vscode`, ...). */ client?: string })
  | (EntryBase & {
      kind: 'chart';
      op: ChartOp;
      /** The event sent, or the invocation completed. */
      event?: string;
      transitioned: boolean;
      effects: ChartEffect[];
      /** The first active atomic state and the context after the operation (what replay rebuilds). */
      state: string;
      context: JsonObject;
      /** force: the context patch given, and what it cleared (a parked approval, an interrupt). */
      patch?: JsonObject;
      cleared?: string[];
      /** interrupt: the interrupt that fired and the file whose write fired it. */
      interrupt?: string;
      file?: string;
    })
  /** A handler began to run (docs/statechart-handlers.md): what, for which call or invocation; never its output. */
  | (EntryBase & { kind: 'handler_start'; id: string; handler: string; handler_kind: 'command' | 'flow' | 'mcp'; state: string; command?: string[]; flow?: string; mcp?: { server: string; tool: string } })
  /** A handler ended or was refused: its exit code and how many bytes it wrote (its output is not kept). */
  | (EntryBase & { kind: 'handler_end'; id: string; handler: string; ok: boolean; exit_code: number | null; bytes: number; reason?: string })
  | (EntryBase & { kind: 'learning'; state: string; iteration: number } & LearningInput)
  | (EntryBase & { kind: 'usage'; cost: number; total: number; inputTokens?: number; outputTokens?: number; model?: string })
  | (EntryBase & { kind: 'bound_warning'; key: string; message: string })
  /** A pipeline's security mode chosen (pipeline/security-mode.ts): `mode` is the one then in force, `requested` what was asked. */
  | (EntryBase & { kind: 'security_mode'; mode: 'ask' | 'yolo'; source: 'run' | 'workflow' | 'setting' | 'default'; requested: 'ask' | 'yolo'; requested_by: 'run' | 'setting' })
  | (EntryBase & StageEvent)
  | (EntryBase & {
      kind: 'tool_result';
      tool: string;
      state: string;
      bytes?: number;
      file?: string;
      /** Every file the call wrote, when more than one (`file` is the first). */
      files?: string[];
      editLines?: number;
      output?: string;
      /** The agent client whose hook reported it. */
      client?: string;
      /** The shell command the result is of (kept as evidence: evidence.ts), when it is short enough to keep. */
      command?: string;
      /** How the client said the call ended: what replay rebuilds the evidence from. */
      ok?: boolean;
      exit_code?: number;
    });

/** The statechart operation a `chart` journal entry records. */
export type ChartOp = 'start' | 'send' | 'timers' | 'done' | 'fail' | 'force' | 'interrupt';

export type ErrorCode =
  | 'unknown_event'
  | 'guard_failed'
  | 'pending_approval'
  | 'no_pending_approval'
  | 'final_state'
  | 'no_interrupt_to_return_to'
  | 'not_running'
  | 'debug_only'
  | 'unknown_state'
  | 'branch_not_terminal'
  | 'unknown_branch'
  | 'no_fork'
  | 'branch_ended'
  | 'invalid_session'
  | 'invoke_unresolved'
  | 'nested_not_supported'
  | 'interrupt_active'
  | 'invalid_definition'
  /** A live stage's completion event sent as a plain event (pipeline/completion-only.ts). */
  | 'completion_required';

/** What `force` did (operations.ts, chart-ops.ts). */
export interface ForceOutcome {
  forced: boolean;
  from: string;
  to: string;
  status: RunStatus;
  cleared?: string[];
  error?: MachineError;
}

export interface MachineError {
  code: ErrorCode;
  message: string;
}

export function freshCounters(): Counters {
  return { iterations: 0, transitions: 0, filesEdited: [], editLines: 0, bytesRead: 0, stepsTotal: 0 };
}

/** Resets the counters that are "per state" (iterations, files, edit lines, bytes, evidence). */
export function resetStateCounters(c: Counters): void {
  delete c.evidence;
  c.iterations = 0;
  c.filesEdited = [];
  c.editLines = 0;
  c.bytesRead = 0;
}

/**
 * sha256 of a definition text, the hash a run records. `node:crypto` loads on
 * the first call (a run start, a reload, an invoke), so a hook process that
 * only decides a call never loads it.
 */
export function hashText(text: string): string {
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
