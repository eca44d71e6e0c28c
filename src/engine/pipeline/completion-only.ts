/**
 * A stage ends only through its completion tool. The event named like a live
 * stage's completion tool is the stage's exit, and that exit carries a payload
 * checked against `completion_schema` (completion.ts). Sent as a plain event
 * (`run send`, statewright_transition, the VS Code command, an agent running
 * the CLI from a shell) it would skip that check: a gated agent could leave
 * Plan without a plan. So a plain send of it is refused before anything is
 * written, and the views agents read (`run state`, briefings, the transition
 * tool's offered events) do not list it as an event to send.
 */
import type { Workflow } from '../model/index.js';
import type { MachineError, RunSnapshot } from '../machine/run.js';
import { livePositions, stageNode } from './positions.js';
import { mayBePipeline } from './stage-sync.js';

/** A live stage and the tool that ends it. */
export interface LiveCompletion {
  readonly tool: string;
  readonly state: string;
  readonly branch?: string;
}

/**
 * The completion tools of the run's live stages; with `branch`, only that
 * fork branch's (without, every live position's: refusing more is the safe side).
 */
export function liveCompletions(run: RunSnapshot, load: (text: string) => Workflow | undefined, branch?: string): LiveCompletion[] {
  if (run.status !== 'running' || !mayBePipeline(run)) return [];
  const out: LiveCompletion[] = [];
  for (const live of livePositions(run, load)) {
    if (branch !== undefined && live.branch !== undefined && live.branch !== branch) continue;
    const node = stageNode(live);
    if (node?.completionTool) out.push({ tool: node.completionTool, state: node.id, ...(live.branch === undefined ? {} : { branch: live.branch }) });
  }
  return out;
}

/** How to end the stage, in every spelling a client has (the text names the tool in each). */
export function completionHowTo(tool: string): string {
  return `call the completion tool ${tool} with a payload that matches the stage's completion_schema: the MCP tool \`${tool}\` of stategate's server, the \`${tool}\` tool of VS Code and @stategate, or \`stategate run complete ${tool} --payload JSON\``;
}

/** The refusal of sending `event` as a plain event, or undefined when it is not a live stage's completion event. */
export function completionRequired(run: RunSnapshot, event: string, load: (text: string) => Workflow | undefined, branch?: string): MachineError | undefined {
  const hit = liveCompletions(run, load, branch).find((c) => c.tool === event);
  if (!hit) return undefined;
  return {
    code: 'completion_required',
    message: `"${event}" ends the stage "${hit.state}"${hit.branch === undefined ? '' : ` (branch ${hit.branch})`} and cannot be sent as a plain event: ${completionHowTo(event)}. Nothing changed.`,
  };
}

/** Whether `event` is one of these live completion events (views leave them out of the events to send). */
export function isCompletionEvent(event: string, completions: readonly LiveCompletion[]): boolean {
  return completions.some((c) => c.tool === event);
}
