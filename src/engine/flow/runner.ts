/**
 * The step loop of one flow instance: run the state, capture its output,
 * route, persist, repeat (docs/flows.md). Every change of the instance is
 * written before the next state starts (instance-store.ts), so another
 * process sees where it is, a `flow stop` between two states means the next
 * one never runs, and a kill -9 leaves an instance that names the state it
 * was in. A sub-flow is a frame of the same loop one level down: its states
 * are `<state>/<child>` in the record, its variables come back as
 * `<state>::<var>`.
 */
import * as path from 'node:path';
import type { FlowStep, JsonObject, StateNode } from '../model/index.js';
import type { FileLock } from '../util/lock.js';
import type { FlowHost, ToolOutcome } from './host.js';
import { runEffect, type EffectContext } from './effects.js';
import { appendLog, readInstance, statePath as statePathOf, summaryOf, updateInstance, type FrameRecord, type InstanceRecord } from './instance-store.js';
import type { LoadedFlow } from './load.js';
import { captured, writeOutputFile } from './outputs.js';
import { parallelTasks, runParallel } from './parallel.js';
import { routeExit, routeSwitch, type Route } from './routing.js';
import { FAILURE_EXIT, StateFailure } from './failure.js';
import type { ChildStart, Entry } from './entry.js';
import { enterSubFlow, namespaced } from './sub-flow.js';
import { asText, renderText, renderValue, type Variables } from './template.js';
import type { FlowSummary, TrustCheck } from './types.js';

/** How a frame ended (a pause or a stop does not end it: they unwind with Halt). */
export interface FrameEnd {
  readonly status: 'completed' | 'failed';
  readonly exitCode: number;
  readonly message?: string;
  readonly variables: Variables;
  readonly state: string;
}

/** The instance paused or was stopped; its record already says which. */
class Halt extends Error {}


/** In-process runs by instance folder, so `stopFlow` in the same process (the extension host) aborts without a signal. */
const local = new Map<string, AbortController>();

/** Abort every flow this process runs (the CLI calls it on SIGTERM from `flow stop`, then prints the stopped summary). */
export function abortFlowRuns(): void {
  for (const c of local.values()) c.abort();
}

export function abortLocalRun(key: string): boolean {
  const c = local.get(key);
  c?.abort();
  return c !== undefined;
}

export function runKey(workspace: string, instance: string): string {
  return `${path.resolve(workspace)}\0${instance}`;
}

type StepResult =
  | { readonly kind: 'outcome'; readonly outcome: ToolOutcome }
  | { readonly kind: 'goto'; readonly state: string; readonly value: string }
  | { readonly kind: 'pause'; readonly reason: string };

export class FlowRun {
  private rec: InstanceRecord;
  private readonly abort = new AbortController();
  private readonly key: string;
  private readonly ctx: EffectContext;

  constructor(
    private readonly host: FlowHost,
    rec: InstanceRecord,
    private readonly lock: FileLock,
    /** In a run started from a person's trust: what each sub-flow entered is checked by (load.ts). */
    private readonly trust?: TrustCheck,
  ) {
    this.rec = rec;
    this.key = runKey(host.workspace, rec.instance);
    this.ctx = { host, answers: rec.answers, signal: this.abort.signal, recordPgid: (pgid) => this.recordPgid(pgid) };
  }

  /** Drive the instance from `entry` until it ends, pauses or is stopped; the lock is released at the end. */
  async run(top: LoadedFlow, entry: Entry): Promise<FlowSummary> {
    local.set(this.key, this.abort);
    try {
      const end = await this.frame(0, top, this.rec.frames[0]?.variables ?? {}, entry);
      this.commit({
        status: end.status,
        exit_code: end.exitCode,
        message: end.message,
        frames: [{ file: top.file, state: end.state, phase: 'done', next: null, variables: { ...end.variables } }],
        pgids: [],
        pause_requested: false,
      });
      this.host.sink.progress(end.status === 'completed' ? `■ ${this.rec.instance} completed` : `■ ${this.rec.instance} failed (exit ${end.exitCode})${end.message ? `: ${end.message}` : ''}`);
    } catch (err) {
      if (!(err instanceof Halt)) this.crashed(err as Error);
    } finally {
      local.delete(this.key);
      this.lock.release();
    }
    try {
      return summaryOf(readInstance(this.host.workspace, this.rec.instance));
    } catch {
      return summaryOf(this.rec);
    }
  }

  /**
   * Something the runner did not expect (a full disk, a lock held too long).
   * In a process that lives on (the extension host) the instance would
   * otherwise stay `running` under a live pid forever: it is marked failed,
   * naming the cause. When even that cannot be written, the error goes up.
   */
  private crashed(err: Error): void {
    try {
      updateInstance(this.host.workspace, this.rec.instance, (disk) =>
        disk.status === 'running' ? { ...disk, status: 'failed', exit_code: FAILURE_EXIT, message: `the runner failed at \`${statePathOf(disk)}\`: ${err.message}`, pgids: [] } : undefined,
      );
    } catch {
      throw err;
    }
    this.host.sink.progress(`■ ${this.rec.instance} failed: ${err.message}`);
  }

