/**
 * The runs of one workspace: the engine's front door for every shell (the CLI,
 * the agent hook, the MCP server, the extension host). It ties the machine
 * (pure functions) to the store (files under `.stategate/`, the lock) and the
 * workflow registry (invoke resolution), so each shell stays a thin adapter.
 *
 * Every change goes through `store.updateActive`, i.e. read-compute-commit
 * under the inter-process lock; nothing authoritative is kept in memory.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckOptions, CheckResult } from '../check/check-file.js';
import { createMachineEnv } from '../machine/env.js';
import * as machine from '../machine/operations.js';
import { chartClock, chartView, chartWorkflow, completeChartInvocation, handlerCallViews, isChartWorkflow, withDueTimers, type ChartOutcome, type ChartView, type InvocationView } from '../machine/chart-run.js';
import { captureChartEnv } from '../machine/chart-env.js';
import { mergeAgents } from '../machine/agents.js';
import { chartAgentView, type ChartAgentView } from '../policy/chart-agent-view.js';
import { isChartTransition } from '../machine/describe-chart.js';
import { isoTime } from '../machine/env.js';
import type { MachineEnv, MachineResult, StateView } from '../machine/operations.js';
import type { ChartAgent, JsonObject, JsonValue, StateNode, Workflow } from '../model/index.js';
import { isInvokeProblem } from '../model/index.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../model/json-value.js';
import { EVIDENCE_KEY } from '../machine/evidence.js';
import type { ChartRegistry, WorkflowRegistry } from '../formats/loaders.js';
import { compiledDefinitions } from '../store/compiled-definitions.js';
import { hashText, RUN_SNAPSHOT_VERSION, type ActiveFork, type MachineError, type RunSnapshot } from '../machine/run.js';
import { boundBranchOf } from '../machine/patterns/fork.js';
import { RunStore, type ActiveRun, type CommitStep } from '../store/run-store.js';
import { isStoreError } from '../store/store-error.js';
import { FileRunStorage } from '../store/file-storage.js';
import type { ChangeOptions, RunStorage } from '../store/run-storage.js';
import { decide, record, shellRulesFor, type Decision, type PolicyOptions, type RecordOutcome, type ShellRules, type ShellVerdict, type ToolCall, type ToolResult } from '../policy/decide.js';
import { readToolAliases } from '../policy/tool-aliases-file.js';
import { extractCall, isOwnTool, type ExtraAliases } from '../agent/tools.js';
import { userStateDir } from '../util/user-state-dir.js';
import { remainingMs } from '../store/deadline.js';
import { describeLiveRun, isLiveRun, REPLACED_RUN_LISTED } from './live-run.js';
import { callDigest, findSameCall, noteCall, readRecentCalls, type RecentCall } from '../store/recent-calls.js';
import { readRecord, writeRunRecord, type RecordContext } from '../record/record-file.js';
import type { PgCommittedChange } from '../store/postgres/pg-storage.js';
import type { StorageFactory } from '../store/store-choice.js';
import { learningFrom, recordLearning, reportUsage, type LearningOutcome, type UsageOutcome, type UsageReport } from '../record/operations.js';
import { locateForCall } from '../policy/effective-rules.js';
import { intersectRules } from '../policy/branch-intersection.js';
import { nodePathEnv } from '../util/paths/env.js';
import { PathGuard, type PathEnv } from '../util/paths/write-guard.js';
import { envRewrittenCommand, sandboxedCommand } from '../sandbox/unwrap.js';
import { sandboxAnswer, sandboxStatusHere, sandboxWillHold, type SandboxProvider, type SandboxStatus } from '../sandbox/answer.js';
import { activeStages, completionRequired, liveCompletions, type LiveCompletion, workflowStageTools, type StageTool, answerGrant, bareNamesAreOurs, completionToolCalled, askGrant, beginTurn, completeStage, consumeGrant, findGrant, promptSent, settleAskedGrant, stageFor, stageView, syncStages, type AnswerOutcome, type AskOutcome, type CompletionOutcome, type GrantAnswerer, type StageView, type TurnOutcome, setSecurityMode, type SecurityModeOutcome } from '../pipeline/index.js';

/**
 * check/check-file.ts (the schema validator, ajv's compiled code, and the semantic rules)
 * loads only when a workflow file is started or resumed: the hook, a process
 * per tool call that only decides calls, never loads it.
 */
function checkWorkflowFile(text: string, file: string, opts?: CheckOptions): CheckResult {
  return (require('../check/check-file.js') as typeof import('../check/check-file.js')).checkWorkflowFile(text, file, opts);
}

/**
 * The format loaders (formats/loaders.ts), required when a run starts, reloads, invokes or reads
 * agents.yaml: a hook deciding a call reads the run's compiled definition instead (compiled-definitions.ts).
 */
function formats(): typeof import('../formats/loaders.js') {
  return require('../formats/loaders.js') as typeof import('../formats/loaders.js');
}

/** Why a flow is not started as a workflow run, and how it runs. */
export function flowNotRunnable(file: string): string {
  return `${file} is a flow (FlowState): flows are not run as workflow runs; they run with \`stategate flow run ${file}\`. \`stategate validate ${file}\` checks it and \`stategate export ${file}\` draws it.`;
}

/** Analyses a shell command under a state's rules (shell/analyse.ts; async because the parser loads lazily). */
export type ShellAnalyser = (command: string, rules: ShellRules) => Promise<ShellVerdict>;
/** Rewrites a shell command to run with blocked variables unset and overrides applied. */
export type ShellRewriter = (command: string, blockedEnv: readonly string[], overrides: Readonly<Record<string, string>>) => string;

/** A decision with the enforcement-table row that produced it. */
export interface ToolAnswer extends Omit<Decision, 'state' | 'counted'> {
  readonly state?: string;
  readonly counted: boolean;
  /** `off`: nothing to enforce (no run, paused, stopped, final); `on`: the state's rules decided. */
  readonly enforcement: 'on' | 'off';
  /** An allowed shell call (with a sandbox provider): whether the kernel boundary is on for it, and why not. */
  readonly sandbox?: SandboxStatus;
  /** The tool input to run instead: the command wrapped in the sandbox (and its environment rewrite applied). */
  readonly updated_input?: unknown;
  /** A deny only because the call is outside the live stage's tools: a one-shot grant would let it through. */
  readonly outside_stage?: OutsideStage;
}

/** How `Runner.start` treats a live active run: refused unless `replace` (the person chose to replace it). */
export interface StartOptions {
  readonly replace?: boolean;
}

/** A call outside a stage's tools (pipeline one-shot grants): which stage, which tool, what the stage allows. */
export interface OutsideStage {
  readonly stage: string;
  readonly tool: string;
  readonly allowed_tools: string[] | null;
}

export interface ToolOptions {
  readonly branch?: string;
  /**
   * The agent session that makes the call (a hook's `session_id` /
   * `sessionId`, a Claude Code sub-agent's `agent_id`): bound to a branch of a
   * parallel fork, that branch's rules decide (unless `branch` names one).
   */
  readonly session?: string;
  readonly aliases?: ExtraAliases;
  /** The agent's working folder (a hook's `cwd`): relative paths in the call start there. */
  readonly cwd?: string;
  /** Which client asks (`codex`, `vscode`, ...): journaled with the call, and told apart from another client's hook for the same call. */
  readonly client?: string;
  /** The client's id of the call (`tool_use_id`): two hooks answering one call are counted once (store/recent-calls.ts). */
  readonly callId?: string;
}

