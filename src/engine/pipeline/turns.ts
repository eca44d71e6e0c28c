/**
 * Turn accounting. A client asks before each model turn of a stage
 * (`beginTurn`); the stage may take `turn_cap` turns, so asking for one more
 * than that fails the stage instead: the stage's transition on `on_fail` when
 * it has one, else the run fails (docs/pipelines.md).
 */
import type { Workflow } from '../model/index.js';
import { sendEvent, type MachineEnv, type MachineResult } from '../machine/operations.js';
import type { JournalEntry, RunSnapshot, RunStatus } from '../machine/run.js';
import { stageFor } from './positions.js';
import { scoped } from './stage-sync.js';
import { emptyPipeline, type StageExec } from '../model/pipeline.js';

/** The event a stage's failure sends, when the stage has a transition on it. */
export const STAGE_FAIL_EVENT = 'on_fail';

export interface TurnOutcome {
  /** The turn may go ahead. */
  allowed: boolean;
  state: string;
  status: RunStatus;
  turn?: number;
  turn_cap?: number;
  stage_exec_id?: string;
  attempt?: number;
  /** The cap was reached: the stage failed (and where the run went). */
  failed?: { reason: string; to: string };
  error?: { code: string; message: string };
}

export function beginTurn(run: RunSnapshot, env: MachineEnv, branch?: string): MachineResult<TurnOutcome> {
  if (run.status !== 'running') return { run, journal: [], outcome: { allowed: false, state: run.state, status: run.status, error: { code: 'not_running', message: `the run is ${run.status}` } } };
  const at = stageFor(run, (t: string): Workflow | undefined => env.load(t), branch);
  if (typeof at === 'string' || !at.exec) {
    const message = typeof at === 'string' ? at : 'the stage has no execution recorded';
    return { run, journal: [], outcome: { allowed: false, state: run.state, status: run.status, error: { code: 'not_a_stage', message } } };
  }
  const { node, live, exec } = at;
  const now = env.now();
  const pipeline = run.pipeline ?? emptyPipeline();
  const cap = node.turnCap;
  const ids = { stage_exec_id: exec.id, attempt: exec.attempt };
  if (cap !== undefined && exec.turns >= cap) {
    const reason = `turn_cap reached: stage "${node.id}" took its ${cap} turn${cap === 1 ? '' : 's'} without a valid ${node.completionTool} call`;
    const ended: StageExec = { ...exec, ended: { outcome: 'failed', reason } };
    const marked: RunSnapshot = { ...run, pipeline: { ...pipeline, execs: { ...pipeline.execs, [live.scope]: ended } } };
    const failed = failStage(marked, node.on.some((t) => t.event === STAGE_FAIL_EVENT), env, live.branch, now);
    return { run: failed.run, journal: failed.journal, outcome: { allowed: false, state: node.id, status: failed.run.status, turn_cap: cap, ...ids, failed: { reason, to: failed.to } } };
  }
  const turn = exec.turns + 1;
  const next: RunSnapshot = { ...run, pipeline: { ...pipeline, execs: { ...pipeline.execs, [live.scope]: { ...exec, turns: turn } } } };
  const entry: JournalEntry = { kind: 'turn', ...ids, state: node.id, turn, ...(cap === undefined ? {} : { turn_cap: cap }), at: now, ...scoped(live.scope) };
  return { run: next, journal: [entry], outcome: { allowed: true, state: node.id, status: run.status, turn, ...(cap === undefined ? {} : { turn_cap: cap }), ...ids } };
}

/** The stage's on_fail transition, else the whole run fails (stage-sync.ts journals the exit and the run's new status). */
function failStage(run: RunSnapshot, hasOnFail: boolean, env: MachineEnv, branch: string | undefined, at: string): { run: RunSnapshot; journal: JournalEntry[]; to: string } {
  if (hasOnFail) {
    const sent = sendEvent(run, STAGE_FAIL_EVENT, undefined, env, branch === undefined ? {} : { branch });
    if (!sent.outcome.error) return { run: sent.run, journal: sent.journal, to: sent.outcome.to };
  }
  return { run: { ...run, status: 'failed', updatedAt: at }, journal: [], to: '' };
}
