/**
 * Which tools an agent is offered in the current state: the @stategate
 * participant's `tools` list and the synced custom agent's `tools:` both come
 * from here. The policy (runner.tool) still decides every call; offering only
 * what would pass keeps the model from wasting turns on denials.
 * vscode-free, unit-tested.
 */
import { type BriefedView, isOwnTool, toolMatches, type ExtraAliases } from '../../engine/index.js';

/** One state's tool lists. */
export interface ToolLists {
  /** null: every tool (no run, or a state without allowed_tools). */
  readonly allowed: readonly string[] | null;
  readonly disallowed: readonly string[];
}

export interface OfferRules extends ToolLists {
  /**
   * A statechart run: each active state's effective lists; a tool is
   * offered when one of them allows it (the policy's union across parallel
   * regions). Absent: `allowed`/`disallowed` decide.
   */
  readonly states?: readonly ToolLists[];
  /** max_iterations spent: only stategate's own tools until a transition. */
  readonly atLimit: boolean;
  /** The workflow is a debug workflow: statewright_force_state is offered. */
  readonly debug: boolean;
  /** A statechart handed tasks to agents: stategate_invocation_done|fail are offered. */
  readonly tasks?: boolean;
}

const TASK_TOOLS = ['stategate_invocation_done', 'stategate_invocation_fail'];

/** Nothing enforced: no run, or the run is paused, stopped or ended. */
export const NO_RULES: OfferRules = { allowed: null, disallowed: [], atLimit: false, debug: false };

export function offerRules(view: BriefedView | undefined, debug: boolean): OfferRules {
  if (!view || view.status !== 'running' || view.is_final) return { ...NO_RULES, debug };
  const spent = (max: number | null): boolean => max !== null && view.usage.iterations >= max;
  if (view.active_states?.length) {
    // Each state's max_iterations counts in the node that declares it: offered while one state has calls left.
    const open = view.active_states.filter((s) => !(s.limits.max_iterations && s.limits.max_iterations.used >= s.limits.max_iterations.limit));
    const states = open.map((s) => ({ allowed: s.allowed_tools, disallowed: s.disallowed_tools }));
    return { allowed: view.allowed_tools, disallowed: view.disallowed_tools, states, atLimit: open.length === 0, debug, tasks: (view.agent_invocations?.length ?? 0) > 0 };
  }
  return { allowed: view.allowed_tools, disallowed: view.disallowed_tools, atLimit: spent(view.limits.max_iterations), debug };
}

function listsAllow(lists: ToolLists, id: string, aliases?: ExtraAliases): boolean {
  if (lists.disallowed.some((r) => toolMatches(r, id, aliases))) return false;
  return lists.allowed === null || lists.allowed.some((r) => toolMatches(r, id, aliases));
}

export function isOffered(id: string, rules: OfferRules, aliases?: ExtraAliases): boolean {
  if (isOwnTool(id)) {
    if (TASK_TOOLS.some((t) => id.endsWith(t))) return rules.tasks === true;
    return rules.debug || !id.endsWith('statewright_force_state');
  }
  if (rules.atLimit) return false;
  if (rules.states) return rules.states.some((s) => listsAllow(s, id, aliases));
  return listsAllow(rules, id, aliases);
}

/** The ids among `ids` to offer, in their order. */
export function offeredTools(ids: readonly string[], rules: OfferRules, aliases?: ExtraAliases): string[] {
  return ids.filter((id) => isOffered(id, rules, aliases));
}