export interface RunnerOptions {
  /** The `.stategate` directory. */
  readonly dir: string;
  /** Paths in interrupts are matched relative to this (default: the parent of `dir`). */
  readonly workspaceRoot?: string;
  readonly now?: () => string;
  /**
   * The environment a statechart run captures its declared `env:` variables from when it starts
   * (default: this process's). Only the names the chart declares are read (machine/chart-env.ts).
   */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** More agents for `agents.select`, after the chart's and `.stategate/agents.yaml`'s (VS Code: the workspace's custom agents). */
  readonly customAgents?: () => readonly ChartAgent[];
  /** How long a writer waits for the lock before answering "busy". */
  readonly lockTimeoutMs?: number;
  /** Shell analysis for shell tools; without it, commands in restricted states are denied (fail closed). */
  readonly analyseShell?: ShellAnalyser;
  readonly rewriteShell?: ShellRewriter;
  /** Puts allowed shell commands in a kernel sandbox (src/engine/sandbox/); without it, ToolAnswer has no `sandbox`. */
  readonly sandbox?: SandboxProvider;
  /** Where the record of the active run outside the workspace is kept (default: userStateDir()). */
  readonly stateDir?: string;
  /** Tests: called after each step of a commit, to stop a writer there (store/run-store.ts). */
  readonly afterCommitStep?: (step: CommitStep) => void;
  /** The machine for the path rules (default: this one's file system, home and state folder). */
  readonly paths?: PathEnv;
  /** Tests: the workspace's git HEAD for the run record's checkpoints (default: read from `.git`). */
  readonly gitHead?: (folder: string) => string | null;
  /**
   * Where runs are kept instead of the files under `dir` (a shared store, docs/team.md).
   * `dir` still holds what is per machine: recent-calls.json, tool-aliases.json, run records.
   */
  readonly storage?: StorageFactory;
  /**
   * false: every definition is loaded from its source text and none is kept compiled
   * (test/unit/compiled-definition.test.ts decides the same calls both ways). Default: kept
   * compiled in the state folder (compiled-definitions.ts).
   */
  readonly compiled?: boolean;
}

export class RunnerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * JSON handed to a run from outside (event data, context, payloads, tool
 * calls) is refused when it nests past MAX_JSON_DEPTH, before the run is
 * touched: model/json-value.ts says why. `what` names it in the message.
 */
function refuseTooDeep(what: string, value: unknown): void {
  if (nestsDeeperThan(value)) {
    throw new RunnerError('too_deep', `${what} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; stategate takes at most ${MAX_JSON_DEPTH} (nothing was changed)`);
  }
}

/**
 * Data sent with an event never sets evidence (machine/evidence.ts): guards read `evidence` only
 * from what stategate observed, so such data could not pass a guard anyway; it is refused rather
 * than dropped, so the agent learns at once that evidence cannot be claimed, and what to do instead.
 */
function refuseEvidence(what: string, data: JsonValue | undefined): void {
  if (data !== null && typeof data === 'object' && !Array.isArray(data) && Object.prototype.hasOwnProperty.call(data, EVIDENCE_KEY)) {
    throw new RunnerError(
      'evidence_in_data',
      `${what} has an "${EVIDENCE_KEY}" key: evidence is what stategate observed in this state (the commands the client reported running, their exit codes, the files written), never data sent with an event; run the command (for example \`npm test\`) in this state, then send the event without it (nothing was changed)`,
    );
  }
}

/** A shape check of a stored snapshot: enough that the machine can work on it. */
export function checkRunSnapshot(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return 'the run is not an object';
  const r = value as Partial<RunSnapshot>;
  if (r.version !== RUN_SNAPSHOT_VERSION) return `run snapshot version ${JSON.stringify(r.version)} is not supported`;
  if (typeof r.runId !== 'string') return 'the run has no id';
  if (typeof r.state !== 'string') return 'the run has no state';
  if (!r.workflow || typeof r.workflow.definitionText !== 'string') return 'the run has no workflow definition';
  if (!r.context || typeof r.context !== 'object' || Array.isArray(r.context)) return 'the run context is not an object';
  if (!r.counters || typeof r.counters.iterations !== 'number') return 'the run has no counters';
  if (!['running', 'paused', 'completed', 'failed', 'stopped'].includes(String(r.status))) return `unknown run status ${JSON.stringify(r.status)}`;
  return undefined;
}

export class Runner {
  readonly store: RunStorage<RunSnapshot>;
  /** The `.stategate` directory of this workspace (per machine, whichever store keeps the runs). */
  readonly dir: string;
  readonly env: MachineEnv;
  readonly workspaceRoot: string;
  private registryLoaded: WorkflowRegistry | undefined;
  private chartsLoaded: ChartRegistry | undefined;
  /** The workflow registry (invoke resolution), made on the first invoke. */
  private get registry(): WorkflowRegistry {
    return (this.registryLoaded ??= new (formats().WorkflowRegistry)());
  }
  /** The chart registry (child charts' `src:`), made on the first child chart. */
  private get charts(): ChartRegistry {
    return (this.chartsLoaded ??= new (formats().ChartRegistry)());
  }
  private readonly analyseShell: ShellAnalyser | undefined;
  private readonly environment: Readonly<Record<string, string | undefined>>;
  private readonly customAgents: (() => readonly ChartAgent[]) | undefined;
  private readonly rewriteShell: ShellRewriter | undefined;
  private readonly sandbox: SandboxProvider | undefined;
  private readonly stateDir: string;
  /** Path rules resolve symlinks, the workspace root's own included (util/paths/write-guard.ts). */
  readonly paths: PathEnv;

  constructor(options: RunnerOptions) {
    this.dir = options.dir;
    const recordContext = (): RecordContext => ({ storeDir: options.dir, workspaceRoot: this.workspaceRoot, load: (text) => this.env.load(text), ...(options.gitHead ? { gitHead: options.gitHead } : {}) });
    this.store = options.storage
      ? // A shared run's record is written on each machine, in its own workspace, by that machine's commits.
        options.storage(checkRunSnapshot, { afterCommit: (change) => this.writeSharedRecord(change, recordContext()) })
      : new FileRunStorage<RunSnapshot>(options.dir, {
      checkRun: checkRunSnapshot,
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
      // Only a running run enforces anything: pausing, stopping or finishing removes the record.
      outsideRecord: { stateDir: options.stateDir ?? userStateDir(), enforcing: (r) => r.status === 'running' },
      ...(options.afterCommitStep ? { afterStep: options.afterCommitStep } : {}),
      // The run record (agent-state.json and its files) follows every commit of a run.
      afterCommit: (change) => writeRunRecord(change, recordContext()),
    });
    this.environment = options.environment ?? process.env;
    this.customAgents = options.customAgents;
    this.analyseShell = options.analyseShell;
    this.rewriteShell = options.rewriteShell;
    this.sandbox = options.sandbox;
    this.stateDir = options.stateDir ?? userStateDir();
    this.workspaceRoot = path.resolve(options.workspaceRoot ?? path.dirname(path.resolve(options.dir)));
    // The path rules protect the same state folder the record is kept in.
    this.paths = options.paths ?? (options.stateDir ? { ...nodePathEnv(this.workspaceRoot), stateDir: options.stateDir } : nodePathEnv(this.workspaceRoot));
    this.env = createMachineEnv({
      // Every definition this runner loads (a run's, an invoked workflow's, a child chart's) is kept compiled.
      ...(options.compiled === false ? {} : { compiled: compiledDefinitions(this.stateDir) }),
      ...(options.now ? { now: options.now } : stategateNow() ?? {}),
      resolveInvoke: (name, fromFile) => {
        const found = fromFile ? this.registry.lookup(name, fromFile) : undefined;
        if (isInvokeProblem(found)) return found; // e.g. a broken manifest: the run is told which file and what is wrong
        if (!found?.file) return undefined;
        try {
          return { workflow: found.workflow, text: fs.readFileSync(found.file, 'utf8'), file: found.file };
        } catch {
          return undefined;
        }
      },
      resolveChart: (src, from) => this.charts.findChart(src, from),
    });
  }

  /**
   * The run record of a run in a shared store, in this machine's workspace
   * (`.stategate/runs/<id>/`, where the file store keeps it, so every reader finds it
   * the same way), from the snapshot and journal rows this process just committed;
   * when this machine's record is further behind (other machines moved the run
   * since), from the store's journal. Several processes of one machine may finish
   * commits out of order: a record already past this commit is left as it is (never
   * moved back); one left a step behind is caught up by the next commit.
   */
  private async writeSharedRecord(change: PgCommittedChange<RunSnapshot>, ctx: RecordContext): Promise<void> {
    const runDir = this.runDir(change.run.runId);
    const since = readRecord(runDir)?.stategate.journal_seq ?? 0;
    if (since > change.journalSeq) return;
    const firstNew = change.tail.length > 0 ? change.tail[0]!.seq : change.journalSeq + 1;
    const journal = firstNew <= since + 1 ? change.tail : await change.journal();
    fs.mkdirSync(runDir, { recursive: true });
    writeRunRecord({ runDir, run: change.run, tail: change.tail, journalSeq: change.journalSeq, journal: () => journal }, ctx);
  }

