/**
 * Which tools an agent is offered in the current state: the @stategate
 * participant's `tools` list and the synced custom agent's `tools:` both come
 * from here. The policy (runner.tool) still decides every call; offering only
 * what would pass keeps the model from wasting turns on denials.
 * vscode-free, unit-tested.
 */
import { type StateView, isOwnTool, toolMatches, type ExtraAliases } from '../../engine/index.js';

export interface OfferRules {
  /** null: every tool (no run, or a state without allowed_tools). */
  readonly allowed: readonly string[] | null;
  readonly disallowed: readonly string[];
  /** max_iterations spent: only stategate's own tools until a transition. */
  readonly atLimit: boolean;
  /** The workflow is a debug workflow: statewright_force_state is offered. */
  readonly debug: boolean;
}

/** Nothing enforced: no run, or the run is paused, stopped or ended. */
export const NO_RULES: OfferRules = { allowed: null, disallowed: [], atLimit: false, debug: false };

export function offerRules(view: StateView | undefined, debug: boolean): OfferRules {
  if (!view || view.status !== 'running' || view.is_final) return { ...NO_RULES, debug };
  const max = view.limits.max_iterations;
  return { allowed: view.allowed_tools, disallowed: view.disallowed_tools, atLimit: max !== null && view.usage.iterations >= max, debug };
}

export function isOffered(id: string, rules: OfferRules, aliases?: ExtraAliases): boolean {
  if (isOwnTool(id)) return rules.debug || !id.endsWith('statewright_force_state');
  if (rules.atLimit) return false;
  if (rules.disallowed.some((r) => toolMatches(r, id, aliases))) return false;
  return rules.allowed === null || rules.allowed.some((r) => toolMatches(r, id, aliases));
}

/** The ids among `ids` to offer, in their order. */
export function offeredTools(ids: readonly string[], rules: OfferRules, aliases?: ExtraAliases): string[] {
  return ids.filter((id) => isOffered(id, rules, aliases));
}
