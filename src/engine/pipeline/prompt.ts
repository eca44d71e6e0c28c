/**
 * The stage's view for clients: what the stage is (its completion tool and
 * schema, its tools, turns) and its prompt rendered over the run
 * (`context`, `input`, `upstream`). `promptSent` journals the prompt a client
 * delivered: the participant as the first message of a fresh transcript, the
 * hook as the context it injects at the stage's start.
 */
import type { JsonObject, Workflow } from '../model/index.js';
import type { MachineEnv, MachineResult } from '../machine/operations.js';
import type { JournalEntry, RunSnapshot } from '../machine/run.js';
import { parsePromptTemplate, renderPromptTemplate } from '../stage/prompt-template.js';
import { livePositions, stageFor, stageNode, type StageAt } from './positions.js';
import { scoped } from './stage-sync.js';
import { emptyPipeline } from '../model/pipeline.js';
import { securityModeOf, type SecurityMode } from './security-mode.js';

export interface StageView {
  state: string;
  /** The fork branch the stage runs in (absent at the top level). */
  branch?: string;
  completion_tool: string;
  completion_schema: JsonObject;
  /** The state's allowed_tools (null: every tool). */
  allowed_tools: string[] | null;
  turn_cap?: number;
  turns: number;
  stage_exec_id?: string;
  attempt?: number;
  /** The prompt rendered now (empty when the stage has none). */
  prompt: string;
  /** Placeholders that reached no value. */
  missing: string[];
  /** Whether a client already delivered this execution's prompt. */
  prompted: boolean;
  /** The run's security mode (security-mode.ts): what happens to calls inside the stage's tools. */
  security_mode: SecurityMode;
}

function view(run: RunSnapshot, at: StageAt, load: (text: string) => Workflow | undefined): StageView {
  const { node, live, exec } = at;
  const pipeline = run.pipeline ?? emptyPipeline();
  const rendered = node.prompt ? renderPromptTemplate(parsePromptTemplate(node.prompt.text), { context: live.position.context, input: pipeline.input ?? {}, upstream: pipeline.upstream }) : { text: '', missing: [] };
  return {
    state: node.id,
    ...(live.branch === undefined ? {} : { branch: live.branch }),
    completion_tool: node.completionTool!,
    completion_schema: node.completionSchema ?? { type: 'object' },
    allowed_tools: node.rules.allowedTools ? [...node.rules.allowedTools] : null,
    ...(node.turnCap === undefined ? {} : { turn_cap: node.turnCap }),
    turns: exec?.turns ?? 0,
    ...(exec ? { stage_exec_id: exec.id, attempt: exec.attempt } : {}),
    prompt: rendered.text,
    missing: [...rendered.missing],
    prompted: exec?.prompted === true,
    security_mode: securityModeOf(run, load(run.workflow.definitionText)).mode,
  };
}

/** Every live stage of the run (several while a parallel fork runs), in branch order. */
export function activeStages(run: RunSnapshot, load: (text: string) => Workflow | undefined): StageView[] {
  if (run.status !== 'running') return [];
  return livePositions(run, load)
    .filter((l) => stageNode(l))
    .map((l) => view(run, { live: l, node: stageNode(l)!, exec: run.pipeline?.execs[l.scope] }, load));
}

/** A stage of the workflow, live or not: its completion tool and that tool's schema. */
export interface StageTool {
  readonly state: string;
  readonly completion_tool: string;
  readonly completion_schema: JsonObject;
}

/**
 * Every stage of the run's workflow, in definition order. Clients that list a
 * tool once and do not re-list it on tools/list_changed (Claude Code 2.1.330,
 * seen in test/e2e/claude-code-pipeline.test.ts) must still reach the next
 * stage's completion tool; the engine refuses it until its stage is live.
 */
export function workflowStageTools(run: RunSnapshot, load: (text: string) => Workflow | undefined): StageTool[] {
  if (run.status !== 'running' && run.status !== 'paused') return [];
  const workflow = load(run.workflow.definitionText);
  if (!workflow) return [];
  const out: StageTool[] = [];
  for (const node of workflow.states.values()) {
    if (node.completionTool) out.push({ state: node.id, completion_tool: node.completionTool, completion_schema: node.completionSchema ?? { type: 'object' } });
  }
  return out;
}

/** The stage a caller acts on (see stageFor), or why there is none. */
export function stageView(run: RunSnapshot, load: (text: string) => Workflow | undefined, branch?: string): StageView | string {
  const at = stageFor(run, load, branch);
  return typeof at === 'string' ? at : view(run, at, load);
}

/** Journals the prompt a client delivered for the stage, and marks the execution prompted. */
export function promptSent(run: RunSnapshot, env: MachineEnv, branch?: string): MachineResult<StageView | { error: { code: string; message: string } }> {
  const at = stageFor(run, (t: string): Workflow | undefined => env.load(t), branch);
  if (typeof at === 'string' || !at.exec) return { run, journal: [], outcome: { error: { code: 'not_a_stage', message: typeof at === 'string' ? at : 'the stage has no execution recorded' } } };
  const v = view(run, at, (t: string): Workflow | undefined => env.load(t));
  const exec = at.exec;
  const pipeline = run.pipeline ?? emptyPipeline();
  const entry: JournalEntry = { kind: 'prompt_sent', stage_exec_id: exec.id, attempt: exec.attempt, state: at.node.id, prompt: v.prompt, ...(v.missing.length ? { missing: v.missing } : {}), at: env.now(), ...scoped(at.live.scope) };
  const next: RunSnapshot = { ...run, pipeline: { ...pipeline, execs: { ...pipeline.execs, [at.live.scope]: { ...exec, prompted: true } } } };
  return { run: next, journal: [entry], outcome: { ...v, prompted: true } };
}

