/**
 * `.github/agents/stategate.agent.md`: a custom agent for Copilot's agent
 * picker whose `tools:` list is what the current state allows (VS Code tool
 * references, through the tool-name table) plus stategate's own tools, and
 * whose body is what the agent is told about the state. Rewritten on every
 * run change, so "stategate" in the picker only ever sees the tools it may use.
 * vscode-free, unit-tested.
 */
import { briefing, type AgentInvocationView, type BriefedView, type ExtraAliases } from '../../engine/index.js';
import { isOffered, type OfferRules } from './tool-offer.js';

export const CUSTOM_AGENT_FILE = '.github/agents/stategate.agent.md';

/** A tool VS Code knows: its id, and the name agent files reference it by (when it has one). */
export interface ToolCandidate {
  readonly id: string;
  readonly reference?: string;
}

/** Double-quoted YAML scalar (JSON strings are valid YAML). */
const yamlString = (s: string): string => JSON.stringify(s);

/** A line in every file this writes: a task agent's file with it is the sync's to remove. */
export const WRITTEN_MARKER = '<!-- Written by stategate on every run change (setting stategate.syncCustomAgent). Edits here are overwritten. -->';

/** The custom agent file of a statechart task's agent (`agent:<name>`), for names other than stategate. */
export function taskAgentFile(name: string): string | undefined {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name) && name !== 'stategate' ? `.github/agents/${name}.agent.md` : undefined;
}

/**
 * The custom agent a statechart's `agent:<name>` task goes to: VS Code's
 * agent picker offers "<name>", with the tools the run allows now and the
 * task (its id and input) first in its instructions.
 */
export function taskAgentMarkdown(task: AgentInvocationView, view: BriefedView, rules: OfferRules, candidates: readonly ToolCandidate[], aliases?: ExtraAliases): string {
  const lead = `Your task (invocation ${task.id} of state ${task.state}), input: ${JSON.stringify(task.input)}. When it is done, call stategate_invocation_done with id "${task.id}" and the result as data; if it cannot be done, stategate_invocation_fail.`;
  return agentFile(`Does task ${task.id} of the stategate statechart run ${view.workflow.id}.`, `${lead}\n\n${briefing(view)}`, rules, candidates, aliases);
}

export function customAgentMarkdown(view: BriefedView | undefined, rules: OfferRules, candidates: readonly ToolCandidate[], aliases?: ExtraAliases): string {
  const where = view ? `${view.workflow.id} › ${view.configuration?.join(' | ') ?? view.state}` : 'no active run';
  const body = view
    ? briefing(view)
    : 'stategate: no workflow run is active, so nothing is enforced. Use statewright_list_workflows and statewright_load_workflow to start one.';
  return agentFile(`Works under the active stategate workflow (${where}): only the tools this state allows.`, body, rules, candidates, aliases);
}

function agentFile(description: string, body: string, rules: OfferRules, candidates: readonly ToolCandidate[], aliases?: ExtraAliases): string {
  const tools: string[] = [];
  for (const c of candidates) {
    const name = c.reference ?? c.id;
    if (isOffered(c.id, rules, aliases) && !tools.includes(name)) tools.push(name);
  }
  return [
    '---',
    `description: ${yamlString(description)}`,
    `tools: [${tools.map(yamlString).join(', ')}]`,
    '---',
    WRITTEN_MARKER,
    '',
    body,
    '',
    'Call statewright_get_state when unsure, and statewright_transition to move the workflow on. A denied tool call says which events lead to a state where it is allowed.',
    '',
  ].join('\n');
}
