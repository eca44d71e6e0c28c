/**
 * The flow runner's front door (SESSION API, README.md, "The command line"): start,
 * resume, stop, pause, status, list. Everything is refused before anything
 * runs or is written when the input is bad (flow-file problems in load.ts,
 * instance problems in instance-store.ts); a refusal is a FlowError.
 */
import type { FlowHost } from './host.js';
import {
  checkInstanceName,
  createInstanceDir,
  createNumberedInstance,
  effectiveStatus,
  INSTANCE_VERSION,
  listInstanceNames,
  lockRunner,
  readInstance,
  readLog,
  statePath,
  summaryOf,
  thisRunner,
  updateInstance,
  writeInstance,
  type FrameRecord,
  type InstanceRecord,
} from './instance-store.js';
import { loadFlowFile, loadFlowTree, subFlowTrust } from './load.js';
import type { Entry } from './entry.js';
import { abortLocalRun, FlowRun, killGroup, runKey } from './runner.js';
import { declaredVariables } from './template.js';
import { FlowError, type FlowStatus, type FlowSummary, type ResumeFlowOptions, type StartFlowOptions, type TrustCheck } from './types.js';
import { processRunning } from '../util/lock.js';

/** Exit code of a stopped flow (128 + SIGINT, what a shell reports for a command interrupted by its user). */
export const STOPPED_EXIT = 130;

/** Validate the flow (and its plainly named sub-flows), create the instance and run it to its end or a pause. */
export async function startFlow(host: FlowHost, opts: StartFlowOptions): Promise<FlowSummary> {
  if (opts.name !== undefined) checkInstanceName(opts.name);
  const top = loadFlowTree(opts.file, host.workspace, host.workspace, new Set(), opts.trust);
  const wf = top.workflow;
  const flow = wf.name ?? wf.id;
  const variables = { ...declaredVariables(wf), ...(opts.vars ?? {}) };
  const instance = opts.name ?? createNumberedInstance(host.workspace, flow);
  if (opts.name !== undefined) createInstanceDir(host.workspace, instance);
  const lock = lockRunner(host.workspace, instance);
  const now = host.now().toISOString();
  const rec: InstanceRecord = {
    version: INSTANCE_VERSION,
    instance,
    flow,
    status: 'running',
    exit_code: null,
    frames: [{ file: top.file, state: wf.initial.name, phase: 'running', variables }],
    answers: { ...(opts.answers ?? {}) },
    runner: thisRunner(),
    pgids: [],
    created: now,
    updated: now,
  };
  try {
    writeInstance(host.workspace, rec);
  } catch (err) {
    lock.release();
    throw err;
  }
  host.sink.progress(`flow ${flow}: instance ${instance}`);
  return new FlowRun(host, rec, lock, subFlowTrust(opts.trust)).run(top, { kind: 'start' });
}

/**
 * Continue a paused instance after its pause; an interrupted one (its runner
 * died while a state ran) only with `rerun`, which runs that state again with
 * the variables it had. A sub-flow is resumed inside, at its nested path.
 */
