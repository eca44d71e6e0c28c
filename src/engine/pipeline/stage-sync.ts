/**
 * Stage executions follow the run wherever it goes. After every operation on a
 * pipeline run (a completion, an agent's statewright_transition, a fork, a
 * force, a stop...), the live positions are compared with the recorded
 * executions: one whose position left its state (or re-entered it) exits, and
 * every position that now stands in a stage starts a new execution. So the
 * audit's `stage_exit`, `next_stage` and `stage_setup` come from one place,
 * whichever client moved the run.
 */
import type { JournalEntry, RunSnapshot } from '../machine/run.js';
import type { StateNode, Workflow } from '../model/index.js';
import { livePositions, stageNode, type LivePosition } from './positions.js';
import { emptyPipeline, type PipelineState, type StageExec } from '../model/pipeline.js';

/** A run that may be a pipeline: its definition has stage fields, or it already has pipeline state. */
export function mayBePipeline(run: RunSnapshot): boolean {
  // `completionTool` is the field's camelCase spelling (formats/stage-read.ts).
  const text = run.workflow.definitionText;
  return run.pipeline !== undefined || text.includes('completion_tool') || text.includes('completionTool');
}

/** The run with its stage executions brought up to date, and the audit entries that says so. */
export function syncStages(run: RunSnapshot, at: string, load: (text: string) => Workflow | undefined): { run: RunSnapshot; journal: JournalEntry[] } {
  if (!mayBePipeline(run) || run.status === 'paused') return { run, journal: [] };
  const before = run.pipeline ?? emptyPipeline();
  const live = run.status === 'running' ? livePositions(run, load) : [];
  // An ended execution (completed, failed) never stays: a statechart's transition to the node it leaves
  // need not re-enter it (XState's reenter: false), yet the stage is done and its next attempt starts.
  const stays = (e: StageExec, l: LivePosition | undefined): boolean => !e.ended && l !== undefined && l.position.state === e.state && l.position.counters.transitions === e.enteredAt;
  const byScope = new Map(live.map((l) => [l.scope, l]));
  const journal: JournalEntry[] = [];
  const execs: Record<string, StageExec> = {};
  const exited: StageExec[] = [];
  for (const [scope, e] of Object.entries(before.execs)) {
    if (stays(e, byScope.get(scope))) execs[scope] = e;
    else exited.push(e);
  }
  const kept = new Set(Object.keys(execs));
  const entered = live.filter((l) => !kept.has(l.scope) && stageNode(l));
  if (!exited.length && !entered.length) return { run, journal };

  const pipeline: PipelineState = { ...before, execs, attempts: { ...before.attempts } };
  for (const e of exited) {
    // A branch whose position is gone without its stage ending was cancelled (a sibling failed the fork, or the run ended).
    const cancelled = e.scope.includes('branch:') && !byScope.has(e.scope);
    const outcome = e.ended?.outcome ?? (cancelled ? 'cancelled' : run.status === 'failed' ? 'failed' : run.status === 'stopped' ? 'stopped' : 'left');
    journal.push({ kind: 'stage_exit', stage_exec_id: e.id, attempt: e.attempt, state: e.state, outcome, turns: e.turns, ...(e.ended?.reason ? { reason: e.ended.reason } : {}), at, ...scoped(e.scope) });
  }
  const started: StageExec[] = [];
  const nodes = new Map<string, StateNode>();
  for (const l of entered) {
    const node = stageNode(l)!;
    nodes.set(l.scope, node);
    const attempt = (pipeline.attempts[node.id] ?? 0) + 1;
    pipeline.attempts[node.id] = attempt;
    pipeline.seq += 1;
    const exec: StageExec = { id: `se-${pipeline.seq}`, state: node.id, scope: l.scope, attempt, turns: 0, startedAt: at, enteredAt: l.position.counters.transitions };
    execs[l.scope] = exec;
    started.push(exec);
  }
  // The pipeline's decision: which stages follow the ones that ended (or none: the run ended or left the stages).
  const last = exited[exited.length - 1];
  if (last) {
    const to = live.filter((l) => !kept.has(l.scope)).map((l) => l.position.state);
    journal.push({ kind: 'next_stage', stage_exec_id: last.id, attempt: last.attempt, state: last.state, from: exited.map((e) => e.state), to: [...new Set(to)], at, ...(run.status === 'running' ? {} : { status: run.status }) });
  }
  for (const exec of started) {
    const node = nodes.get(exec.scope)!;
    journal.push({
      kind: 'stage_setup',
      stage_exec_id: exec.id,
      attempt: exec.attempt,
      state: exec.state,
      completion_tool: node.completionTool!,
      allowed_tools: node.rules.allowedTools ? [...node.rules.allowedTools] : null,
      ...(node.turnCap === undefined ? {} : { turn_cap: node.turnCap }),
      at,
      ...scoped(exec.scope),
    });
  }
  // Grants and open proposals belong to a stage execution: they end with it.
  pipeline.grants = before.grants.filter((g) => Object.values(execs).some((e) => e.id === g.stageExecId));
  pipeline.proposals = before.proposals.filter((p) => Object.values(execs).some((e) => e.id === p.stageExecId));
  return { run: { ...run, pipeline }, journal };
}

export function scoped(scope: string): { scope?: string } {
  return scope === '' ? {} : { scope };
}
