/**
 * The run record (`agent-state.json`): the workflow-state schema long agent
 * runs keep (orchestrator, supervisor, agents, tasks, bounds, learnings,
 * milestones, checkpoints), kept by stategate itself from the run. Types only;
 * schemas/agent-state-schema.json is the same shape as a JSON Schema, and
 * docs/run-record.md says where each field comes from.
 */
import type { RunStatus } from '../machine/run.js';

export type RecordStatus = 'planning' | 'executing' | 'reviewing' | 'completed' | 'failed';
export type LearningType = 'pattern' | 'antipattern' | 'insight';

export interface Orchestrator {
  status: RecordStatus;
  task_doc: string | null;
  current_phase: number;
  total_phases: number;
  /** "N/M": the current state's place among the states of its phase. */
  current_task: string;
  /** The iteration as max_iterations counts it (an allowed call counts). */
  ralph_iteration: number;
  outer_ralph: boolean | null;
  start_time: string;
  end_time: string | null;
}

export interface Intervention {
  timestamp: string;
  check_type: 'pre_task' | 'post_task' | 'on_demand' | 'pre_tool' | 'file_change' | 'transition' | 'approval';
  task: string;
  conflict_type: 'architecture' | 'dependency' | 'api' | 'security' | 'pattern' | 'policy' | 'bound' | 'interrupt' | 'guard' | 'approval';
  severity: 'critical' | 'high' | 'low';
  action: 're_plan' | 'auto_fix' | 'pass' | 'deny' | 'interrupt' | 'refuse' | 'approval_requested' | 'approved' | 'rejected' | 'withdrawn';
  resolution: string;
}

export interface Supervisor {
  enabled: boolean;
  checks_performed: number;
  conflicts_detected: number;
  auto_fixes_applied: number;
  re_plans_triggered: number;
  last_check: string | null;
  interventions: Intervention[];
}

export interface ActiveAgent {
  type: string;
  task: string;
  started: string;
  iteration: number;
  status: 'in_progress' | 'waiting' | 'blocked';
}

export interface CompletedTask {
  task: string;
  name: string;
  completed: string;
  iterations: number;
  time_elapsed: string;
  cost: string | null;
  files_modified: string[];
  success_criteria_met: Record<string, boolean>;
}

export interface PendingTask {
  phase: number;
  task: string;
  name: string;
}

export interface SafetyBounds {
  max_iterations_per_task: number | null;
  max_cost: string | null;
  max_time: string | null;
  cost_so_far: string;
  elapsed_time: string;
  warnings: string[];
}

export interface Learning {
  timestamp: string;
  task: string;
  iteration: number;
  type: LearningType;
  lesson: string;
  pattern: string;
  context: string;
}

export interface Milestone {
  phase: number;
  name: string;
  completed: string;
  issue_url: string | null;
}

export interface Checkpoint {
  timestamp: string;
  phase: number;
  task: string;
  /** The full HEAD sha when the workspace is a git repository, else null. */
  git_sha: string | null;
  /** Relative to the run folder. */
  state_snapshot: string;
}

/** What stategate adds: the run, and what the next change needs to extend the record. */
export interface RecordTrack {
  run_id: string;
  workflow: string;
  state: string;
  status: RunStatus;
  /** The journal entry the record reflects (the store catches a record up that is behind). */
  journal_seq: number;
  /** When the current state was entered, what it has used, and the cost then (for its completed_tasks entry). */
  state_entered: string;
  state_iterations?: number;
  files_edited: string[];
  cost_at_entry: number;
  /** The phase the current state is in (a milestone when it changes). */
  phase_name: string;
  /** States entered so far (pending_tasks are the others). */
  visited: string[];
  /** Checkpoints written so far (the next snapshot's number). */
  checkpoint_count: number;
  /** Tool calls counted over the run's life (the supervisor's checks count the new ones). */
  steps?: number;
  /** What the run context holds under `task`, if anything (the participant's task). */
  task?: string;
}

export interface AgentStateRecord {
  orchestrator: Orchestrator;
  supervisor: Supervisor;
  active_agents: ActiveAgent[];
  completed_tasks: CompletedTask[];
  pending_tasks: PendingTask[];
  safety_bounds: SafetyBounds;
  learnings: Learning[];
  milestones: Milestone[];
  checkpoints: Checkpoint[];
  stategate: RecordTrack;
}

export const LEARNING_TYPES: readonly LearningType[] = ['pattern', 'antipattern', 'insight'];
