/**
 * What a stage pipeline keeps in the run (run.json's `pipeline`) and writes to
 * the journal. A pipeline is a Statewright run whose states carry stage fields
 * (docs/pipelines.md, which is the rule book). Types only: the operations are in this folder's other files.
 */
import type { JsonObject, JsonValue } from './index.js';

/** One execution of a stage: entering a stage state starts one, leaving it ends it. */
export interface StageExec {
  /** Unique within the run (`se-3`): journal events of this execution carry it. */
  id: string;
  state: string;
  /** Where the position is (the journal's scope: '' for the top level, `branch:lint` in a fork). */
  scope: string;
  /** How many times this state has been entered as a stage in the run, this one included. */
  attempt: number;
  /** Model turns begun in this execution (turn_cap counts these). */
  turns: number;
  startedAt: string;
  /** The position's transition counter when it entered: a self-loop re-enters with a new one. */
  enteredAt: number;
  /** Set when the execution ended by a completion or a failure (a plain transition leaves it unset). */
  ended?: { outcome: 'completed' | 'failed'; reason?: string };
  /** A client delivered the stage's prompt (prompt_sent): the hook briefs a stage once. */
  prompted?: boolean;
}

/** A person's answer is awaited for an out-of-envelope call (one-shot grants). */
export interface GrantProposal {
  id: string;
  tool: string;
  argsDigest: string;
  argsSummary: string;
  stageExecId: string;
  attempt: number;
  state: string;
  scope: string;
  askedAt: string;
}

/** An approved proposal, good for exactly one call of `tool` with arguments of digest `argsDigest`. */
export interface Grant {
  proposalId: string;
  tool: string;
  argsDigest: string;
  stageExecId: string;
  scope: string;
}

export interface PipelineState {
  /** What the run was started with (`input.task` is the task of `@stategate /run`). */
  input?: JsonValue;
  /** Each completed stage's payload, by state name: the `upstream` of later stages. */
  upstream: JsonObject;
  /** The live stage executions, by scope. */
  execs: Record<string, StageExec>;
  /** Entries per stage state (the next execution's attempt is one more). */
  attempts: Record<string, number>;
  /** Counter behind execution and proposal ids. */
  seq: number;
  proposals: GrantProposal[];
  grants: Grant[];
  /** A security mode chosen for the run (pipeline/security-mode.ts); absent: the workflow's meta.security_mode, else `ask`. */
  securityMode?: { mode: 'ask' | 'yolo'; source: 'run' | 'setting' };
}

interface StageEventBase {
  stage_exec_id: string;
  attempt: number;
  state: string;
}

/** The audit events of docs/pipelines.md, one per boundary of a stage. */
export type StageEvent =
  | (StageEventBase & { kind: 'stage_setup'; completion_tool: string; allowed_tools: string[] | null; turn_cap?: number })
  | (StageEventBase & { kind: 'prompt_sent'; prompt: string; missing?: string[] })
  | (StageEventBase & { kind: 'turn'; turn: number; turn_cap?: number })
  | (StageEventBase & { kind: 'grant_asked'; proposal_id: string; tool: string; args_digest: string; args_summary: string })
  | (StageEventBase & { kind: 'grant_answered'; proposal_id: string; tool: string; args_digest: string; approved: boolean; by: GrantAnswerer })
  | (StageEventBase & { kind: 'grant_consumed'; proposal_id: string; tool: string; args_digest: string })
  | (StageEventBase & { kind: 'completion_checked'; tool: string; valid: boolean; payload: JsonValue; errors?: string[] })
  | (StageEventBase & { kind: 'stage_exit'; outcome: 'completed' | 'failed' | 'left' | 'stopped' | 'cancelled'; turns: number; reason?: string })
  | { kind: 'next_stage'; stage_exec_id: string; attempt: number; state: string; from: string[]; to: string[] };

/** Who answered a grant: a person, or nobody (headless: no one to ask, so denied). */
export type GrantAnswerer = 'person' | 'headless' | 'yolo';

export type StageEventKind = StageEvent['kind'];

export const STAGE_EVENT_KINDS: ReadonlySet<string> = new Set<StageEventKind>([
  'stage_setup',
  'prompt_sent',
  'turn',
  'grant_asked',
  'grant_answered',
  'grant_consumed',
  'completion_checked',
  'stage_exit',
  'next_stage',
]);

export function emptyPipeline(): PipelineState {
  return { upstream: {}, execs: {}, attempts: {}, seq: 0, proposals: [], grants: [] };
}
