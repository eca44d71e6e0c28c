/**
 * The run record (agent-state.json) as the panel shows it: phase, task,
 * iterations, and the cost and time bounds as used fractions for their bars.
 * Pure, from the record the store wrote (docs/run-record.md).
 */
import { countOf, parseCost, parseDuration, type AgentStateRecord } from '../../engine/index.js';
import type { BoundView, RecordSummary } from '../../protocol.js';

/** seed-spelled "0h 34m 8s" back to milliseconds. */
function elapsedMs(text: string): number {
  const m = /^(\d+)h (\d+)m (\d+)s$/.exec(text);
  return m ? (Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000 : 0;
}

function bound(used: string, usedValue: number, max: string | null, maxValue: number | undefined): BoundView {
  return { used, max, fraction: maxValue === undefined ? null : maxValue === 0 ? 1 : Math.min(1, usedValue / maxValue) };
}

/**
 * `status`: the run's status in the shared words (the record's seed status describes the work, not the run).
 * `live`: the run is running, so its time goes on between the record's writes (the panel ticks it).
 */
export function recordSummary(record: AgentStateRecord, status: string, live = false): RecordSummary {
  const o = record.orchestrator;
  const b = record.safety_bounds;
  const last = record.checkpoints[record.checkpoints.length - 1];
  // A bound the workflow does not set is written as the seed's placeholder (30, "none"): shown as no bound.
  const unset = new Set<string>(record.stategate.unbounded ?? []);
  const maxCost = unset.has('max_cost') ? null : b.max_cost;
  const maxTime = unset.has('max_time') ? null : b.max_time;
  return {
    status,
    phase: { index: o.current_phase, total: o.total_phases, name: record.stategate.phase_name },
    task: o.current_task,
    ...(record.stategate.task ? { taskText: record.stategate.task } : {}),
    iteration: o.ralph_iteration,
    maxIterations: unset.has('max_iterations_per_task') ? null : b.max_iterations_per_task,
    cost: bound(b.cost_so_far, parseCost(b.cost_so_far) ?? 0, maxCost, parseCost(maxCost ?? undefined)),
    time: bound(b.elapsed_time, elapsedMs(b.elapsed_time), maxTime, parseDuration(maxTime ?? undefined)),
    ...(live && Number.isFinite(Date.parse(o.start_time)) ? { ticking: { startMs: Date.parse(o.start_time), maxMs: parseDuration(maxTime ?? undefined) ?? null } } : {}),
    warnings: b.warnings,
    completed: record.completed_tasks.length,
    pending: record.pending_tasks.length,
    learnings: record.learnings.length,
    checkpoints: record.checkpoints.length,
    counts: [
      `${countOf(record.completed_tasks.length, 'task')} done`,
      `${record.pending_tasks.length} pending`,
      `${countOf(record.learnings.length, 'lesson')} recorded`,
      countOf(record.checkpoints.length, 'checkpoint'),
    ],
    lastCheckpointSha: last?.git_sha || null,
  };
}
