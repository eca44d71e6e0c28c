/**
 * The agents a statechart run may pick with `agents.select(role, hint)`
 * (docs/statecharts.md, "Agents"): the chart's own `agents:`, then
 * `.stategate/agents.yaml`, then (in VS Code) the workspace's custom agents;
 * an id listed by an earlier source hides a later one. They are captured into
 * the run when it starts, so every later step and a replay pick the same.
 */
import type { ChartAgent, JsonValue } from '../model/index.js';

/** The sources in order of precedence, one agent per id (the first listing wins). */
export function mergeAgents(...sources: readonly (readonly ChartAgent[] | undefined)[]): ChartAgent[] {
  const out: ChartAgent[] = [];
  const seen = new Set<string>();
  for (const list of sources) {
    for (const agent of list ?? []) {
      if (seen.has(agent.id)) continue;
      seen.add(agent.id);
      out.push(agent);
    }
  }
  return out;
}

/**
 * `agents.select(role, hint)`: among the agents with `role`, sorted by id, the
 * first whose id or one of whose tags equals `hint` (a string); else the first
 * of them; null when no agent has the role. Ids compare by code unit, not by
 * locale, so the answer is the same on every machine.
 */
export function selectAgent(agents: readonly ChartAgent[], role: string, hint: JsonValue): string | null {
  const candidates = agents.filter((a) => a.roles.includes(role)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (typeof hint === 'string') {
    const hinted = candidates.find((a) => a.id === hint || a.tags.includes(hint));
    if (hinted) return hinted.id;
  }
  return candidates[0]?.id ?? null;
}
