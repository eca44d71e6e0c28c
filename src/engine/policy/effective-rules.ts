/**
 * Gating on statecharts (DESIGN.md "Gating agents", under Statecharts). The
 * effective rules of an active atomic state are its own narrowed by each
 * ancestor's: a tool must be allowed at every level that lists tools, a deny
 * anywhere denies, blocked env and denied paths add up, the innermost level
 * that sets a limit or a list is the one in force. With parallel regions
 * active, a call is allowed when at least one active atomic state's effective
 * rules allow it, and it is decided (and counted) by the first such state in
 * document order. When none does, the denial names the active configuration
 * and the events that lead to a configuration where the call is allowed.
 *
 * `locateForCall` is what the policy uses instead of the machine's `locate`:
 * for a flat run it is `locate`; for a statechart run the node it returns
 * carries the effective rules, so `decide` needs no change of its own.
 */
import type { StateNode, StateRules, Workflow } from '../model/index.js';
import { chartWorkflow } from '../machine/chart-run.js';
import type { BranchOption, MachineEnv } from '../machine/cursor.js';
import { locate, type Located } from '../machine/operations.js';
import type { MachineError, RunSnapshot } from '../machine/run.js';
import { configurationPaths, resolveTarget } from '../statechart/index.js';
import { toolMatches, type ExtraAliases } from './tools.js';

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
    };
  }
  return out as StateRules;
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

/** The atomic states entering `id` lands in by default (initial children; every region of a parallel state). */
function landing(wf: Workflow, id: string): string[] {
  const node = wf.states.get(id);
  // A final state ends its region's activity: it allows nothing of its own (below).
  if (!node || node.children.length === 0) return node && node.kind !== 'history' && node.kind !== 'final' ? [id] : [];
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

export interface LocatedForCall extends Located {
  /** A statechart run where no active state allows the call: the denial to give. */
  denial?: string;
  /**
   * Statecharts: every level (the state and its ancestors) that lists
   * allowed_commands; a command must match at each (the effective node
   * carries only the innermost list).
   */
  commandLevels?: StateNode[];
}

/** Where the call is decided: the machine's `locate`, or on a statechart run the first active state allowing the tool, with its effective rules. */
export function locateForCall(run: RunSnapshot, env: MachineEnv, tool: string, opt: BranchOption & { aliases?: ExtraAliases } = {}): LocatedForCall | MachineError {
  const wf = run.chart ? chartWorkflow(run, env) : undefined;
  if (!wf || !run.chart) return locate(run, env, opt);
  const configuration = configurationPaths(wf, run.chart);
  // A region that reached its final state is done: it no longer widens what the agent may do.
  const live = configuration.filter((s) => wf.states.get(s)?.kind !== 'final');
  const chosen = live.find((s) => toolAllowed(wf, s, tool, opt.aliases));
  const id = chosen ?? live[0] ?? configuration[0];
  if (id === undefined || !wf.states.has(id)) return { code: 'unknown_state', message: 'the statechart run has no active state' };
  const commandLevels = levels(wf, id).filter((n) => n.rules.allowedCommands !== undefined);
  const located: LocatedForCall = { workflow: wf, node: effectiveNode(wf, id), position: run, ...(commandLevels.length > 1 ? { commandLevels } : {}) };
  if (chosen !== undefined) return located;
  const events = eventsAllowing(wf, configuration, tool, opt.aliases);
  const lead = events.length ? `Events that lead to a configuration where it is allowed: ${events.join(', ')}.` : 'No event of the active states leads to a state where it is allowed.';
  return { ...located, denial: `${tool} is not allowed in any active state (configuration: ${configuration.join(', ')}). ${lead}` };
}
