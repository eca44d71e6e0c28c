/**
 * The run record (`agent-state.json`): the workflow-state schema long agent
 * runs keep (orchestrator, supervisor, agents, tasks, bounds, learnings,
 * milestones, checkpoints), kept by stategate itself from the run. Types only;
 * schemas/agent-state-schema.json is the same shape as a JSON Schema, and
 * docs/run-record.md says where each field comes from.
 */
import type { RunStatus } from '../machine/run.js';

export type RecordStatus = 'planning' | 'executing' | 'reviewing' | 'completed' | 'failed';
/** The record's schema version: the seed's. */
export const AGENT_STATE_VERSION = '1.0';
export type LearningType = 'pattern' | 'antipattern' | 'insight';

export interface Orchestrator {
  status: RecordStatus;
  /** Absolute: the context's `task_doc`, else the workflow file. */
  task_doc: string;
  current_phase: number;
  total_phases: number;
  /** "N/M": the current state's place among the states of its phase. */
  current_task: string;
  /** The iteration as max_iterations counts it (an allowed call counts). */
  ralph_iteration: number;
  outer_ralph: boolean;
  start_time: string;
  end_time: string | null;
}

/** stategate's own, finer kinds of an intervention (kept beside the seed's, under `stategate`). */
export interface InterventionKinds {
  check_type: 'pre_tool' | 'file_change' | 'transition' | 'approval';
  conflict_type: 'policy' | 'bound' | 'interrupt' | 'guard' | 'approval';
  action: 'deny' | 'interrupt' | 'refuse' | 'approval_requested' | 'approved' | 'rejected' | 'withdrawn';
}

export interface Intervention {
  timestamp: string;
  check_type: 'pre_task' | 'post_task' | 'on_demand';
  task: string;
  conflict_type: 'architecture' | 'dependency' | 'api' | 'security' | 'pattern';
  severity: 'critical' | 'high' | 'low';
  action: 're_plan' | 'auto_fix' | 'pass';
  resolution: string;
  stategate: InterventionKinds;
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

/** Who the agent is, in stategate's terms: a hook session the run has seen, or a statechart's `agent:` invocation. */
export type AgentSource =
  | { kind: 'session'; session_id: string; client?: string; branch?: string }
  | { kind: 'invocation'; invocation: string; src: string; state: string };

export interface ActiveAgent {
  type: 'task-executor' | 'supervisor' | 'outer-ralph' | 'code-improvement-scanner';
  task: string;
  started: string;
  iteration: number;
  status: 'in_progress' | 'waiting' | 'blocked';
  stategate: AgentSource;
}

export interface CompletedTask {
  task: string;
  name: string;
  completed: string;
  iterations: number;
  time_elapsed: string;
  /** "$0.00" when no cost was reported in the state. */
  cost: string;
  files_modified: string[];
  success_criteria_met: Record<string, boolean>;
}

export interface PendingTask {
  phase: number;
  task: string;
  name: string;
}

export interface SafetyBounds {
  /** The state's max_iterations; the seed's default (30) when it sets none (`stategate.unbounded` says so). */
  max_iterations_per_task: number;
  /** meta.max_cost / max_time as written; "none" when the workflow sets none. */
  max_cost: string;
  max_time: string;
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
  /** stategate opens no issue: "" (the seed's field is a string). */
  issue_url: string;
}

export interface Checkpoint {
  timestamp: string;
  phase: number;
  task: string;
  /** The full HEAD sha when the workspace is a git repository with a commit, else "". */
  git_sha: string;
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
  /** The bounds the workflow does not set, whose safety_bounds value is a placeholder (the seed's default, or "none"). */
  unbounded?: ('max_iterations_per_task' | 'max_cost' | 'max_time')[];
  /** When each agent was first seen in the run, by key (`session:ID`, `invocation:ID`): their `started`. */
  agents_seen?: Record<string, string>;
}

export interface AgentStateRecord {
  version: typeof AGENT_STATE_VERSION;
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