  /** The folder of a run's files kept on this machine (its run record, record/record-file.ts). */
  runDir(runId: string): string {
    return path.join(this.dir, 'runs', runId);
  }

  /**
   * A shared store that could not be read, in a process bound by a deadline (a hook: store/deadline.ts):
   * every later read in this process gets the same answer at once. A second read would wait for
   * the store again with the time the first one used up, and the hook would deny only after
   * both, past the client's timeout (a PreToolUse reads the run for the stage's turn, then to decide).
   */
  private storeDown: ActiveRun<RunSnapshot> | undefined;

  /** The active run, or why there is none or why it cannot be read. Never throws. */
  async active(): Promise<ActiveRun<RunSnapshot>> {
    if (this.storeDown && remainingMs() !== undefined) return this.storeDown;
    const read = await this.store.readActive();
    if (read.kind === 'unreadable' && read.store !== undefined && remainingMs() !== undefined) this.storeDown = read;
    if (read.kind !== 'ok') return read;
    // A run.json that parses but cannot be interpreted (its stored definition no
    // longer loads, or its state is not in it) is as unreadable as a corrupt one:
    // every client fails closed with the same recovery, instead of briefing the
    // agent "Allowed tools: all" from a state that does not exist.
    const wf = this.env.load(read.run.workflow.definitionText);
    const problem = !wf ? "its stored workflow definition does not load" : !wf.states.has(read.run.state) ? `its state ${JSON.stringify(read.run.state)} is not in its stored workflow definition` : undefined;
    if (problem) {
      return { kind: 'unreadable', runId: read.runId, reason: `run ${read.runId} cannot be used: ${problem}; stop it with \`stategate run stop\` (or delete the \`.stategate/active\` file), or restore its run.json from the journal` };
    }
    return read;
  }

  /** The active run; throws RunnerError when there is none, it is unreadable (`run_unreadable`) or tampered with (`run_tampered`). */
  async requireActive(): Promise<RunSnapshot> {
    const active = await this.active();
    if (active.kind === 'ok') return active.run;
    if (active.kind === 'none') throw new RunnerError('no_active_run', `no active run (${active.why}): start one with \`stategate run start WORKFLOW_FILE\``);
    throw unusable(active);
  }

  /** Without `replace`, a live active run is not replaced: the caller asks the person first (or says so). */
  private async refuseIfLive(opts: StartOptions): Promise<void> {
    if (opts.replace) return;
    const active = await this.active();
    if (active.kind !== 'ok' || !isLiveRun(active.run)) return;
    throw new RunnerError('run_active', `a run is active: ${describeLiveRun(active.run, Date.parse(this.env.now()))}; stop it first, or start with replace (\`stategate run start --replace\`). ${REPLACED_RUN_LISTED}`);
  }

  /** A new run never replaces one whose files were tampered with: a person recovers first (`stategate run stop`). */
  private async refuseIfTampered(): Promise<void> {
    const active = await this.active();
    if (active.kind === 'unreadable' && active.tampered) throw unusable(active);
  }

  /**
   * Validate and start a workflow file as the active run. A live active run (running, waiting or paused)
   * is refused (`run_active`) unless `replace` says to stop it; its journal is kept either way (live-run.ts).
   */
  async start(file: string, context?: JsonObject, input?: JsonValue, opts: StartOptions = {}): Promise<{ run: RunSnapshot; replaced?: string }> {
    refuseTooDeep('the context', context);
    refuseTooDeep('the input', input);
    await this.refuseIfTampered();
    const { text, abs } = this.readWorkflowFile(file);
    // A flow is a pipeline of tool calls, not a workflow an agent is held to: as a run it would have no transitions.
    if (formats().detectFormat(text, abs) === 'flow') throw new RunnerError('flow_not_runnable', flowNotRunnable(file));
    const check = checkWorkflowFile(text, abs);
    const errors = check.diagnostics.filter((d) => d.severity === 'error');
    if (!check.workflow || errors.length) {
      const first = errors[0]?.message ?? 'not a workflow';
      throw new RunnerError('invalid_workflow', `${file} has ${errors.length || 1} error(s); first: ${first} (run \`stategate validate ${file}\`)`);
    }
    const runId = RunStore.newRunId();
    const inputs = isChartWorkflow(check.workflow) ? this.chartInputs(check.workflow) : {};
    const started = machine.startRun(check.workflow, text, { runId, file: abs, hash: hashText(text), ...(context ? { context } : {}), ...inputs }, this.env);
    if (!started.run) throw new RunnerError(started.outcome.error?.code ?? 'start_failed', started.outcome.error?.message ?? 'the run could not start');
    // Where the file is in the workspace, so that a clone on another machine judges `definition_changed` by its own copy.
    const inWorkspace = this.relativePath(abs);
    if (inWorkspace !== undefined) started.run.workflow = { ...started.run.workflow, workspaceFile: inWorkspace };
    // A pipeline keeps what it was started with (`input.task`), and its first stage starts with the run.
    const withInput = input === undefined ? started.run : { ...started.run, pipeline: { upstream: {}, execs: {}, attempts: {}, seq: 0, proposals: [], grants: [], input } };
    const synced = syncStages(withInput, withInput.updatedAt, (t) => this.env.load(t));
    const run = synced.run;
    // After the file's own problems (a missing or invalid file is reported as such, whatever is active).
    await this.refuseIfLive(opts);
    const replaced = await this.stopActiveIfRunning();
    await this.storeOp(() => this.store.create(run, [...started.journal, ...synced.journal]));
    return replaced ? { run, replaced } : { run };
  }

  /**
   * What a statechart run starts with besides its context: the variables its chart's `env:` names, from
   * this process's environment (no other), and its agents (the chart's, `.stategate/agents.yaml`'s, the
   * host's custom agents). A malformed agents.yaml refuses the start, saying where.
   */
  private chartInputs(wf: Workflow): Pick<machine.StartOptions, 'chartEnv' | 'agents'> {
    const chartEnv = captureChartEnv(wf, this.environment);
    const { AGENTS_FILE, agentsFileErrors, loadAgentsFile } = formats();
    const file = path.join(this.dir, AGENTS_FILE);
    let fromFile: ChartAgent[] = [];
    let text: string | undefined;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      text = undefined; // no agents.yaml: nothing to add
    }
    if (text !== undefined) {
      const loaded = loadAgentsFile(text);
      const errors = agentsFileErrors(text, path.relative(this.workspaceRoot, file) || file, loaded.diagnostics);
      if (errors) throw new RunnerError('invalid_agents', `the agents file does not read (fix it, or remove it):\n${errors}`);
      fromFile = loaded.agents;
    }
    const agents = mergeAgents(wf.chart?.agents, fromFile, this.customAgents?.());
    return { ...(chartEnv ? { chartEnv } : {}), ...(agents.length ? { agents } : {}) };
  }

  /** Every run of this workspace's store (with a shared store: the project's), oldest first. */
  async list(): Promise<RunSnapshot[]> {
    return this.storeOp(() => this.store.listRuns());
  }

  /**
   * Make run `runId` the active run as it is (with a shared store: the run another
   * machine of the team is in). Nothing about the run changes; a running active run
   * that is another one is stopped first, as `start` does.
   */
  async join(runId: string): Promise<RunSnapshot> {
    await this.refuseIfTampered();
    await this.storeOp(() => this.store.readRun(runId));
    await this.stopActiveIfRunning(runId);
    return this.storeOp(() => this.store.activate(runId, (r) => ({ run: r, journal: [], result: r })));
  }

