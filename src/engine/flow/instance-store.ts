/**
 * Flow instances on disk: `<workspace>/.stategate/flows/<instance>/` holds
 * `instance.json` (status, the state path as a stack of frames, variables,
 * the runner's pid and the running state's process groups) and `log.jsonl`
 * (one line per state run). instance.json is written atomically
 * (util/atomic-file.ts) under `instance.lock`, so the runner and another
 * process (`flow stop`, `flow pause`) never lose each other's change;
 * `runner.lock` is held by the one process driving the instance for as long
 * as it runs, so two runners never drive one instance. A dead runner's locks
 * are stale and broken by the next taker (util/lock.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appendLinesDurable, writeFileAtomic } from '../util/atomic-file.js';
import { FileLock, LockBusyError, myStart, processRunning, withFileLock } from '../util/lock.js';
import { FlowError, type FlowLogEntry, type FlowStatusName, type FlowSummary } from './types.js';

export const INSTANCE_VERSION = 1;

/**
 * One level of the state path: the top flow, then one per sub-flow being run.
 * `phase: 'running'`: `state` is running (or about to). `phase: 'done'`:
 * `state` has run and the frame continues at `next` (null: the frame ends),
 * which is how a pause (and a pause request) is kept.
 */
export interface FrameRecord {
  /** The flow file of this level, absolute. */
  readonly file: string;
  readonly state: string;
  readonly phase: 'running' | 'done';
  readonly next?: string | null;
  readonly variables: Record<string, string>;
}

export type StoredStatus = Exclude<FlowStatusName, 'interrupted'>;

export interface InstanceRecord {
  readonly version: number;
  readonly instance: string;
  readonly flow: string;
  readonly status: StoredStatus;
  readonly exit_code: number | null;
  readonly message?: string;
  /** [0] is the top flow; never empty. */
  readonly frames: readonly FrameRecord[];
  readonly answers: Readonly<Record<string, string>>;
  /** The process driving the instance (its start time tells a reused pid apart). */
  readonly runner?: { readonly pid: number; readonly start?: string };
  /** Process groups of the commands running now (a parallel state runs several). */
  readonly pgids: readonly number[];
  /** Set by `pauseFlow`: the runner pauses after the state running now. */
  readonly pause_requested?: boolean;
  readonly created: string;
  readonly updated: string;
}

export function flowsDir(workspace: string): string {
  return path.join(workspace, '.stategate', 'flows');
}

export function instanceDir(workspace: string, instance: string): string {
  return path.join(flowsDir(workspace), instance);
}

export function instanceFile(workspace: string, instance: string): string {
  return path.join(instanceDir(workspace, instance), 'instance.json');
}

function logFile(workspace: string, instance: string): string {
  return path.join(instanceDir(workspace, instance), 'log.jsonl');
}

/** An instance name is a folder name: letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
export function checkInstanceName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name)) {
    throw new FlowError('invalid_name', `instance name ${JSON.stringify(name)} is not usable: use letters, digits, \`.\`, \`_\` and \`-\`, starting with a letter or digit`);
  }
}

/** Make the instance's folder; refused when the name is taken. */
export function createInstanceDir(workspace: string, instance: string): void {
  checkInstanceName(instance);
  fs.mkdirSync(flowsDir(workspace), { recursive: true });
  try {
    fs.mkdirSync(instanceDir(workspace, instance));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new FlowError('exists', `a flow instance named ${instance} already exists in ${flowsDir(workspace)}: pick another --name, or \`flow resume ${instance}\``);
    }
    throw err;
  }
}

/** `<flow>-<n>` with the next free n, its folder made (so two starts at once get two names). */
export function createNumberedInstance(workspace: string, flow: string): string {
  const base = flow.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 100) || 'flow';
  let n = 1 + Math.max(0, ...listInstanceNames(workspace).map((name) => (name.startsWith(`${base}-`) ? Number(name.slice(base.length + 1)) : 0)).filter(Number.isInteger));
  for (;;) {
    try {
      createInstanceDir(workspace, `${base}-${n}`);
      return `${base}-${n}`;
    } catch (err) {
      if (!(err instanceof FlowError && err.code === 'exists')) throw err;
      n++;
    }
  }
}

