/**
 * The rules of statechart states (docs/statecharts.md,
 * and docs/enforcement.md for what the rules mean), as pure functions of the chart: a state's effective rules
 * (its own narrowed by each ancestor's), the node each limit in force is
 * declared by, and the events of a configuration. The policy
 * (policy/effective-rules.ts) and the state view (machine/describe-chart.ts) both
 * read them; nothing here knows about runs.
 */
import type { StateNode, StateRules, Workflow } from '../model/index.js';
import { resolveTarget } from '../statechart/targets.js';
import { toolMatches, type ExtraAliases } from '../agent/tools.js';

/** The node and its ancestors, outermost first. */
export function levels(wf: Workflow, id: string): StateNode[] {
  const out: StateNode[] = [];
  for (let n = wf.states.get(id); n; n = n.parent === undefined ? undefined : wf.states.get(n.parent)) out.unshift(n);
  return out;
}

/** Whether every level that lists tools allows `tool` and no level denies it. */
export function toolAllowed(wf: Workflow, id: string, tool: string, aliases?: ExtraAliases): boolean {
  return levels(wf, id).every(({ rules }) =>
    !rules.disallowedTools.some((r) => toolMatches(r, tool, aliases)) && (rules.allowedTools === undefined || rules.allowedTools.some((r) => toolMatches(r, tool, aliases))),
  );
}

/** The rules of `id` narrowed by its ancestors'. */
export function effectiveRules(wf: Workflow, id: string): StateRules {
  let out: StateRules | undefined;
  for (const { rules } of levels(wf, id)) {
    if (!out) {
      out = rules;
      continue;
    }
    const prev: StateRules = out;
    out = {
      ...prev,
      ...definedOnly(rules),
      disallowedTools: union(prev.disallowedTools, rules.disallowedTools),
      blockedEnv: union(prev.blockedEnv, rules.blockedEnv),
      envOverrides: { ...prev.envOverrides, ...rules.envOverrides },
      ...(prev.deniedPaths || rules.deniedPaths ? { deniedPaths: union(prev.deniedPaths ?? [], rules.deniedPaths ?? []) } : {}),
      // `network: false` anywhere holds below it, like a deny: an inner `network: true` cannot give it back.
      ...(prev.network === false || rules.network === false ? { network: false } : {}),
    };
  }
  return out as StateRules;
}

/** The limits a node's effective rules can carry: each counts in the node that declares it. */
export const LIMIT_KEYS = ['maxIterations', 'maxEditLines', 'maxFilesPerState', 'contextBudgetBytes'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** For each limit in force at `id` (the innermost level that sets it), the node that declares it. */
export function limitOwners(wf: Workflow, id: string): Partial<Record<LimitKey, string>> {
  const out: Partial<Record<LimitKey, string>> = {};
  for (const node of levels(wf, id)) for (const key of LIMIT_KEYS) if (node.rules[key] !== undefined) out[key] = node.id;
  return out;
}

/** The state node with its effective rules, for `decide`. */
export function effectiveNode(wf: Workflow, id: string): StateNode {
  const node = wf.states.get(id) as StateNode;
  return { ...node, rules: effectiveRules(wf, id) };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

function definedOnly(rules: StateRules): Partial<StateRules> {
  return Object.fromEntries(Object.entries(rules).filter(([, v]) => v !== undefined)) as Partial<StateRules>;
}

/**
 * A final state below the root ends its region's (or compound's) activity: it
 * allows nothing of its own. A final state at the root ends the run, where
 * nothing is enforced any more (docs/enforcement.md), so an
 * event leading there does lead to where the call is allowed.
 */
function regionEnd(node: StateNode): boolean {
  return node.kind === 'final' && node.parent !== undefined;
}

/** The atomic states entering `id` lands in by default (initial children; every region of a parallel state). */
function landing(wf: Workflow, id: string): string[] {
  const node = wf.states.get(id);
  if (!node || node.children.length === 0) return node && node.kind !== 'history' && !regionEnd(node) ? [id] : [];
  if (node.kind === 'parallel') return node.children.flatMap((c) => landing(wf, c));
  const initial = node.initial ? resolveTarget(wf, id, node.initial) : node.children[0];
  return initial ? landing(wf, initial) : [];
}

/** Events the active configuration handles whose target lands where `tool` is allowed, as `EVENT (-> target)`. */
export function eventsAllowing(wf: Workflow, configuration: readonly string[], tool: string, aliases?: ExtraAliases): string[] {
  const out = new Set<string>();
  const seen = new Set<string>();
  for (const atomic of configuration) {
    for (const node of levels(wf, atomic).reverse()) {
      if (seen.has(node.id)) continue;
      seen.add(node.id);
      for (const t of node.chart?.transitions ?? []) {
        if (t.trigger.kind !== 'event' || t.trigger.event === '*') continue;
        for (const ref of t.targets) {
          const target = resolveTarget(wf, node.id, ref);
          if (target && landing(wf, target).some((s) => toolAllowed(wf, s, tool, aliases))) out.add(`${t.trigger.event} (-> ${target})`);
        }
      }
    }
  }
  return [...out];
}

/** The names of the events the active configuration handles: each active state walking up to the chart root (innermost first). */
export function handledEvents(wf: Workflow, configuration: readonly string[]): string[] {
  const out = new Set<string>();
  const nodes = new Set<StateNode>();
  for (const atomic of configuration) for (const node of levels(wf, atomic).reverse()) nodes.add(node);
  const transitions = [...[...nodes].flatMap((n) => n.chart?.transitions ?? []), ...(wf.chart?.root.transitions ?? [])];
  for (const t of transitions) if (t.trigger.kind === 'event' && t.trigger.event !== '*') out.add(t.trigger.event);
  return [...out];
}
