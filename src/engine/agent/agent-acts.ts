/**
 * The acts that loosen or end an enforced run (pause, stop, load another
 * workflow, force a state) are a person's unless the run's workflow grants
 * them to the agent in `meta.agent_may`. The gated agent is treated as an
 * adversary of its own gate: one tool call that pauses the run would switch
 * enforcement off and let it rewrite the hooks' settings or delete `.stategate/`.
 *
 * The grant is read from the definition the run keeps (run.json), never from
 * the workflow file, which the agent may have edited since.
 *
 * One wording serves the agent tools (runs/agent-tools.ts, for MCP, VS Code's
 * language-model tools and the @stategate participant) and the agent's own
 * shell (shell/own-cli.ts), so every way in says the same thing.
 */
import type { AgentAct, WorkflowMeta } from '../model/index.js';

/** How a person does each act: VS Code's command (palette or the stategate panel) or the CLI in their own terminal. */
const PERSONS_WAY: Readonly<Record<AgentAct, string>> = {
  pause: 'a person pauses the run with "stategate: Pause Run" in VS Code (the Command Palette or the stategate panel), or `stategate run pause` in their own terminal',
  stop: 'a person stops the run with "stategate: Stop Run" in VS Code (the Command Palette or the stategate panel), or `stategate run stop` in their own terminal',
  load_workflow:
    'a person starts or resumes another workflow with "stategate: Start Workflow Run…" or "stategate: Resume Workflow Run…" in VS Code, or `stategate run start FILE` / `stategate run resume FILE` in their own terminal',
  force: 'a person forces a state with "stategate: Force State…" in VS Code, or `stategate run force STATE` in their own terminal',
};

/** What each act does to the run, for the reason ("pausing the run turns enforcement off"). */
const WHAT_IT_DOES: Readonly<Record<AgentAct, string>> = {
  pause: 'pausing the run turns its enforcement off',
  stop: 'stopping the run ends it and its enforcement',
  load_workflow: 'starting or resuming another workflow stops the enforced run',
  force: 'forcing a state jumps past the workflow\'s transitions and guards',
};

/** The acts the workflow grants the agent (none when it names none, or there is no workflow). */
export function grantedActs(meta: WorkflowMeta | undefined): readonly AgentAct[] {
  return meta?.agentMay ?? [];
}

export function isGranted(act: AgentAct, meta: WorkflowMeta | undefined): boolean {
  return grantedActs(meta).includes(act);
}

/**
 * Why the agent may not do `act` itself, and what it can do instead. `what`
 * names the call ("statewright_pause", "`stategate run pause`").
 */
export function actRefusal(act: AgentAct, what: string): string {
  return `${what} is a person's act here: ${WHAT_IT_DOES[act]}, and the workflow's meta.agent_may does not grant "${act}" to the agent. How: ${PERSONS_WAY[act]}. Nothing changed. The agent moves the run on with statewright_transition (statewright_get_state lists the events) or \`stategate run send EVENT\`.`;
}