export function listInstanceNames(workspace: string): string[] {
  try {
    return fs
      .readdirSync(flowsDir(workspace), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/** The instance as stored; a missing or unreadable instance.json is a FlowError naming the file (which is left as it is). */
export function readInstance(workspace: string, instance: string): InstanceRecord {
  checkInstanceName(instance);
  const file = instanceFile(workspace, instance);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new FlowError('no_instance', `no flow instance named ${instance} in ${flowsDir(workspace)} (\`flow list\` shows them)`);
    throw new FlowError('io', `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw corrupt(file, `it is not JSON (${(err as Error).message})`);
  }
  const problem = recordProblem(value);
  if (problem) throw corrupt(file, problem);
  return value as InstanceRecord;
}

function corrupt(file: string, why: string): FlowError {
  return new FlowError(
    'corrupt_instance',
    `${file} is not a readable flow instance: ${why}. It was left as it is (nothing was changed); restore it from a copy, or remove its folder to forget the instance.`,
  );
}

function recordProblem(v: unknown): string | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'it is not a JSON object';
  const r = v as Record<string, unknown>;
  if (r.version !== INSTANCE_VERSION) return `its version is ${JSON.stringify(r.version)}, this stategate reads version ${INSTANCE_VERSION}`;
  if (typeof r.instance !== 'string' || typeof r.flow !== 'string') return 'it has no `instance` or `flow` name';
  if (!['running', 'completed', 'failed', 'paused', 'stopped'].includes(r.status as string)) return `its status ${JSON.stringify(r.status)} is unknown`;
  if (!Array.isArray(r.frames) || r.frames.length === 0) return 'it has no state (`frames`)';
  for (const f of r.frames as unknown[]) {
    const fr = f as Record<string, unknown> | null;
    if (!fr || typeof fr.file !== 'string' || typeof fr.state !== 'string' || (fr.phase !== 'running' && fr.phase !== 'done') || !isStringMap(fr.variables)) return 'a frame of its state path is malformed';
  }
  if (!isStringMap(r.answers) || !Array.isArray(r.pgids)) return 'its `answers` or `pgids` are malformed';
  return undefined;
}

function isStringMap(v: unknown): v is Record<string, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

export function writeInstance(workspace: string, rec: InstanceRecord): void {
  writeFileAtomic(instanceFile(workspace, rec.instance), `${JSON.stringify(rec, null, 2)}\n`);
}

const LOCK_WAIT = { timeoutMs: 5000 };

/** Read, change and write instance.json under its lock; `change` returning undefined writes nothing. */
export function updateInstance(workspace: string, instance: string, change: (rec: InstanceRecord) => InstanceRecord | undefined): InstanceRecord {
  readInstance(workspace, instance); // no such instance (or a corrupt one): said before a lock file is made in a folder that may not exist
  return withFileLock(path.join(instanceDir(workspace, instance), 'instance.lock'), LOCK_WAIT, () => {
    const rec = readInstance(workspace, instance);
    const next = change(rec);
    if (!next) return rec;
    writeInstance(workspace, next);
    return next;
  });
}

/** Take the instance's runner lock (at once or never): the caller is the one process driving it. */
export function lockRunner(workspace: string, instance: string): FileLock {
  const lock = new FileLock(path.join(instanceDir(workspace, instance), 'runner.lock'));
  try {
    lock.acquire({ timeoutMs: 0 });
  } catch (err) {
    if (err instanceof LockBusyError) {
      throw new FlowError('busy', `flow instance ${instance} is being run by another process${err.holder ? ` (pid ${err.holder.pid})` : ''}; \`flow stop ${instance}\` stops it`);
    }
    throw err;
  }
  return lock;
}

/** This process, as recorded in `runner`. */
export function thisRunner(): { pid: number; start?: string } {
  const start = myStart();
  return start ? { pid: process.pid, start } : { pid: process.pid };
}

export function appendLog(workspace: string, instance: string, entry: FlowLogEntry): void {
  appendLinesDurable(logFile(workspace, instance), [JSON.stringify(entry)]);
}

/** The log in run order; a line torn by a kill mid-append is skipped. */
export function readLog(workspace: string, instance: string): FlowLogEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(logFile(workspace, instance), 'utf8');
  } catch {
    return [];
  }
  const out: FlowLogEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as FlowLogEntry);
    } catch {
      /* torn */
    }
  }
  return out;
}

/** `running` with its runner gone is `interrupted`. */
export function effectiveStatus(rec: InstanceRecord): FlowStatusName {
  if (rec.status !== 'running') return rec.status;
  return rec.runner && processRunning(rec.runner.pid, rec.runner.start) ? 'running' : 'interrupted';
}

export function statePath(rec: InstanceRecord): string {
  return rec.frames.map((f) => f.state).join('/');
}

export function summaryOf(rec: InstanceRecord): FlowSummary {
  const status = effectiveStatus(rec);
  const state = statePath(rec);
  const message =
    status === 'interrupted'
      ? `the runner${rec.runner ? ` (pid ${rec.runner.pid})` : ''} ended while state \`${state}\` was running; \`flow resume ${rec.instance} --rerun\` runs \`${state}\` again (earlier variables kept)`
      : rec.message;
  return {
    instance: rec.instance,
    flow: rec.flow,
    status,
    state,
    exit_code: status === 'interrupted' ? null : rec.exit_code,
    variables: rec.frames[0]?.variables ?? {},
    ...(message !== undefined ? { message } : {}),
  };
}