  /** Resume the newest paused run of the workflow in `file`; with none paused, start it fresh. */
  async resume(file: string): Promise<{ run: RunSnapshot; resumed: boolean }> {
    await this.refuseIfTampered();
    const { text, abs } = this.readWorkflowFile(file);
    const id = checkWorkflowFile(text, abs, { resolveInvoke: false }).workflow?.id;
    const paused = (await this.storeOp(() => this.store.listRuns()))
      .filter((r) => r.status === 'paused' && (r.workflow.id === id || r.workflow.file === abs))
      .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
    const newest = paused[paused.length - 1];
    // Resume is the person's explicit choice of this workflow (the panel's Resume, `run resume`): it replaces as it always did.
    if (!newest) return { run: (await this.start(file, undefined, undefined, { replace: true })).run, resumed: false };
    await this.stopActiveIfRunning(newest.runId);
    await this.storeOp(() => this.store.activate(newest.runId, (r) => this.change(this.withStages(machine.resume(r, this.env)))));
    return { run: await this.storeOp(() => this.store.readRun(newest.runId)), resumed: true };
  }

  async send(event: string, data?: JsonValue, branch?: string): Promise<machine.SendOutcome> {
    // A live stage's completion event is sent only by its completion tool (pipeline/completion-only.ts). Every
    // client's plain send comes here; refused before the lock, so nothing is written, and again under it (the run may have moved).
    const load = (t: string) => this.env.load(t);
    const active = await this.active();
    const early = active.kind === 'ok' ? completionRequired(active.run, event, load, branch) : undefined;
    if (early && active.kind === 'ok') return completionRefusal(active.run, event, early);
    return this.apply((r) => {
      const refused = completionRequired(r, event, load, branch);
      if (refused) return { run: r, journal: [], outcome: completionRefusal(r, event, refused) };
      refuseTooDeep(`the data of ${event}`, data);
      refuseEvidence(`the data of ${event}`, data);
      return machine.sendEvent(r, event, data, this.env, branchOpt(branch));
    });
  }
  approve(branch?: string) {
    return this.apply((r) => machine.approve(r, this.env, branchOpt(branch)));
  }
  reject(branch?: string) {
    return this.apply((r) => machine.reject(r, this.env, branchOpt(branch)));
  }
  pause() {
    return this.apply((r) => machine.pause(r, this.env));
  }
  /**
   * Stop the active run. When its files cannot be read, or were tampered
   * with, this is the recovery step the fail-closed message names
   * (`stategate run stop`), so it must not fail with that same error: it
   * clears `active` and the record outside the workspace (enforcement is off
   * again) and leaves the run's files where they are, to inspect or rebuild
   * from the journal (docs/reliability.md).
   */
  async stop(): Promise<machine.StatusOutcome & { deactivated?: string; reason?: string }> {
    const active = await this.active();
    if (active.kind === 'unreadable') {
      await this.storeOp(() => this.store.deactivate());
      const what = active.tampered ? 'the active run was tampered with' : 'the active run could not be read';
      return { status: 'stopped', state: '', ...(active.runId ? { deactivated: active.runId } : {}), reason: `${what}, so it is no longer active (its files are kept): ${active.reason}` };
    }
    return this.apply((r) => machine.stop(r, this.env));
  }
  force(state: string, context?: JsonObject) {
    return this.apply((r) => {
      refuseTooDeep('the context', context);
      return machine.forceState(r, state, context, this.env);
    });
  }

  /** A file was saved or written: fire the first matching interrupt. Paths outside the workspace never match. */
  async fileChanged(file: string, branch?: string): Promise<machine.FileChangedOutcome> {
    const rel = this.relativePath(file);
    if (rel === undefined) {
      const run = await this.requireActive();
      return { interrupted: false, file, state: run.state, status: run.status, reason: 'no_match' };
    }
    return this.apply((r) => machine.fileChanged(r, rel, this.env, branchOpt(branch)));
  }

  /** Re-read the workflow file the run started from and apply it (validated; the state must still exist; an ended run refuses). */
  async reload(): Promise<machine.ReloadOutcome> {
    const run = await this.requireActive();
    // Refused before the file is read: an ended run's file may be gone, and the answer is the same.
    const ended = machine.reloadRefusal(run);
    if (ended) return { reloaded: false, hash: run.workflow.hash, error: ended };
    const file = run.workflow.file;
    if (!file) throw new RunnerError('no_file', 'the run was not started from a file');
    const { text } = this.readWorkflowFile(file);
    return this.apply((r) => machine.reloadDefinition(r, text, this.env));
  }

  /** A lesson an agent recorded (statewright_record_learning): into the run record and learnings.jsonl. */
  async recordLearning(args: Record<string, unknown>): Promise<LearningOutcome> {
    refuseTooDeep('the learning', args);
    const input = learningFrom(args);
    if (typeof input === 'string') return { recorded: false, state: (await this.requireActive()).state, error: { code: 'invalid_learning', message: input } };
    return this.apply((r) => recordLearning(r, input, this.env));
  }

  /** Model usage the caller saw (the participant, per model response): its cost counts against meta.max_cost. */
  reportUsage(report: UsageReport): Promise<UsageOutcome> {
    return this.apply((r) => reportUsage(r, report, this.env));
  }

  /** `stategate run done|fail <invoke-id>`: completes an `agent:` invocation of a statechart run. */
  complete(id: string, ok: boolean, data?: JsonValue): Promise<ChartOutcome> {
    return this.apply((r) => {
      refuseTooDeep(`the data of ${id}`, data);
      refuseEvidence(`the data of ${id}`, data);
      const wf = chartWorkflow(r, this.env);
      if (!wf) throw new RunnerError('not_a_statechart', 'run done|fail completes invocations of a statechart run; the active run is not one');
      return completeChartInvocation(r, wf, id, ok, data, this.env);
    });
  }

  async state(branch?: string): Promise<StateView & { run_id: string; definition_changed: boolean; completion_tools?: LiveCompletion[] } & Partial<ChartView> & Partial<ChartAgentView>> {
    const active = await this.requireActive();
    if (chartWorkflow(active, this.env)) {
      // Loading a statechart run fires its due timers: that is a change to store.
      const run = await this.apply((r) => ({ run: r, journal: [], outcome: r }));
      const wf = chartWorkflow(run, this.env);
      // What agents are told: every active state's rules, the events, the tasks handed to agents.
      const described = withoutCompletionEvents(machine.describe(run, this.env, branchOpt(branch)), this.completionsOf(run, branch));
      const chartPart = wf && run.chart ? chartView(wf, run.chart, (text) => this.env.load(text)) : undefined;
      // The handler calls actions queued are listed with the invocations (docs/statechart-handlers.md).
      if (chartPart && wf && run.handlerCalls?.length) chartPart.invocations = [...chartPart.invocations, ...(handlerCallViews(run, wf) as unknown as InvocationView[])];
      const view = chartPart && run.chart ? { ...chartPart, ...chartAgentView(run.chart, described.transitions.filter(isChartTransition)) } : {};
      return { run_id: run.runId, ...described, ...view, definition_changed: this.definitionChanged(run) };
    }
    const run = active;
    return { run_id: run.runId, ...withoutCompletionEvents(machine.describe(run, this.env, branchOpt(branch)), this.completionsOf(run, branch)), definition_changed: this.definitionChanged(run) };
  }

  /** The live stages' completion tools (their events are not for plain sends, pipeline/completion-only.ts). */
  private completionsOf(run: RunSnapshot, branch?: string): LiveCompletion[] {
    return liveCompletions(run, (t) => this.env.load(t), branch);
  }

  /** Whether the workflow file changed (or vanished) since the run started: the run keeps its own copy. */
  definitionChanged(run: RunSnapshot): boolean {
    // This workspace's copy of the file: a run in a shared store may have been started in another clone, on another machine.
    const file = run.workflow.workspaceFile !== undefined ? path.join(this.workspaceRoot, ...run.workflow.workspaceFile.split('/')) : run.workflow.file;
    if (!file) return false;
    try {
      return hashText(fs.readFileSync(file, 'utf8')) !== run.workflow.hash;
    } catch {
      return true;
    }
  }

