/**
 * What an agent must know about a statechart run beyond the `state` view
 * (whose `active_states`, machine/describe-chart.ts, gives every active
 * state's effective rules and limits): the events the active configuration
 * handles with their targets and guard results, and the tasks handed to
 * agents (`agent:` invocations) with their input. The briefing,
 * `statewright_transition`'s offered events and the participant's tool offer
 * read it. Keys are snake_case: it is part of the printed view.
 */
import type { JsonObject, Workflow } from '../model/index.js';
import { evaluateText, isTruthy } from '../expr/index.js';
import type { ChartSnapshot } from '../statechart/index.js';
import { configurationPaths, resolveTarget, ROOT_ID } from '../statechart/index.js';
import { levels } from './chart-rules.js';

/** One transition candidate on an event the active configuration handles. */
export interface ChartEventView {
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
  readonly events: readonly ChartEventView[];
  /** A `*` transition is active: any event name may be sent. */
  readonly accepts_any_event: boolean;
  readonly agent_invocations: readonly AgentInvocationView[];
}

export const AGENT_SRC_PREFIX = 'agent:';

/** The events of the active atomic states and their ancestors (the root too), innermost first per state, each declaring node once. */
function eventViews(wf: Workflow, snapshot: ChartSnapshot, configuration: readonly string[], now: number): { events: ChartEventView[]; wildcard: boolean } {
  const out: ChartEventView[] = [];
  let wildcard = false;
  const seen = new Set<string>();
  const running = snapshot.status === 'running';
  const sources = configuration.flatMap((s) => levels(wf, s).reverse().map((n) => n.id));
  for (const source of [...sources, ROOT_ID]) {
    if (seen.has(source)) continue;
    seen.add(source);
    const transitions = source === ROOT_ID ? wf.chart?.root.transitions : wf.states.get(source)?.chart?.transitions;
    for (const t of transitions ?? []) {
      if (t.trigger.kind !== 'event') continue;
      if (t.trigger.event === '*') {
        wildcard = true;
        continue;
      }
      const targets = t.targets.map((ref) => resolveTarget(wf, source, ref) ?? ref.name);
      let guard: ChartEventView['guard'];
      if (t.guard) {
        // Guards that read event.data see null here: the data is only known when the event is sent.
        const r = evaluateText(t.guard.text, { context: snapshot.context, event: { type: t.trigger.event }, now });
        guard = { expression: t.guard.text, passes: r.ok && isTruthy(r.value) };
      }
      out.push({ event: t.trigger.event, source: source === ROOT_ID ? '(chart)' : source, targets, ...(guard ? { guard } : {}), available: running && (guard?.passes ?? true) });
    }
  }
  return { events: out, wildcard };
}

export function chartAgentView(wf: Workflow, snapshot: ChartSnapshot, now: number): ChartAgentView {
  const configuration = configurationPaths(wf, snapshot).filter((s) => wf.states.get(s)?.kind !== 'final');
  const { events, wildcard } = eventViews(wf, snapshot, configuration, now);
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
