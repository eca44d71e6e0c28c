/**
 * The seed's enums for what stategate records in its own, finer terms. The
 * record keeps every seed field inside the seed's list of values (a tool that
 * reads the record by the seed's schema must not meet a value it does not
 * know), and our own kind beside it under `stategate`. docs/run-record.md has
 * the table and why each kind maps where it does.
 */
import type { AgentStateRecord, Intervention, InterventionKinds } from './types.js';

type SeedKinds = Pick<Intervention, 'check_type' | 'conflict_type' | 'action'>;

const CHECK: Record<InterventionKinds['check_type'], Intervention['check_type']> = {
  // A tool call or a file written is checked when it happens, not at a task's start or end.
  pre_tool: 'on_demand',
  file_change: 'on_demand',
  // A transition and its approval are the check at a task's end.
  transition: 'post_task',
  approval: 'post_task',
};

const CONFLICT: Record<InterventionKinds['conflict_type'], Intervention['conflict_type']> = {
  // The gate's rules and the run's bounds are what keeps the agent inside what it may do.
  policy: 'security',
  bound: 'security',
  // A guard or an approval holds the workflow's own way of working.
  guard: 'pattern',
  approval: 'pattern',
  // An interrupt changes the run's course, as a re-plan does.
  interrupt: 'architecture',
};

const ACTION: Record<InterventionKinds['action'], Intervention['action']> = {
  // The gate settled it by itself (the call did not run, the run did not move); nobody re-planned.
  deny: 'auto_fix',
  refuse: 'auto_fix',
  interrupt: 're_plan',
  // A person decides an approval: the supervisor lets it through to them.
  approval_requested: 'pass',
  approved: 'pass',
  rejected: 'pass',
  withdrawn: 'pass',
};

export function seedKinds(k: InterventionKinds): SeedKinds {
  return { check_type: CHECK[k.check_type], conflict_type: CONFLICT[k.conflict_type], action: ACTION[k.action] };
}

/** An intervention with both: the seed's kinds, ours under `stategate`. */
export function intervention(base: Omit<Intervention, keyof SeedKinds | 'stategate'>, ours: InterventionKinds): Intervention {
  return { ...base, ...seedKinds(ours), stategate: ours };
}

/**
 * A record written before the record held to the seed's values (our kinds in the seed's
 * fields, nulls for strings): brought to today's shape so the next write is valid. Values
 * that are already right pass through.
 */
export function upgradeRecord(prev: AgentStateRecord): AgentStateRecord {
  const interventions = prev.supervisor.interventions.map((iv) => {
    if (iv.stategate) return iv;
    // An older record kept our kinds in the seed's fields.
    const old = iv as unknown as InterventionKinds;
    const ours: InterventionKinds = { check_type: old.check_type, conflict_type: old.conflict_type, action: old.action };
    return CHECK[ours.check_type] && CONFLICT[ours.conflict_type] && ACTION[ours.action] ? intervention(iv, ours) : iv;
  });
  return {
    ...prev,
    supervisor: { ...prev.supervisor, interventions },
    completed_tasks: prev.completed_tasks.map((c) => (c.cost === null ? { ...c, cost: '$0.00' } : c)),
    milestones: prev.milestones.map((m) => (m.issue_url === null ? { ...m, issue_url: '' } : m)),
    checkpoints: prev.checkpoints.map((c) => (c.git_sha === null ? { ...c, git_sha: '' } : c)),
    active_agents: prev.active_agents.filter((a) => a.stategate !== undefined),
  };
}