  /**
   * Decide a tool call before it runs (docs/enforcement.md's order of checks, then the
   * state's rules). An allowed call is counted. Never throws: anything that
   * goes wrong while a run is active is a denial that says why.
   */
  async tool(call: ToolCall, given: ToolOptions = {}): Promise<ToolAnswer> {
    const off = (reason: string): ToolAnswer => ({ decision: 'allow', reason, notices: [], counted: false, enforcement: 'off' });
    const denied = (reason: string, state?: string): ToolAnswer => ({ decision: 'deny', reason, notices: [], counted: false, enforcement: 'on', ...(state ? { state } : {}) });
    try {
      const active = await this.active();
      if (active.kind === 'none') return off(`nothing to enforce: ${active.why}`);
      if (active.kind === 'unreadable') return denied(active.tampered ? `stategate found the active run tampered with: ${active.reason}` : `stategate cannot read the active run, so it denies every tool call: ${active.reason}`);
      const run = active.run;
      if (run.status !== 'running') return { ...off(`the run is ${run.status}: enforcement is off`), state: run.state };
      refuseTooDeep(`the ${call.tool} call`, call.input);
      // stategate's own tools pass before anything else: an agent not yet bound to a branch of a
      // parallel fork must still be able to bind itself (statewright_load_workflow) or read the state.
      if (isOwnTool(call.tool)) return { decision: 'allow', notices: [], counted: false, enforcement: 'on', state: run.state };
      // The active stage's completion tool ends the stage: its payload is checked when it is called (completeStage), never refused here.
      if (run.pipeline && completionToolCalled(call.tool, activeStages(run, (t) => this.env.load(t)).map((s) => s.completion_tool), bareNamesAreOurs(given.client))) {
        return { decision: 'allow', notices: [], counted: false, enforcement: 'on', state: run.state };
      }
      // A parallel fork: a bound session's branch decides; an unbound call must pass every running branch.
      const fork = machine.activeFork(run);
      const bound = given.branch ?? boundBranchOf(fork, given.session);
      if (bound === undefined && fork?.mode === 'parallel') return await this.toolEveryBranch(call, given, run, fork);
      const opts: ToolOptions = bound === given.branch ? given : { ...given, branch: bound };
      const aliases = this.aliasesFor(opts);
      const here = locateForCall(run, this.env, call.tool, { ...branchOpt(opts.branch), ...(aliases ? { aliases } : {}) });
      if ('code' in here) return denied(`stategate cannot tell which state applies: ${here.message}`, run.state);
      if (here.node.kind === 'final') return { ...off(`the run is in final state '${here.node.id}': enforcement is off`), state: here.node.id };
      const sandboxed = this.sandbox !== undefined && extractCall(call.tool, call.input, aliases).kind === 'shell' && sandboxWillHold(this.sandbox, opts.client, call.input);
      const policy: PolicyOptions = { ...branchOpt(opts.branch), ...this.pathOptions(opts), ...(aliases ? { aliases } : {}), ...(sandboxed ? { sandboxed } : {}), ...(await this.shellInputs(here.node, call, aliases, here.commandLevels, this.env.load(run.workflow.definitionText)?.meta.agentMay)) };
      let decided = false;
      const answer = await this.apply<ToolAnswer>((r) => {
        decided = true;
        // The run may have moved while the command was analysed: decide only on the state analysed.
        if (r.status !== 'running') return { run: r, journal: [], outcome: { ...off(`the run is ${r.status}: enforcement is off`), state: r.state } };
        const now = locateForCall(r, this.env, call.tool, { ...branchOpt(opts.branch), ...(aliases ? { aliases } : {}) });
        if ('code' in now || now.node.id !== here.node.id) {
          return { run: r, journal: [], outcome: denied(`the workflow moved to another state while this call was being decided; call again`, r.state) };
        }
        return this.once('decide', r, call, opts, aliases, (same) => ({ decision: same.decision ?? 'deny', ...(same.reason ? { reason: same.reason } : {}), notices: [], counted: false, enforcement: 'on' as const, state: same.state ?? r.state }), () => {
          // A one-shot grant for exactly this call (tool and arguments) lifts the stage's tool envelope once.
          const grant = this.grantFor(r, call, opts.branch);
          const d = decide(r, call, this.env, grant ? { ...policy, granted: true } : policy);
          if (grant && d.outcome.decision === 'allow') {
            const used = consumeGrant(d.run, grant, this.env.now());
            return { run: used.run, journal: [...d.journal, ...used.journal], outcome: { ...d.outcome, enforcement: 'on' as const, notices: [...d.outcome.notices, `A one-shot grant approved by a person covers this ${call.tool} call; the next call outside the stage's tools asks again.`] } };
          }
          return { ...d, outcome: { ...d.outcome, enforcement: 'on' as const } };
        }, (o) => ({ decision: o.decision, ...(o.reason ? { reason: o.reason } : {}), ...(o.state ? { state: o.state } : {}) }));
      }, callKey('decide', call, opts, aliases));
      if (!decided) this.noteRepeat('decide', call, opts, aliases);
      // Denied only for being outside the stage's tools: the client may put it to the person (a one-shot grant).
      const outside = answer.decision === 'deny' && run.pipeline ? this.outsideStage(run, call, policy, opts.branch) : undefined;
      if (outside) return { ...answer, outside_stage: outside };
      return this.withSandbox(answer, here.node, call, policy.rewrite, opts, aliases);
    } catch (err) {
      const message = err instanceof RunnerError ? err.message : `internal error: ${(err as Error)?.message ?? String(err)}`;
      return denied(`stategate could not decide, so it denies: ${message}`);
    }
  }