  private async frame(depth: number, flow: LoadedFlow, initial: Variables, entry: Entry): Promise<FrameEnd> {
    const vars: Record<string, string> = { ...initial };
    const wf = flow.workflow;
    let child: ChildStart | undefined;
    let current: string;
    let last = this.rec.frames[depth]?.state ?? wf.initial.name;
    switch (entry.kind) {
      case 'start':
        current = wf.initial.name;
        break;
      case 'at':
        current = entry.state;
        break;
      case 'into':
        current = entry.state;
        child = entry.child;
        break;
      case 'after':
        if (entry.next === null) return { status: 'completed', exitCode: 0, variables: vars, state: last };
        current = entry.next;
    }
    const prefix = this.rec.frames.slice(0, depth).map((f) => `${f.state}/`).join('');
    for (;;) {
      const node = wf.states.get(current);
      const statePath = `${prefix}${current}`;
      if (!node?.flow) return { status: 'failed', exitCode: FAILURE_EXIT, message: `state \`${statePath}\` is not in ${flow.file} (was the file changed?)`, variables: vars, state: last };
      last = current;
      const step = node.flow;
      this.setFrame(depth, { file: flow.file, state: current, phase: 'running', variables: { ...vars } }, child !== undefined);
      this.commit({ pgids: [] });
      const started = this.host.now();
      this.host.sink.progress(`▶ ${statePath} (${step.tool})`);
      let result: StepResult | undefined;
      let failure: string | undefined;
      try {
        result = await this.step(depth, flow, node, statePath, vars, child);
      } catch (err) {
        if (!(err instanceof StateFailure)) throw err;
        failure = err.message;
      }
      child = undefined;
      const ended = this.host.now();
      const exitCode = result?.kind === 'outcome' ? result.outcome.exitCode : failure === undefined ? 0 : null;
      const stdout = result?.kind === 'outcome' ? result.outcome.stdout : '';
      appendLog(this.host.workspace, this.rec.instance, { state: statePath, exit_code: exitCode, started: started.toISOString(), ended: ended.toISOString(), bytes: Buffer.byteLength(stdout) });
      const secs = `${((ended.getTime() - started.getTime()) / 1000).toFixed(1)} s`;
      this.host.sink.progress(exitCode === 0 ? `✓ ${statePath} ${secs}` : `✗ ${statePath} ${exitCode === null ? 'failed' : `exit ${exitCode}`} ${secs}`);
      this.commit({ pgids: [] }); // a stop while the state ran ends here: the next state never starts
      if (failure !== undefined || !result) {
        return { status: 'failed', exitCode: FAILURE_EXIT, message: `state \`${statePath}\`: ${failure ?? 'no result'}`, variables: vars, state: current };
      }
      if (result.kind === 'pause') {
        this.setFrame(depth, { file: flow.file, state: current, phase: 'done', next: step.next?.name ?? null, variables: { ...vars } }, false);
        this.commit({ status: 'paused', exit_code: 0, message: result.reason, pause_requested: false });
        this.host.sink.progress(`⏸ ${this.rec.instance} paused at ${statePath}: ${result.reason}`);
        throw new Halt();
      }
      const route: Route = result.kind === 'goto' ? { kind: 'goto', state: result.state } : routeExit(step, result.outcome.exitCode);
      if (route.kind === 'end') {
        const message = route.status === 'failed' ? (result.kind === 'outcome' ? result.outcome.message : undefined) ?? `state \`${statePath}\` exited with ${route.exitCode}` : undefined;
        return { status: route.status, exitCode: route.exitCode, variables: vars, state: current, ...(message !== undefined ? { message } : {}) };
      }
      if (this.rec.pause_requested) {
        this.setFrame(depth, { file: flow.file, state: current, phase: 'done', next: route.state, variables: { ...vars } }, false);
        this.commit({ status: 'paused', exit_code: 0, message: `paused on request after \`${statePath}\`; resuming continues at \`${prefix}${route.state}\``, pause_requested: false });
        this.host.sink.progress(`⏸ ${this.rec.instance} paused after ${statePath}`);
        throw new Halt();
      }
      current = route.state;
    }
  }

