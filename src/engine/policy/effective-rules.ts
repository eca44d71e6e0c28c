/**
 * Gating on statecharts (docs/enforcement.md). The
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
import type { StateNode } from '../model/index.js';
import { enforcedChart } from './enforced-chart.js';
import type { BranchOption, MachineEnv } from '../machine/cursor.js';
import { locate, type Located } from '../machine/operations.js';
import type { MachineError, RunSnapshot } from '../machine/run.js';
import { interpreter } from '../statechart/lazy.js';
import type { ExtraAliases } from '../agent/tools.js';
import { effectiveNode, eventsAllowing, handledEvents, levels, limitOwners, toolAllowed, type LimitKey } from '../machine/chart-rules.js';

export { effectiveNode, effectiveRules, eventsAllowing, handledEvents, LIMIT_KEYS, limitOwners, toolAllowed, type LimitKey } from '../machine/chart-rules.js';

export interface LocatedForCall extends Located {
  /** A statechart run where no active state allows the call: the denial to give. */
  denial?: string;
  /**
   * Statecharts: every level (the state and its ancestors) that lists
   * allowed_commands; a command must match at each (the effective node
   * carries only the innermost list).
   */
  commandLevels?: StateNode[];
  /** Statecharts: the events the active configuration handles (for the max_iterations denial). */
  events?: string[];
  /** Statecharts: the node each limit in force counts in (limit-counters.ts). */
  limitOwners?: Partial<Record<LimitKey, string>>;
}

/** Where the call is decided: the machine's `locate`, or on a statechart run the first active state allowing the tool, with its effective rules. */
export function locateForCall(run: RunSnapshot, env: MachineEnv, tool: string, opt: BranchOption & { aliases?: ExtraAliases } = {}): LocatedForCall | MachineError {
  const held = enforcedChart(run, env); // the innermost running child statechart, or the run's own chart
  if (!held) return locate(run, env, opt);
  const wf = held.workflow;
  const configuration = interpreter().configurationPaths(wf, held.snapshot);
  // A region that reached its final state is done: it no longer widens what the agent may do.
  const live = configuration.filter((s) => wf.states.get(s)?.kind !== 'final');
  const chosen = live.find((s) => toolAllowed(wf, s, tool, opt.aliases));
  const id = chosen ?? live[0] ?? configuration[0];
  if (id === undefined || !wf.states.has(id)) return { code: 'unknown_state', message: 'the statechart run has no active state' };
  const commandLevels = levels(wf, id).filter((n) => n.rules.allowedCommands !== undefined);
  const located: LocatedForCall = {
    workflow: wf,
    node: effectiveNode(wf, id),
    position: run,
    // A child chart's states are not nodes of the run's own chart, whose exits drop per-node counters:
    // while a child holds the agent its limits count in the run's counters, reset on any exit (the child's too).
    ...(held.where === '' ? { limitOwners: limitOwners(wf, id) } : {}),
    events: handledEvents(wf, configuration),
    ...(commandLevels.length > 1 ? { commandLevels } : {}),
  };
  if (chosen !== undefined) return located;
  const events = [{ workflow: wf, configuration }, ...held.outer].flatMap((m) => eventsAllowing(m.workflow, m.configuration, tool, opt.aliases));
  const lead = events.length ? `Events that lead to a configuration where it is allowed: ${events.join(', ')}.` : 'No event of the active states leads to a state where it is allowed.';
  return { ...located, denial: `${tool} is not allowed in any active state (${held.where}configuration: ${configuration.join(', ')}). ${lead}` };
}