  /**
   * A call from a session bound to no branch while a parallel fork runs: it is
   * allowed only where every running branch allows it (docs/design/forks.md),
   * so each branch decides it in turn on the same snapshot, and the first that
   * refuses it answers, named, with the way to bind. Allowed, it counts in
   * every branch (each branch's limits hold the call as its own would). A
   * branch standing in its terminal state (final, waiting for BRANCH_DONE)
   * refuses nothing; when every branch does, only BRANCH_DONE is left.
   */
  private async toolEveryBranch(call: ToolCall, opts: ToolOptions, run: RunSnapshot, fork: ActiveFork): Promise<ToolAnswer> {
    const aliases = this.aliasesFor(opts);
    const running = fork.branches.filter((b) => b.status === 'running').map((b) => b.name);
    const agentMay = this.env.load(run.workflow.definitionText)?.meta.agentMay;
    const bindHint = `This session is bound to no branch, so a call must be allowed by every running branch (${running.join(', ')}). Bind it to its branch (\`stategate run bind --session ${opts.session ?? 'SESSION_ID'} --branch NAME\`, or statewright_load_workflow(name, branch) from the MCP server) and that branch's rules decide.`;
    const denied = (reason: string): ToolAnswer => ({ decision: 'deny', reason, notices: [], counted: false, enforcement: 'on', state: run.state });
    const prepared: { branch: string; node: StateNode; policy: PolicyOptions }[] = [];
    for (const branch of running) {
      const here = locateForCall(run, this.env, call.tool, { branch, ...(aliases ? { aliases } : {}) });
      if ('code' in here) return denied(`stategate cannot tell which state applies in branch "${branch}": ${here.message}`);
      if (here.node.kind === 'final') continue;
      const sandboxed = this.sandbox !== undefined && extractCall(call.tool, call.input, aliases).kind === 'shell' && sandboxWillHold(this.sandbox, opts.client, call.input);
      const policy: PolicyOptions = { branch, ...this.pathOptions(opts), ...(aliases ? { aliases } : {}), ...(sandboxed ? { sandboxed } : {}), ...(await this.shellInputs(here.node, call, aliases, here.commandLevels, agentMay)) };
      prepared.push({ branch, node: here.node, policy });
    }
    const first = prepared[0];
    // While it runs (the sandbox, the environment rewrite) every branch's rules hold too: policy/branch-intersection.ts.
    const rules = intersectRules(prepared.map((p) => p.node.rules)) ?? first?.node.rules;
    const extracted = extractCall(call.tool, call.input, aliases);
    const rewrite =
      rules && this.rewriteShell && extracted.kind === 'shell' && extracted.command !== undefined && (rules.blockedEnv.length || Object.keys(rules.envOverrides).length) && call.input && typeof call.input === 'object'
        ? { ...(call.input as object), command: this.rewriteShell(extracted.command, rules.blockedEnv, rules.envOverrides) }
        : undefined;
    // Every branch waits in its terminal state: what is left is BRANCH_DONE (stategate's own tools passed above), not work.
    if (!first) return denied(`Every running branch of the fork (${running.join(', ')}) stands in its terminal state: send BRANCH_DONE:<branch> for each (statewright_transition, or \`stategate run send BRANCH_DONE:NAME --branch NAME\`).`);
    const answer = await this.apply<ToolAnswer>((r) => {
      if (r.status !== 'running') return { run: r, journal: [], outcome: { decision: 'allow', reason: `the run is ${r.status}: enforcement is off`, notices: [], counted: false, enforcement: 'off', state: r.state } };
      return this.once('decide', r, call, opts, aliases, (same) => ({ decision: same.decision ?? 'deny', ...(same.reason ? { reason: same.reason } : {}), notices: [], counted: false, enforcement: 'on' as const, state: same.state ?? r.state }), () => {
        let next = r;
        const journal: MachineResult<unknown>['journal'] = [];
        const notices: string[] = [];
        for (const p of prepared) {
          const now = locateForCall(next, this.env, call.tool, { branch: p.branch, ...(aliases ? { aliases } : {}) });
          if ('code' in now || now.node.id !== p.node.id) return { run: r, journal: [], outcome: denied('the workflow moved to another state while this call was being decided; call again') };
          const d = decide(next, call, this.env, p.policy);
          if (d.outcome.decision !== 'allow') {
            return { run: r, journal: [], outcome: denied(`Branch "${p.branch}" of the parallel fork refuses this call: ${d.outcome.reason ?? 'denied by its state'} ${bindHint}`) };
          }
          next = d.run;
          journal.push(...d.journal);
          for (const n of d.outcome.notices) notices.push(`[branch ${p.branch}] ${n}`);
        }
        return { run: next, journal, outcome: { decision: 'allow' as const, notices, counted: true, enforcement: 'on' as const, state: r.state, ...(rewrite !== undefined ? { rewrite } : {}) } };
      }, (o) => ({ decision: o.decision, ...(o.reason ? { reason: o.reason } : {}), ...(o.state ? { state: o.state } : {}) }));
    }, callKey('decide', call, opts, aliases));
    return this.withSandbox(answer, { ...first.node, rules: rules ?? first.node.rules }, call, rewrite, opts, aliases);
  }

  /**
   * Binds an agent session to a branch of the active fork (`stategate run
   * bind`, `statewright_load_workflow(name, branch)`): the binding lives in the
   * run, so every hook process sees it. A sequential fork turns parallel.
   */
  bind(session: string, branch: string): Promise<machine.BindOutcome> {
    return this.apply((r) => machine.bindSession(r, session, branch, this.env));
  }

  /** The branch `session` is bound to, while that branch runs (undefined: unbound, or no fork). */
  async branchOf(session: string | undefined): Promise<string | undefined> {
    if (session === undefined) return undefined;
    const active = await this.active();
    return active.kind === 'ok' ? boundBranchOf(machine.activeFork(active.run), session) : undefined;
  }

  /** Record what a call did after it ran: result bytes, the edited file, the interrupt it fires. */
  async result(reported: ToolCall, result: ToolResult, given: ToolOptions = {}): Promise<RecordOutcome & { enforcement: 'on' | 'off' }> {
    const active = await this.active();
    if (active.kind === 'unreadable') throw unusable(active);
    if (active.kind === 'none' || active.run.status !== 'running') {
      return { notices: [], interrupted: false, state: active.kind === 'ok' ? active.run.state : '', enforcement: 'off' };
    }
    refuseTooDeep(`the ${reported.tool} call`, reported.input);
    const bound = given.branch ?? boundBranchOf(machine.activeFork(active.run), given.session);
    const opts: ToolOptions = bound === given.branch ? given : { ...given, branch: bound };
    const aliases = this.aliasesFor(opts);
    // What is recorded (evidence, written files, interrupts) is about the agent's command, not the sandbox's wrap of it.
    const call = this.unwrapped(active.run, reported, opts, aliases);
    // A shell call's write targets fire interrupts as an edit's file does: the command is analysed again (before the lock).
    const written = await this.shellWritten(active.run, call, opts, aliases);
    let recorded = false;
    const out = await this.apply((r) => {
      recorded = true;
      const recordIn = (run: RunSnapshot, branch: string | undefined) => record(run, call, result, this.env, { ...branchOpt(branch), ...this.pathOptions(opts), ...(aliases ? { aliases } : {}), ...written });
      return this.once('result', r, call, opts, aliases, (same) => ({ notices: [], interrupted: false, state: same.state ?? r.state }), () => {
        const rec = opts.branch === undefined && machine.activeFork(r)?.mode === 'parallel' ? this.recordEveryBranch(r, recordIn) : recordIn(r, opts.branch);
        // A call outside the stage that the client asked the person about ran: the person granted it once.
        const settled = rec.run.pipeline ? settleAskedGrant(rec.run, call.tool, call.input, this.env) : undefined;
        return settled ? { run: settled.run, journal: [...rec.journal, ...settled.journal], outcome: rec.outcome } : rec;
      }, (o) => ({ state: o.state }));
    }, callKey('result', call, opts, aliases));
    if (!recorded) this.noteRepeat('result', call, opts, aliases);
    return { ...out, enforcement: 'on' };
  }