  /** Run one state's tool; its `output` is captured here (also when it fails: a failing test's output is what a handler reads). */
  private async step(depth: number, flow: LoadedFlow, node: StateNode, statePath: string, vars: Record<string, string>, child: ChildStart | undefined): Promise<StepResult> {
    const step = node.flow as FlowStep;
    switch (step.tool) {
      case 'switch': {
        const value = renderText(asText(step.arguments.value), vars);
        const target = routeSwitch(step, value);
        if (target === undefined) {
          throw new StateFailure(`switch value \`${value}\` matches no \`goto\` key (${step.goto.map((g) => `\`${g.value}\``).join(', ')}) and there is no \`_\` default`);
        }
        if (step.output?.kind === 'var') vars[step.output.name] = value;
        return { kind: 'goto', state: target, value };
      }
      case 'pause':
        return { kind: 'pause', reason: renderText(asText(step.arguments.reason), vars) };
      case 'parallel': {
        const tasks = parallelTasks(step, flow.workflow, vars);
        const { results, outcome } = await runParallel(this.ctx, statePath, node.key, tasks, flow.tools);
        for (const r of results) this.capture(r.task.output, r.outcome.stdout, vars);
        this.capture(step.output, outcome.stdout, vars);
        return { kind: 'outcome', outcome };
      }
      case 'sub-flow': {
        const start = child ?? enterSubFlow(step, vars, flow, this.host.workspace, depth, this.trust);
        const end = await this.frame(depth + 1, start.flow, start.variables, start.entry);
        this.setFrame(depth, { file: flow.file, state: node.key, phase: 'running', variables: { ...vars } }, false);
        Object.assign(vars, namespaced(node.key, end.variables));
        const outcome: ToolOutcome = { exitCode: end.exitCode, stdout: '', ...(end.message !== undefined ? { message: end.message } : {}) };
        return { kind: 'outcome', outcome };
      }
      default: {
        const args = renderValue(step.arguments, vars) as JsonObject;
        let outcome: ToolOutcome;
        try {
          const custom = flow.tools?.get(step.tool);
          outcome = await runEffect(this.ctx, { path: statePath, name: node.key, tool: step.tool, args, ...(custom ? { custom } : {}) });
        } catch (err) {
          // A host is asked never to throw for an expected failure; one that does still ends the state, not the runner.
          outcome = { exitCode: FAILURE_EXIT, stdout: '', message: `\`${step.tool}\` failed: ${(err as Error).message}` };
        }
        if (outcome.message && outcome.exitCode !== 0) this.host.sink.progress(`  ${statePath}: ${outcome.message}`);
        this.capture(step.output, outcome.stdout, vars);
        return { kind: 'outcome', outcome };
      }
    }
  }

  private capture(output: FlowStep['output'], stdout: string, vars: Record<string, string>): void {
    if (!output) return;
    if (output.kind === 'var') {
      vars[output.name] = captured(stdout);
      return;
    }
    try {
      writeOutputFile(this.host.workspace, output.path, stdout);
    } catch (err) {
      throw new StateFailure(`output not written: ${(err as Error).message}`);
    }
  }

  /** Frame `depth` becomes `frame`; deeper frames are dropped unless a sub-flow is being resumed into them. */
  private setFrame(depth: number, frame: FrameRecord, keepDeeper: boolean): void {
    const frames = [...this.rec.frames.slice(0, depth), frame, ...(keepDeeper ? this.rec.frames.slice(depth + 1) : [])];
    this.rec = { ...this.rec, frames };
  }

  /**
   * Write the in-memory record (with `change`) under the instance lock. What
   * another process may have changed is kept: a `stopped` status (then
   * nothing is written and the run unwinds) and a pause request.
   */
  private commit(change: Partial<Omit<InstanceRecord, 'message'>> & { message?: string | undefined }): void {
    let stopped = false;
    updateInstance(this.host.workspace, this.rec.instance, (disk) => {
      if (disk.status === 'stopped') {
        stopped = true;
        this.rec = disk;
        return undefined;
      }
      const { message, ...rest } = change;
      const next: InstanceRecord = { ...this.rec, pause_requested: disk.pause_requested ?? false, ...rest, updated: this.host.now().toISOString() };
      this.rec = 'message' in change ? withMessage(next, message) : next;
      return this.rec;
    });
    if (stopped) {
      this.host.sink.progress(`■ ${this.rec.instance} stopped`);
      throw new Halt();
    }
  }

  private recordPgid(pgid: number): void {
    const rec = updateInstance(this.host.workspace, this.rec.instance, (disk) => (disk.status === 'stopped' ? undefined : { ...disk, pgids: [...disk.pgids, pgid] }));
    // Stopped between the command's start and this record: it would escape `flow stop`, so it ends now.
    if (rec.status === 'stopped') killGroup(pgid);
    else this.rec = { ...this.rec, pgids: rec.pgids };
  }
}

function withMessage(rec: InstanceRecord, message: string | undefined): InstanceRecord {
  const { message: _old, ...rest } = rec;
  return message === undefined ? rest : { ...rest, message };
}

/** SIGKILL a process group; one already gone is fine. */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    /* gone already */
  }
}
