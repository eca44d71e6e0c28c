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
import type { CheckOptions, CheckResult } from './check.js';
import { createMachineEnv } from './machine-env.js';
import * as machine from './machine.js';
import type { MachineEnv, MachineResult, StateView } from './machine.js';
import type { JsonObject, JsonValue } from './model.js';
import { WorkflowRegistry } from './registry.js';
import { hashText, RUN_SNAPSHOT_VERSION, type RunSnapshot } from './run.js';
import { RunStore, StoreError, type ActiveRun } from './store.js';
import { decide, record, shellCheckFor, type Decision, type PolicyOptions, type RecordOutcome, type ShellRules, type ShellVerdict, type ToolCall, type ToolResult } from './policy.js';
import { readToolAliases } from './tool-aliases-file.js';
import { extractCall, isOwnTool, type ExtraAliases } from './tools.js';

/**
 * check.ts (the schema validator, ajv's compiled code, and the semantic rules)
 * loads only when a workflow file is started or resumed: the hook, a process
 * per tool call that only decides calls, never loads it.
 */
function checkWorkflowFile(text: string, file: string, opts?: CheckOptions): CheckResult {
  return (require('./check.js') as typeof import('./check.js')).checkWorkflowFile(text, file, opts);
}

/** Analyses a shell command under a state's rules (shell.ts; async because the parser loads lazily). */
export type ShellAnalyser = (command: string, rules: ShellRules) => Promise<ShellVerdict>;
/** Rewrites a shell command to run with blocked variables unset and overrides applied. */
export type ShellRewriter = (command: string, blockedEnv: readonly string[], overrides: Readonly<Record<string, string>>) => string;

/** A decision with the enforcement-table row that produced it. */
export interface ToolAnswer extends Omit<Decision, 'state' | 'counted'> {
  readonly state?: string;
  readonly counted: boolean;
  /** `off`: nothing to enforce (no run, paused, stopped, final); `on`: the state's rules decided. */
  readonly enforcement: 'on' | 'off';
}

export interface ToolOptions {
  readonly branch?: string;
  readonly aliases?: ExtraAliases;
}

export interface RunnerOptions {
  /** The `.stategate` directory. */
  readonly dir: string;
  /** Paths in interrupts are matched relative to this (default: the parent of `dir`). */
  readonly workspaceRoot?: string;
  readonly now?: () => string;
  /** How long a writer waits for the lock before answering "busy". */
  readonly lockTimeoutMs?: number;
  /** Shell analysis for shell tools; without it, commands in restricted states are denied (fail closed). */
  readonly analyseShell?: ShellAnalyser;
  readonly rewriteShell?: ShellRewriter;
}