  /**
   * The stage a denied call is outside of, when a one-shot grant would let it
   * through: the same decision with the stage's tool envelope lifted allows it
   * (so a protected file, a shell risk or a spent limit is never put to a person
   * as a grant). A dry run: nothing is stored.
   */
  private outsideStage(run: RunSnapshot, call: ToolCall, policy: PolicyOptions, branch?: string): OutsideStage | undefined {
    const at = stageFor(run, (t) => this.env.load(t), branch);
    if (typeof at === 'string') return undefined;
    try {
      return decide(run, call, this.env, { ...policy, granted: true }).outcome.decision === 'allow' ? { stage: at.node.id, tool: call.tool, allowed_tools: at.node.rules.allowedTools ? [...at.node.rules.allowedTools] : null } : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The result of an unbound session's call in a parallel fork: every running
   * branch allowed it (toolEveryBranch), so every one records it (its
   * evidence, its written files, the interrupt a written file fires).
   */
  private recordEveryBranch(run: RunSnapshot, recordIn: (run: RunSnapshot, branch: string) => MachineResult<RecordOutcome>): MachineResult<RecordOutcome> {
    const names = (machine.activeFork(run)?.branches ?? []).filter((b) => b.status === 'running' && b.state !== b.terminal).map((b) => b.name);
    let next = run;
    const journal: MachineResult<RecordOutcome>['journal'] = [];
    let outcome: RecordOutcome = { notices: [], interrupted: false, state: run.state };
    for (const branch of names) {
      const r = recordIn(next, branch);
      next = r.run;
      journal.push(...r.journal);
      outcome = { ...r.outcome, notices: [...outcome.notices, ...r.outcome.notices.map((n) => `[branch ${branch}] ${n}`)], interrupted: outcome.interrupted || r.outcome.interrupted, ...(outcome.interrupt ? { interrupt: outcome.interrupt } : {}) };
    }
    return { run: next, journal, outcome };
  }

  private grantFor(run: RunSnapshot, call: ToolCall, branch?: string) {
    if (!run.pipeline?.grants.length) return undefined;
    const at = stageFor(run, (t) => this.env.load(t), branch);
    return typeof at === 'string' ? undefined : findGrant(run, call.tool, call.input, at.live.scope);
  }

  /**
   * Decide or record a call once, whatever number of hooks ask (store/recent-calls.ts):
   * a repeat from another hook gets `again(first answer)` and changes nothing.
   * Runs under the store's lock (inside apply). The call's journal entries
   * carry the client that asked.
   */
  private once<O>(
    kind: RecentCall['kind'],
    run: RunSnapshot,
    call: ToolCall,
    opts: ToolOptions,
    aliases: ExtraAliases | undefined,
    again: (same: RecentCall) => O,
    fresh: () => MachineResult<O>,
    summary: (o: O) => Pick<RecentCall, 'decision' | 'reason' | 'state'>,
  ): MachineResult<O> {
    const ask = this.recentAsk(kind, call, opts, aliases);
    const found = findSameCall(readRecentCalls(this.dir), ask);
    // A call id is also the store's idempotency key (callKey), and the store answers a key it
    // committed before this runs. So a note of this same id found here is of an answer whose
    // change was never committed (its process killed between the note and the commit) or that
    // changed nothing: decide it again. Taken as the first answer, a killed hook's retry would be
    // allowed without ever being counted (found by the two-machine soak, team-crash.test.ts).
    const same = found && !(ask.callId !== undefined && found.callId === ask.callId) ? found : undefined;
    if (same) {
      noteCall(this.dir, { ...ask, tool: call.tool, answers: 1 }, same);
      return { run, journal: [], outcome: again(same) };
    }
    const d = fresh();
    noteCall(this.dir, { ...ask, tool: call.tool, answers: 1, ...summary(d.outcome) });
    const journal = opts.client ? d.journal.map((e) => ('tool' in e ? { ...e, client: opts.client } : e)) : d.journal;
    return { ...d, journal };
  }

  /** A call as recent-calls.json keeps it: kind, digest of the canonical call, when, its id and client. */
  private recentAsk(kind: RecentCall['kind'], call: ToolCall, opts: ToolOptions, aliases: ExtraAliases | undefined) {
    const at = Date.parse(this.env.now());
    return { kind, digest: callDigest(extractCall(call.tool, call.input, aliases).canonical, call.input), at, ...(opts.callId ? { callId: opts.callId } : {}), ...(opts.client ? { client: opts.client } : {}) };
  }

  /**
   * The store answered a repeated call id with its first answer without deciding again (its
   * idempotency key): the repeat is still one more hook answering that call, so recent-calls.json
   * counts it and names its client, as `once` does for a repeat it finds itself.
   */
  private noteRepeat(kind: RecentCall['kind'], call: ToolCall, opts: ToolOptions, aliases: ExtraAliases | undefined): void {
    const ask = this.recentAsk(kind, call, opts, aliases);
    const same = findSameCall(readRecentCalls(this.dir), ask);
    if (same) noteCall(this.dir, { ...ask, tool: call.tool, answers: 1 }, same);
  }

  /** The caller's aliases, else the store's tool-aliases.json (the setting, for processes outside VS Code). */
  private aliasesFor(opts: ToolOptions): ExtraAliases | undefined {
    if (opts.aliases) return opts.aliases;
    const read = readToolAliases(this.dir);
    if (!read.ok) throw new RunnerError('aliases_unreadable', read.reason);
    return read.aliases;
  }

  /**
   * Whether allowed shell commands run inside the kernel sandbox on this machine (`run state`, the
   * panel): off without a provider or without bubblewrap, saying why. A client that cannot take a
   * rewrite is told per call (ToolAnswer.sandbox).
   */
  sandboxStatus(): SandboxStatus {
    if (!this.sandbox) return { enforced: false, reason: 'this process puts no sandbox under shell commands' };
    return sandboxStatusHere(this.sandbox.backend());
  }

  /**
   * An allowed shell call runs inside the kernel sandbox where the client can take the rewrite
   * (src/engine/sandbox/answer.ts). Worked out from the state and the call alone, so a repeat of
   * the call from a second hook gets the same wrapped command as the first.
   */
  private withSandbox(answer: ToolAnswer, node: StateNode, call: ToolCall, envRewrite: unknown, opts: ToolOptions, aliases?: ExtraAliases): ToolAnswer {
    if (!this.sandbox || answer.decision !== 'allow' || answer.enforcement !== 'on') return answer;
    const extracted = extractCall(call.tool, call.input, aliases);
    if (extracted.kind !== 'shell' || extracted.command === undefined) return answer;
    const rewritten = (envRewrite as { command?: unknown } | undefined)?.command;
    const command = typeof rewritten === 'string' ? rewritten : extracted.command;
    const s = sandboxAnswer({ provider: this.sandbox, rules: node.rules, input: call.input, command, ...(opts.client ? { client: opts.client } : {}), workspaceRoot: this.workspaceRoot, storeDir: path.resolve(this.dir), stateDir: this.stateDir });
    return { ...answer, ...s };
  }

  /**
   * A shell call as the agent made it, when its client reports the command stategate had it run
   * instead (the sandbox's wrap, with the environment rewrite inside): the candidate is kept only
   * when wrapping it again for the current state gives exactly the command reported.
   */
  private unwrapped(run: RunSnapshot, call: ToolCall, opts: ToolOptions, aliases?: ExtraAliases): ToolCall {
    if (!this.sandbox) return call;
    const input = call.input as { command?: unknown } | null;
    if (!input || typeof input !== 'object' || Array.isArray(input) || typeof input.command !== 'string') return call;
    const ran = input.command;
    const inner = sandboxedCommand(ran);
    if (inner === undefined) return call;
    const here = locateForCall(run, this.env, call.tool, { ...branchOpt(opts.branch), ...(aliases ? { aliases } : {}) });
    if ('code' in here) return call;
    const rules = here.node.rules;
    const envRewrite = this.rewriteShell && (rules.blockedEnv.length || Object.keys(rules.envOverrides).length) ? this.rewriteShell : undefined;
    const original = envRewrite ? envRewrittenCommand(inner) : inner;
    if (original === undefined) return call;
    const again = sandboxAnswer({ provider: this.sandbox, rules, input: { ...input, command: original }, command: envRewrite ? envRewrite(original, rules.blockedEnv, rules.envOverrides) : original, ...(opts.client ? { client: opts.client } : {}), workspaceRoot: this.workspaceRoot, storeDir: path.resolve(this.dir), stateDir: this.stateDir });
    return (again.updated_input as { command?: unknown } | undefined)?.command === ran ? { ...call, input: { ...input, command: original } } : call;
  }

  /** The shell verdict (and rewrite) for a shell call, computed before taking the lock. */
  private async shellInputs(node: StateNode, call: ToolCall, aliases?: ExtraAliases, levels: readonly StateNode[] = [], agentMay?: ShellRules['agentMay']): Promise<Pick<PolicyOptions, 'shell' | 'rewrite'>> {
    const extracted = extractCall(call.tool, call.input, aliases);
    if (extracted.kind !== 'shell' || extracted.command === undefined) return {};
    const command = extracted.command;
    const analyse = async (n: StateNode): Promise<ShellVerdict | undefined> => {
      const found = shellRulesFor(n, extracted, call.tool, aliases);
      if (!found) return undefined;
      // The grant of meta.agent_may lets the agent's own `stategate run stop|pause|...` through (shell/own-cli.ts).
      const rules = agentMay?.length ? { ...found, agentMay } : found;
      return this.analyseShell ? await this.analyseShell(command, rules) : { ok: false, reason: 'no shell analyser is available' };
    };
    const out: { shell?: ShellVerdict; rewrite?: unknown } = {};
    const verdict = await analyse(node);
    if (verdict) out.shell = verdict;
    // Statecharts: the command must also match at every ancestor that lists allowed_commands.
    for (const level of verdict?.ok ? levels : []) {
      const v = await analyse(level);
      if (v && !v.ok) {
        out.shell = { ...v, reason: `${v.reason} (allowed_commands of '${level.id}', which encloses '${node.id}')` };
        break;
      }
    }
    const overrides = node.rules.envOverrides;
    if (this.rewriteShell && (node.rules.blockedEnv.length || Object.keys(overrides).length) && call.input && typeof call.input === 'object') {
      out.rewrite = { ...(call.input as object), command: this.rewriteShell(extracted.command, node.rules.blockedEnv, overrides) };
    }
    return out;
  }

  /** For a shell call after it ran: the analysis of its command (what it wrote), or nothing. */
  private async shellWritten(run: RunSnapshot, call: ToolCall, opts: ToolOptions, aliases?: ExtraAliases): Promise<Pick<PolicyOptions, 'shell'>> {
    if (extractCall(call.tool, call.input, aliases).kind !== 'shell') return {};
    const here = locateForCall(run, this.env, call.tool, { ...branchOpt(opts.branch), ...(aliases ? { aliases } : {}) });
    if ('code' in here || here.node.kind === 'final') return {};
    // Only interrupts need it here (the files were counted when the call was decided): no parse where none is defined.
    const root = this.env.load(run.workflow.definitionText);
    if (!here.workflow.interrupts.length && !root?.interrupts.length) return {};
    const { shell } = await this.shellInputs(here.node, call, aliases, here.commandLevels);
    return shell ? { shell } : {};
  }

  private pathOptions(opts: ToolOptions): Pick<PolicyOptions, 'workspaceRoot' | 'paths' | 'cwd'> {
    return { workspaceRoot: this.workspaceRoot, paths: this.paths, ...(opts.cwd ? { cwd: opts.cwd } : {}) };
  }

  /** Workspace-relative `/`-separated path where the file really is (after symlinks), or undefined when outside the workspace. */
  relativePath(file: string): string | undefined {
    const guard = new PathGuard(this.paths);
    const rel = guard.identity(guard.resolve(file));
    return rel === '' || path.isAbsolute(rel) ? undefined : rel;
  }

  /** Apply a machine operation to the active run under the lock (a pipeline's stage executions follow: pipeline/stage-sync.ts). */
  apply<O>(op: (run: RunSnapshot) => MachineResult<O>, options?: ChangeOptions): Promise<O> {
    return this.storeOp(() => this.store.updateActive((run) => this.change(this.withStages(withDueTimers(run, this.env, op))), options));
  }

  private withStages<O>(result: MachineResult<O>): MachineResult<O> {
    const synced = syncStages(result.run, result.run.updatedAt, (t) => this.env.load(t));
    return synced.journal.length || synced.run !== result.run ? { run: synced.run, journal: [...result.journal, ...synced.journal], outcome: result.outcome } : result;
  }

  // ---------------------------------------------------------------------------
  // Stage pipelines (pipeline/): every client advances a pipeline through these.

  /** A call of the active stage's completion tool: the payload checked, the stage ended when it is valid. */
  completeStage(tool: string, payload: JsonValue | undefined, branch?: string): Promise<CompletionOutcome> {
    return this.apply((r) => {
      refuseTooDeep(`the ${tool} payload`, payload);
      return completeStage(r, tool, payload, this.env, branch);
    });
  }

  /** Before a model turn of the stage: counts it, or fails the stage past its turn_cap. */
  beginTurn(branch?: string): Promise<TurnOutcome> {
    return this.apply((r) => beginTurn(r, this.env, branch));
  }

  /** A client delivered the stage's prompt: journaled (prompt_sent), with the text it rendered. */
  promptSent(branch?: string): Promise<StageView | { error: { code: string; message: string } }> {
    return this.apply((r) => promptSent(r, this.env, branch));
  }

  /** An out-of-envelope call is put to a person (grant_asked). */
  askGrant(tool: string, input: unknown, branch?: string): Promise<AskOutcome> {
    return this.apply((r) => {
      refuseTooDeep(`the ${tool} call`, input);
      return askGrant(r, tool, input, this.env, branch);
    });
  }

  /** A security mode chosen for the pipeline run (`run start --security-mode`, the participant's setting): journaled. */
  setSecurityMode(mode: unknown, source: 'run' | 'setting'): Promise<SecurityModeOutcome> {
    return this.apply((r) => setSecurityMode(r, mode, source, this.env));
  }

  /** The person's answer (or headless: denied). An approval covers that tool and argument digest once. */
  answerGrant(proposalId: string, approved: boolean, by: GrantAnswerer = 'person'): Promise<AnswerOutcome> {
    return this.apply((r) => answerGrant(r, proposalId, approved, by, this.env));
  }

  /** The live stages of the active run (none when it is not a running pipeline). */
  async stages(): Promise<StageView[]> {
    const active = await this.active();
    return active.kind === 'ok' ? activeStages(active.run, (t) => this.env.load(t)) : [];
  }

  /** Every stage of the active run's workflow, live or not (none without a running pipeline). */
  async stageTools(): Promise<StageTool[]> {
    const active = await this.active();
    return active.kind === 'ok' ? workflowStageTools(active.run, (t) => this.env.load(t)) : [];
  }

  /** The stage a client acts on, or why there is none. */
  async stage(branch?: string): Promise<StageView | string> {
    const active = await this.active();
    if (active.kind !== 'ok') return active.kind === 'none' ? 'no run is active' : active.reason;
    return stageView(active.run, (t) => this.env.load(t), branch);
  }

  /** A store operation, its StoreErrors as RunnerErrors (same code); the shared store's come from a bundle of its own (isStoreError). */
  private async storeOp<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isStoreError(err)) throw new RunnerError(err.code, err.message);
      throw err;
    }
  }

  private change<O>(result: MachineResult<O>) {
    return { run: result.run, journal: result.journal, result: result.outcome };
  }

  private async stopActiveIfRunning(except?: string): Promise<string | undefined> {
    const active = await this.active();
    if (active.kind !== 'ok' || active.runId === except || active.run.status !== 'running') return undefined;
    await this.storeOp(() => this.store.update(active.runId, (r) => this.change(this.withStages(machine.stop(r, this.env)))));
    return active.runId;
  }

  private readWorkflowFile(file: string): { text: string; abs: string } {
    const abs = path.resolve(file);
    try {
      return { text: fs.readFileSync(abs, 'utf8'), abs };
    } catch (err) {
      throw new RunnerError('io', `cannot read workflow ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
}

/** The error for an active run that cannot be used: unreadable, or tampered with. */
function unusable(active: Extract<ActiveRun<RunSnapshot>, { kind: 'unreadable' }>): RunnerError {
  return new RunnerError(active.tampered ? 'run_tampered' : 'run_unreadable', active.reason);
}

/** STATEGATE_NOW (ms since the epoch) pins the run's clock: timers and time stamps read it. */
function stategateNow(): { now: () => string } | undefined {
  const raw = process.env.STATEGATE_NOW;
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!Number.isFinite(ms)) throw new RunnerError('bad_clock', `STATEGATE_NOW must be milliseconds since the epoch, not ${JSON.stringify(raw)}`);
  return { now: () => isoTime(ms) };
}

/** The idempotency key of a call's decision or result: the client's id of the call, when it sends one. */
/**
 * The store's idempotency key of a call: its id and what it asks (the digest of the canonical call),
 * so a retry of that call gets its first answer, while another call that arrives under a reused id
 * (a client or a script that does not make ids unique) is decided on its own, never handed an answer
 * to something else.
 */
function callKey(kind: 'decide' | 'result', call: ToolCall, opts: ToolOptions, aliases: ExtraAliases | undefined): ChangeOptions | undefined {
  return opts.callId ? { key: `${kind}:${opts.callId}:${callDigest(extractCall(call.tool, call.input, aliases).canonical, call.input)}` } : undefined;
}

function branchOpt(branch: string | undefined): machine.BranchOption {
  return branch === undefined ? {} : { branch };
}

/** A plain send of a live stage's completion event: refused, the run as it was. */
function completionRefusal(run: RunSnapshot, event: string, error: MachineError): machine.SendOutcome {
  return { event, transitioned: false, from: run.state, to: run.state, status: run.status, error };
}

/**
 * A state view without the live stages' completion events among the events to
 * send (only the completion tool sends them), naming the tools instead.
 */
function withoutCompletionEvents<V extends StateView>(view: V, completions: readonly LiveCompletion[]): V & { completion_tools?: LiveCompletion[] } {
  if (!completions.length) return view;
  const ends = new Set(completions.map((c) => c.tool));
  return { ...view, transitions: view.transitions.filter((t) => !ends.has(t.event)), completion_tools: [...completions] };
}
