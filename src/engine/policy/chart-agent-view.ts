/**
 * What an agent must know about a statechart run beyond the `state` view
 * (whose `active_states`, machine/describe-chart.ts, gives every active
 * state's effective rules and limits): the events the active configuration
 * handles with their targets and guard results, and the tasks handed to
 * agents (`agent:` invocations) with their input. The briefing,
 * `statewright_transition`'s offered events and the participant's tool offer
 * read it. Keys are snake_case: it is part of the printed view.
 */
import type { JsonObject } from '../model/index.js';
import type { ChartTransitionView } from '../machine/describe-chart.js';
import type { ChartSnapshot } from '../statechart/index.js';
import { ROOT_ID } from '../statechart/targets.js';

/** One transition candidate on an event the active configuration handles. */
export interface AgentEventView {
  readonly event: string;
  /** The state (or `(chart)` for the root) that declares it. */
  readonly source: string;
  /** Resolved target ids; empty for a targetless transition. */
  readonly targets: readonly string[];
  readonly guard?: { readonly expression: string; readonly passes: boolean };
  /** Whether the candidate would be taken if sent now (its guard passes, the run is running). */
  readonly available: boolean;
}

/** A task a state handed to an agent (`invoke: {src: agent:<name>}`), still running. */
export interface AgentInvocationView {
  readonly id: string;
  readonly state: string;
  /** The `<name>` of `agent:<name>`. */
  readonly agent: string;
  readonly input: JsonObject;
}

/** What agents need of a statechart run beyond the `state` view (whose `active_states` gives each active state's rules and limits). */
export interface ChartAgentView {
  readonly events: readonly AgentEventView[];
  /** A `*` transition is active: any event name may be sent. */
  readonly accepts_any_event: boolean;
  readonly agent_invocations: readonly AgentInvocationView[];
}

export const AGENT_SRC_PREFIX = 'agent:';

/**
 * The agent's list of events, read off the `state` view's `transitions`
 * (machine/describe-chart.ts: every named event of the configuration, its
 * guard now, and whether sending it now takes the transition, asked of the
 * interpreter on a copy): one computation for the CLI, the panel's reader
 * and the agents.
 */
function eventViews(transitions: readonly ChartTransitionView[]): { events: AgentEventView[]; wildcard: boolean } {
  const events: AgentEventView[] = [];
  let wildcard = false;
  for (const t of transitions) {
    if (t.event === '*') {
      wildcard = true;
      continue;
    }
    const guard = t.guard ? { expression: t.guard.expression, passes: t.guard.passes === true } : undefined;
    events.push({ event: t.event, source: t.source === ROOT_ID ? '(chart)' : t.source, targets: t.targets, ...(guard ? { guard } : {}), available: t.available });
  }
  return { events, wildcard };
}

export function chartAgentView(snapshot: ChartSnapshot, transitions: readonly ChartTransitionView[]): ChartAgentView {
  const { events, wildcard } = eventViews(transitions);
  return {
    events,
    accepts_any_event: wildcard,
    agent_invocations: snapshot.invocations
      .filter((i) => i.status === 'running' && i.src.startsWith(AGENT_SRC_PREFIX))
      .map((i) => ({ id: i.id, state: i.state, agent: i.src.slice(AGENT_SRC_PREFIX.length), input: i.input ?? {} })),
  };
}

/** The distinct event names `statewright_transition` may send now, in the order listed. */
export function eventNames(view: Partial<Pick<ChartAgentView, 'events'>>): string[] {
  return [...new Set((view.events ?? []).map((e) => e.event))];
}
