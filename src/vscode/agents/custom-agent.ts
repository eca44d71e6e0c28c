/**
 * `.github/agents/stategate.agent.md`: a custom agent for Copilot's agent
 * picker whose `tools:` list is what the current state allows (VS Code tool
 * references, through the tool-name table) plus stategate's own tools, and
 * whose body is what the agent is told about the state. Rewritten on every
 * run change, so "stategate" in the picker only ever sees the tools it may use.
 * vscode-free, unit-tested.
 */
import { briefing, type StateView, type ExtraAliases } from '../../engine/index.js';
import { isOffered, type OfferRules } from './tool-offer.js';

export const CUSTOM_AGENT_FILE = '.github/agents/stategate.agent.md';

/** A tool VS Code knows: its id, and the name agent files reference it by (when it has one). */
export interface ToolCandidate {
  readonly id: string;
  readonly reference?: string;
}

/** Double-quoted YAML scalar (JSON strings are valid YAML). */
const yamlString = (s: string): string => JSON.stringify(s);

export function customAgentMarkdown(view: StateView | undefined, rules: OfferRules, candidates: readonly ToolCandidate[], aliases?: ExtraAliases): string {
  const tools: string[] = [];
  for (const c of candidates) {
    const name = c.reference ?? c.id;
    if (isOffered(c.id, rules, aliases) && !tools.includes(name)) tools.push(name);
  }
  const where = view ? `${view.workflow.id} › ${view.state}` : 'no active run';
  const body = view
    ? briefing(view)
    : 'stategate: no workflow run is active, so nothing is enforced. Use statewright_list_workflows and statewright_load_workflow to start one.';
  return [
    '---',
    `description: ${yamlString(`Works under the active stategate workflow (${where}): only the tools this state allows.`)}`,
    `tools: [${tools.map(yamlString).join(', ')}]`,
    '---',
    '<!-- Written by stategate on every run change (setting stategate.syncCustomAgent). Edits here are overwritten. -->',
    '',
    body,
    '',
    'Call statewright_get_state when unsure, and statewright_transition to move the workflow on. A denied tool call says which events lead to a state where it is allowed.',
    '',
  ].join('\n');
}
