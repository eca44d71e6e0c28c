/**
 * The completion step: a call of the active stage's completion tool. The
 * payload (the call's arguments) is checked against `completion_schema`; an
 * invalid one is answered with the errors and the stage goes on; a valid one
 * is recorded as the stage's result (`upstream.<stage>`) and sends the event
 * named like the tool, whose guards may read `payload.<field>`. The stage's
 * exit and the next stage's setup follow from stage-sync.ts.
 */
import type { JsonObject, JsonValue, Workflow } from '../model/index.js';
import { isJsonObject } from '../model/json-value.js';
import { isChartWorkflow } from '../machine/chart-run.js';
import { sendEvent, type MachineEnv, type MachineResult, type SendOutcome } from '../machine/operations.js';
import type { Frame, JournalEntry, MachineError, RunSnapshot, RunStatus } from '../machine/run.js';
import { checkPayload, payloadErrorText } from './payload-check.js';
import { stageFor } from './positions.js';
import { scoped } from './stage-sync.js';
import { emptyPipeline } from '../model/pipeline.js';

export interface CompletionOutcome {
  /** The payload matched the schema and the stage ended (its transition happened or waits for approval). */
  accepted: boolean;
  tool: string;
  state: string;
  status: RunStatus;
  /** The schema's complaints, each naming the failing property. */
  errors?: string[];
  /** What the agent reads as the tool result. */
  text: string;
  stage_exec_id?: string;
  attempt?: number;
  /** The transition the completion sent (absent when the payload was invalid). */
  transition?: SendOutcome;
  error?: { code: 'not_running' | 'not_a_stage' | 'wrong_completion_tool' | 'invalid_payload' | 'transition_refused' | 'not_supported'; message: string };
}

function refusal(run: RunSnapshot, tool: string, code: NonNullable<CompletionOutcome['error']>['code'], message: string): MachineResult<CompletionOutcome> {
  return { run, journal: [], outcome: { accepted: false, tool, state: run.state, status: run.status, text: `${tool} refused: ${message}`, error: { code, message } } };
}

export function completeStage(run: RunSnapshot, tool: string, payload: JsonValue | undefined, env: MachineEnv, branch?: string): MachineResult<CompletionOutcome> {
  if (run.status !== 'running') return refusal(run, tool, 'not_running', `the run is ${run.status}`);
  const load = (text: string): Workflow | undefined => env.load(text);
  const top = load(run.workflow.definitionText);
  const chart = top !== undefined && isChartWorkflow(top);
  const at = stageFor(run, load, branch, tool);
  if (typeof at === 'string') return refusal(run, tool, 'not_a_stage', at);
  const { node, live, exec } = at;
  if (node.completionTool !== tool) return refusal(run, tool, 'wrong_completion_tool', `the active stage "${node.id}" completes with ${node.completionTool}, not ${tool}`);
  const now = env.now();
  const ids = { stage_exec_id: exec?.id ?? '', attempt: exec?.attempt ?? 0, state: node.id };
  const check = checkPayload(node.completionSchema ?? { type: 'object' }, payload);
  const checked = (valid: boolean, errors?: readonly string[]): JournalEntry => ({ kind: 'completion_checked', ...ids, tool, valid, payload: payload ?? null, ...(errors ? { errors: [...errors] } : {}), at: now, ...scoped(live.scope) });
  if (!check.valid) {
    const text = payloadErrorText(tool, check.errors);
    return { run, journal: [checked(false, check.errors)], outcome: { accepted: false, tool, state: node.id, status: run.status, errors: [...check.errors], text, ...idsOut(ids), error: { code: 'invalid_payload', message: text } } };
  }
  const body: JsonObject = isJsonObject(payload) ? payload : {};
  // In a statechart the payload is the event's data (guards and assigns read `event.data.<field>`); in a
  // Statewright workflow, guards read it as `payload.<field>` and it is not merged into the context.
  const sent = chart ? sendEvent(run, tool, body, env) : sendEvent(run, tool, undefined, env, { ...(live.branch === undefined ? {} : { branch: live.branch }), payload: body });
  const journal = [checked(true), ...sent.journal];
  // A statechart answers an event nothing takes (every guard false) with no transition rather than an error.
  const untaken: MachineError | undefined = chart && !sent.outcome.error && !sent.outcome.transitioned ? { code: 'guard_failed', message: `no transition on ${tool} was taken from "${node.id}" (its guards are false)` } : undefined;
  if (sent.outcome.error || untaken) {
    const message = transitionRefusal((sent.outcome.error ?? untaken)!, tool);
    return { run: sent.run, journal, outcome: { accepted: false, tool, state: node.id, status: sent.run.status, text: `${tool}: the payload is valid, but ${message}`, ...idsOut(ids), transition: sent.outcome, error: { code: 'transition_refused', message } } };
  }
  // The stage's result: what later stages read as upstream.<stage>, and the outcome its exit records.
  const pipeline = run.pipeline ?? emptyPipeline();
  const execs = { ...pipeline.execs };
  const mine = execs[live.scope];
  if (mine) execs[live.scope] = { ...mine, ended: { outcome: 'completed' } };
  // upstream.<stage> is the state's own key (a statechart node's path is not what prompts write).
  let next: RunSnapshot = { ...sent.run, pipeline: { ...pipeline, execs, upstream: { ...pipeline.upstream, [node.key]: body } } };
  // A branch stage that reached its branch's terminal state ends the branch: the join waits for no agent to say so.
  const done = live.branch === undefined ? undefined : branchAtTerminal(next, live.branch);
  if (done) {
    const joined = sendEvent(next, `BRANCH_DONE:${done}`, undefined, env);
    if (!joined.outcome.error) {
      next = joined.run;
      journal.push(...joined.journal);
    }
  }
  const where = sent.outcome.pending_approval ? `the transition to ${sent.outcome.pending_approval.target} waits for a person's approval` : `next: ${sent.outcome.to} (run ${sent.run.status})`;
  return { run: next, journal, outcome: { accepted: true, tool, state: node.id, status: next.status, text: `${tool} accepted: stage "${node.id}" is complete; ${where}.`, ...idsOut(ids), transition: sent.outcome } };
}

/** The branch's name when it stands in its terminal state (innermost frame's fork). */
function branchAtTerminal(run: RunSnapshot, branch: string): string | undefined {
  let frame: Frame = run;
  while (frame.child) frame = frame.child;
  const b = frame.fork?.branches.find((x) => x.name === branch);
  return b && b.status === 'running' && b.state === b.terminal ? branch : undefined;
}

function idsOut(ids: { stage_exec_id: string; attempt: number }): { stage_exec_id?: string; attempt?: number } {
  return ids.stage_exec_id ? { stage_exec_id: ids.stage_exec_id, attempt: ids.attempt } : {};
}

function transitionRefusal(error: MachineError, tool: string): string {
  if (error.code === 'guard_failed') return `its transition ${tool} was refused (${error.message}); the stage goes on`;
  return `its transition ${tool} was refused: ${error.message}`;
}