export class RunnerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
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
  readonly store: RunStore<RunSnapshot>;
  readonly env: MachineEnv;
  readonly workspaceRoot: string;
  private readonly registry = new WorkflowRegistry();
  private readonly analyseShell: ShellAnalyser | undefined;
  private readonly rewriteShell: ShellRewriter | undefined;

  constructor(options: RunnerOptions) {
    this.store = new RunStore<RunSnapshot>(options.dir, {
      checkRun: checkRunSnapshot,
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
    });
    this.analyseShell = options.analyseShell;
    this.rewriteShell = options.rewriteShell;
    this.workspaceRoot = path.resolve(options.workspaceRoot ?? path.dirname(path.resolve(options.dir)));
    this.env = createMachineEnv({
      ...(options.now ? { now: options.now } : {}),
      resolveInvoke: (name, fromFile) => {
        const found = fromFile ? this.registry.resolve(name, fromFile) : undefined;
        if (!found?.file) return undefined;
        try {
          return { workflow: found.workflow, text: fs.readFileSync(found.file, 'utf8'), file: found.file };
        } catch {
          return undefined;
        }
      },
    });
  }

  /** The active run, or why there is none or why it cannot be read. Never throws. */
  active(): ActiveRun<RunSnapshot> {
    const read = this.store.readActive();
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

  /** The active run; throws RunnerError when there is none or it is unreadable. */
  requireActive(): RunSnapshot {
    const active = this.active();
    if (active.kind === 'ok') return active.run;
    if (active.kind === 'none') throw new RunnerError('no_active_run', `no active run (${active.why}): start one with \`stategate run start WORKFLOW_FILE\``);
    throw new RunnerError('run_unreadable', active.reason);
  }

  /** Validate and start a workflow file as the active run (a running active run is stopped first). */
  start(file: string, context?: JsonObject): { run: RunSnapshot; replaced?: string } {
    const { text, abs } = this.readWorkflowFile(file);
    const check = checkWorkflowFile(text, abs);
    const errors = check.diagnostics.filter((d) => d.severity === 'error');
    if (!check.workflow || errors.length) {
      const first = errors[0]?.message ?? 'not a workflow';
      throw new RunnerError('invalid_workflow', `${file} has ${errors.length || 1} error(s); first: ${first} (run \`stategate validate ${file}\`)`);
    }
    const runId = RunStore.newRunId();
    const started = machine.startRun(check.workflow, text, { runId, file: abs, hash: hashText(text), ...(context ? { context } : {}) }, this.env);
    if (!started.run) throw new RunnerError(started.outcome.error?.code ?? 'start_failed', started.outcome.error?.message ?? 'the run could not start');
    const replaced = this.stopActiveIfRunning();
    this.store.create(started.run, started.journal);
    return replaced ? { run: started.run, replaced } : { run: started.run };
  }

  /** Resume the newest paused run of the workflow in `file`; with none paused, start it fresh. */
  resume(file: string): { run: RunSnapshot; resumed: boolean } {
    const { text, abs } = this.readWorkflowFile(file);
    const id = checkWorkflowFile(text, abs, { resolveInvoke: false }).workflow?.id;
    const paused = this.store
      .listRuns()
      .filter((r) => r.status === 'paused' && (r.workflow.id === id || r.workflow.file === abs))
      .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
    const newest = paused[paused.length - 1];
    if (!newest) return { run: this.start(file).run, resumed: false };
    this.stopActiveIfRunning(newest.runId);
    this.store.update(newest.runId, (r) => this.change(machine.resume(r, this.env)));
    this.store.setActive(newest.runId);
    return { run: this.store.readRun(newest.runId), resumed: true };
  }

  send(event: string, data?: JsonValue, branch?: string): machine.SendOutcome {
    return this.apply((r) => machine.sendEvent(r, event, data, this.env, branchOpt(branch)));
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
   * Stop the active run. When its files cannot be read, this is the recovery
   * step the fail-closed message names (`stategate run stop`), so it must not
   * fail with that same error: it clears `active` (enforcement is off again)
   * and leaves the run's files where they are, to inspect or rebuild from the
   * journal (docs/reliability.md).
   */
  stop(): machine.StatusOutcome & { deactivated?: string; reason?: string } {
    const active = this.active();
    if (active.kind === 'unreadable') {
      this.store.setActive(undefined);
      return { status: 'stopped', state: '', ...(active.runId ? { deactivated: active.runId } : {}), reason: `the active run could not be read, so it is no longer active (its files are kept): ${active.reason}` };
    }
    return this.apply((r) => machine.stop(r, this.env));
  }
  force(state: string, context?: JsonObject) {
    return this.apply((r) => machine.forceState(r, state, context, this.env));
  }

  /** A file was saved or written: fire the first matching interrupt. Paths outside the workspace never match. */
  fileChanged(file: string, branch?: string): machine.FileChangedOutcome {
    const rel = this.relativePath(file);
    if (rel === undefined) {
      const run = this.requireActive();
      return { interrupted: false, file, state: run.state, status: run.status, reason: 'no_match' };
    }
    return this.apply((r) => machine.fileChanged(r, rel, this.env, branchOpt(branch)));
  }

  /** Re-read the workflow file the run started from and apply it (validated; the state must still exist). */
  reload(): machine.ReloadOutcome {
    const run = this.requireActive();
    const file = run.workflow.file;
    if (!file) throw new RunnerError('no_file', 'the run was not started from a file');
    const { text } = this.readWorkflowFile(file);
    return this.apply((r) => machine.reloadDefinition(r, text, this.env));
  }

  state(branch?: string): StateView & { run_id: string; definition_changed: boolean } {
    const run = this.requireActive();
    return { run_id: run.runId, ...machine.describe(run, this.env, branchOpt(branch)), definition_changed: this.definitionChanged(run) };
  }

  /** Whether the workflow file changed (or vanished) since the run started: the run keeps its own copy. */
  definitionChanged(run: RunSnapshot): boolean {
    if (!run.workflow.file) return false;
    try {
      return hashText(fs.readFileSync(run.workflow.file, 'utf8')) !== run.workflow.hash;
    } catch {
      return true;
    }
  }

  /**
   * Decide a tool call before it runs (DESIGN.md's enforcement table, then the
   * state's rules). An allowed call is counted. Never throws: anything that
   * goes wrong while a run is active is a denial that says why.
   */
  async tool(call: ToolCall, opts: ToolOptions = {}): Promise<ToolAnswer> {
    const off = (reason: string): ToolAnswer => ({ decision: 'allow', reason, notices: [], counted: false, enforcement: 'off' });
    const denied = (reason: string, state?: string): ToolAnswer => ({ decision: 'deny', reason, notices: [], counted: false, enforcement: 'on', ...(state ? { state } : {}) });
    try {
      const active = this.active();
      if (active.kind === 'none') return off(`nothing to enforce: ${active.why}`);
      if (active.kind === 'unreadable') return denied(`stategate cannot read the active run, so it denies every tool call: ${active.reason}`);
      const run = active.run;
      if (run.status !== 'running') return { ...off(`the run is ${run.status}: enforcement is off`), state: run.state };
      // stategate's own tools pass before anything else: an agent not yet bound to a branch of a
      // parallel fork must still be able to bind itself (statewright_load_workflow) or read the state.
      if (isOwnTool(call.tool)) return { decision: 'allow', notices: [], counted: false, enforcement: 'on', state: run.state };
      const here = machine.locate(run, this.env, branchOpt(opts.branch));
      if ('code' in here) return denied(`stategate cannot tell which state applies: ${here.message}`, run.state);
      if (here.node.kind === 'final') return { ...off(`the run is in final state '${here.node.id}': enforcement is off`), state: here.node.id };
      const aliases = this.aliasesFor(opts);
      const policy: PolicyOptions = { ...branchOpt(opts.branch), workspaceRoot: this.workspaceRoot, ...(aliases ? { aliases } : {}), ...(await this.shellInputs(here.node, call, aliases)) };
      return this.apply((r) => {
        // The run may have moved while the command was analysed: decide only on the state analysed.
        if (r.status !== 'running') return { run: r, journal: [], outcome: { ...off(`the run is ${r.status}: enforcement is off`), state: r.state } };
        const now = machine.locate(r, this.env, branchOpt(opts.branch));
        if ('code' in now || now.node.id !== here.node.id) {
          return { run: r, journal: [], outcome: denied(`the workflow moved to another state while this call was being decided; call again`, r.state) };
        }
        const d = decide(r, call, this.env, policy);
        return { ...d, outcome: { ...d.outcome, enforcement: 'on' as const } };
      });
    } catch (err) {
      const message = err instanceof RunnerError ? err.message : `internal error: ${(err as Error)?.message ?? String(err)}`;
      return denied(`stategate could not decide, so it denies: ${message}`);
    }
  }

  /** Record what a call did after it ran: result bytes, the edited file, the interrupt it fires. */
  result(call: ToolCall, result: ToolResult, opts: ToolOptions = {}): RecordOutcome & { enforcement: 'on' | 'off' } {
    const active = this.active();
    if (active.kind === 'unreadable') throw new RunnerError('run_unreadable', active.reason);
    if (active.kind === 'none' || active.run.status !== 'running') {
      return { notices: [], interrupted: false, state: active.kind === 'ok' ? active.run.state : '', enforcement: 'off' };
    }
    const aliases = this.aliasesFor(opts);
    const out = this.apply((r) => record(r, call, result, this.env, { ...branchOpt(opts.branch), workspaceRoot: this.workspaceRoot, ...(aliases ? { aliases } : {}) }));
    return { ...out, enforcement: 'on' };
  }

  /** The caller's aliases, else the store's tool-aliases.json (the setting, for processes outside VS Code). */
  private aliasesFor(opts: ToolOptions): ExtraAliases | undefined {
    if (opts.aliases) return opts.aliases;
    const read = readToolAliases(this.store.dir);
    if (!read.ok) throw new RunnerError('aliases_unreadable', read.reason);
    return read.aliases;
  }

  /** The shell verdict (and rewrite) for a shell call, computed before taking the lock. */
  private async shellInputs(node: import('./model.js').StateNode, call: ToolCall, aliases?: ExtraAliases): Promise<Pick<PolicyOptions, 'shell' | 'rewrite'>> {
    const extracted = extractCall(call.tool, call.input, aliases);
    if (extracted.kind !== 'shell' || extracted.command === undefined) return {};
    const rules = shellCheckFor(node, extracted, call.tool, aliases);
    const out: { shell?: ShellVerdict; rewrite?: unknown } = {};
    if (rules) out.shell = this.analyseShell ? await this.analyseShell(extracted.command, rules) : { ok: false, reason: 'no shell analyser is available' };
    const overrides = node.rules.envOverrides;
    if (this.rewriteShell && (node.rules.blockedEnv.length || Object.keys(overrides).length) && call.input && typeof call.input === 'object') {
      out.rewrite = { ...(call.input as object), command: this.rewriteShell(extracted.command, node.rules.blockedEnv, overrides) };
    }
    return out;
  }

  /** Workspace-relative `/`-separated path, or undefined when outside the workspace. */
  relativePath(file: string): string | undefined {
    const abs = path.resolve(this.workspaceRoot, file);
    const rel = path.relative(this.workspaceRoot, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel.split(path.sep).join('/');
  }

  /** Apply a machine operation to the active run under the lock. */
  apply<O>(op: (run: RunSnapshot) => MachineResult<O>): O {
    try {
      return this.store.updateActive((run) => this.change(op(run)));
    } catch (err) {
      if (err instanceof StoreError) throw new RunnerError(err.code, err.message);
      throw err;
    }
  }

  private change<O>(result: MachineResult<O>) {
    return { run: result.run, journal: result.journal, result: result.outcome };
  }

  private stopActiveIfRunning(except?: string): string | undefined {
    const active = this.active();
    if (active.kind !== 'ok' || active.runId === except || active.run.status !== 'running') return undefined;
    this.store.update(active.runId, (r) => this.change(machine.stop(r, this.env)));
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

function branchOpt(branch: string | undefined): machine.BranchOption {
  return branch === undefined ? {} : { branch };
}