export async function resumeFlow(host: FlowHost, instance: string, opts: ResumeFlowOptions = {}): Promise<FlowSummary> {
  readInstance(host.workspace, instance); // no instance, or a corrupt one: refused before any lock file is made
  const lock = lockRunner(host.workspace, instance);
  try {
    const rec = readInstance(host.workspace, instance);
    const path = statePath(rec);
    // Holding the runner lock, a `running` record has no live runner: it was interrupted.
    if (rec.status === 'running') {
      if (!opts.rerun) {
        throw new FlowError(
          'interrupted',
          `flow instance ${instance} was interrupted while state \`${path}\` was running (its runner ended without finishing it, so it may have done part of its work); \`flow resume ${instance} --rerun\` ends what that state left running and runs \`${path}\` again, keeping the earlier variables`,
        );
      }
      // The dead runner's commands may still run (a kill -9 reaches the runner, not its process groups): end them
      // before the state runs again, so two copies of it never run side by side.
      for (const pgid of rec.pgids) killGroup(pgid);
    } else if (rec.status !== 'paused') {
      throw new FlowError('not_resumable', `flow instance ${instance} is ${rec.status}: there is nothing to resume (start the flow again with \`flow run\`)`);
    }
    const top = loadFlowFile(rec.frames[0]?.file as string, host.workspace, host.workspace, opts.trust);
    const entry = entryFor(rec.frames, 0, host.workspace, subFlowTrust(opts.trust));
    const resumed: InstanceRecord = {
      ...rec,
      status: 'running',
      exit_code: null,
      answers: { ...rec.answers, ...(opts.answers ?? {}) },
      runner: thisRunner(),
      pgids: [],
      pause_requested: false,
      updated: host.now().toISOString(),
    };
    delete (resumed as { message?: string }).message;
    writeInstance(host.workspace, resumed);
    host.sink.progress(`flow ${rec.flow}: resuming ${instance} ${rec.status === 'paused' ? 'after' : 'at'} ${path}`);
    return await new FlowRun(host, resumed, lock, subFlowTrust(opts.trust)).run(top, entry);
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** Where frame `i` starts again: inside its sub-flow when a deeper frame is recorded, else at or after its state. */
function entryFor(frames: readonly FrameRecord[], i: number, workspace: string, trust: TrustCheck | undefined): Entry {
  const f = frames[i] as FrameRecord;
  const child = frames[i + 1];
  if (child) {
    const flow = loadFlowFile(child.file, workspace, workspace, trust);
    return { kind: 'into', state: f.state, child: { flow, variables: child.variables, entry: entryFor(frames, i + 1, workspace, trust) } };
  }
  return f.phase === 'done' ? { kind: 'after', next: f.next ?? null } : { kind: 'at', state: f.state };
}

/**
 * Mark the instance stopped, then end what runs: the recorded process groups
 * (SIGKILL, background children included) and the runner (aborted when it is
 * this process, else SIGTERM). The runner, seeing `stopped`, never starts the
 * next state. A completed or failed instance is left as it is.
 */
export function stopFlow(workspace: string, instance: string): FlowSummary {
  const rec = updateInstance(workspace, instance, (r) =>
    r.status === 'running' || r.status === 'paused'
      ? { ...r, status: 'stopped', exit_code: STOPPED_EXIT, message: `stopped at \`${statePath(r)}\` by \`flow stop\``, pause_requested: false, updated: new Date().toISOString() }
      : undefined,
  );
  if (rec.status === 'stopped') {
    for (const pgid of rec.pgids) killGroup(pgid);
    const inProcess = abortLocalRun(runKey(workspace, instance));
    const runner = rec.runner;
    if (!inProcess && runner && runner.pid !== process.pid && processRunning(runner.pid, runner.start)) {
      try {
        process.kill(runner.pid, 'SIGTERM');
      } catch {
        /* gone meanwhile */
      }
    }
  }
  return summaryOf(rec);
}

/** Ask a running instance to pause once the state running now has finished. */
export function pauseFlow(workspace: string, instance: string): FlowSummary {
  const rec = updateInstance(workspace, instance, (r) => {
    if (r.status === 'paused') return undefined;
    if (effectiveStatus(r) !== 'running') throw new FlowError('not_running', `flow instance ${instance} is ${effectiveStatus(r)}: only a running instance can be paused`);
    return { ...r, pause_requested: true };
  });
  return summaryOf(rec);
}

export function flowStatus(workspace: string, instance: string): FlowStatus {
  return { ...summaryOf(readInstance(workspace, instance)), log: readLog(workspace, instance) };
}

/** Every instance of the workspace; one whose instance.json cannot be read is listed as failed with the reason (its files untouched). */
export function listFlows(workspace: string): FlowSummary[] {
  const out: FlowSummary[] = [];
  for (const name of listInstanceNames(workspace)) {
    try {
      out.push(summaryOf(readInstance(workspace, name)));
    } catch (err) {
      if (err instanceof FlowError && (err.code === 'no_instance' || err.code === 'invalid_name')) continue; // being created, or not an instance folder
      out.push({ instance: name, flow: '', status: 'failed', state: '', exit_code: null, variables: {}, message: (err as Error).message });
    }
  }
  return out;
}
