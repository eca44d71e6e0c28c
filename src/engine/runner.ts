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
import { checkWorkflowFile } from './check.js';
import { createMachineEnv } from './machine-env.js';
import * as machine from './machine.js';
import type { MachineEnv, MachineResult, StateView } from './machine.js';
import type { JsonObject, JsonValue } from './model.js';
import { WorkflowRegistry } from './registry.js';
import { hashText, RUN_SNAPSHOT_VERSION, type RunSnapshot } from './run.js';
import { RunStore, StoreError, type ActiveRun } from './store.js';

export interface RunnerOptions {
  /** The `.stategate` directory. */
  readonly dir: string;
  /** Paths in interrupts are matched relative to this (default: the parent of `dir`). */
  readonly workspaceRoot?: string;
  readonly now?: () => string;
  /** How long a writer waits for the lock before answering "busy". */
  readonly lockTimeoutMs?: number;
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

  constructor(options: RunnerOptions) {
    this.store = new RunStore<RunSnapshot>(options.dir, {
      checkRun: checkRunSnapshot,
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
    });
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
    return this.store.readActive();
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
  stop() {
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
