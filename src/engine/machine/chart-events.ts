/**
 * The events a person can send to a statechart run now, for the state panel's
 * buttons: every named event (no wildcards) on a transition of an active
 * state or the root, with each candidate transition's guard evaluated on the
 * current context, and whether sending the event without data would move
 * the run. "Would move" is asked of the interpreter itself (a dry run of
 * `sendEvent`, whose result is thrown away), so the panel can never disagree
 * with what `run send` does; the guard verdicts only explain it.
 */
import type { ChartTransition, JsonObject, Workflow } from '../model/index.js';
import { interpreter } from '../statechart/lazy.js';
import type { ChartSnapshot } from '../statechart/index.js';
import { inputBindings, type ChartInputs } from './chart-run.js';

type InputBindings = ReturnType<typeof inputBindings>;

export interface ChartGuardView {
  /** The guard expression as written (one line). */
  readonly text: string;
  readonly passes: boolean;
  /** Why it could not be evaluated (it then counts as false, as in the interpreter). */
  readonly error?: string;
}

export interface ChartEventCandidate {
  /** The state that declares the transition ('' for the chart root). */
  readonly source: string;
  /** Target ids as written; empty for a targetless transition. */
  readonly targets: readonly string[];
  readonly guard?: ChartGuardView;
}

export interface ChartEventView {
  readonly event: string;
  readonly candidates: readonly ChartEventCandidate[];
  /** Whether sending the event now (no data) takes a transition. */
  readonly enabled: boolean;
  /** Why it would not (a failing guard, a finished run); absent when enabled. */
  readonly reason?: string;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

function guardView(t: ChartTransition, s: ChartSnapshot, event: string, now: number, evidence: JsonObject | undefined, bindings: InputBindings): ChartGuardView | undefined {
  if (!t.guard) return undefined;
  const text = oneLine(t.guard.text);
  const { evaluateText, isTruthy } = interpreter();
  const r = evaluateText(t.guard.text, { context: s.context, event: { type: event }, now, ...(evidence ? { evidence } : {}), ...bindings });
  return r.ok ? { text, passes: isTruthy(r.value) } : { text, passes: false, error: r.error.message };
}

function reasonOf(s: ChartSnapshot, candidates: readonly ChartEventCandidate[]): string {
  if (s.status !== 'running') return `the run is ${s.status === 'done' ? 'done' : 'failed'}`;
  const failing = candidates.flatMap((c) => (c.guard && !c.guard.passes ? [c.guard] : []));
  if (failing.length) return failing.map((g) => `guard ${g.text} is false${g.error ? ` (${g.error})` : ''}`).join('; ');
  return 'no transition would be taken now';
}

/** The named events of the active states (document order, each once), with their guards and a dry-run verdict. */
/** `evidence`: what the run observed in its state (machine/evidence.ts), which guards may read; absent: none. `inputs`: the run's env and agents. */
export function chartEvents(wf: Workflow, s: ChartSnapshot, now: number, evidence?: JsonObject, inputs: ChartInputs = {}): ChartEventView[] {
  const bindings = inputBindings(inputs);
  const byEvent = new Map<string, ChartEventCandidate[]>();
  const sources: [string, readonly ChartTransition[]][] = [['', wf.chart?.root.transitions ?? []]];
  for (const id of s.configuration) sources.push([id, wf.states.get(id)?.chart?.transitions ?? []]);
  for (const [source, transitions] of sources) {
    for (const t of transitions) {
      if (t.trigger.kind !== 'event' || t.trigger.event.includes('*')) continue;
      const event = t.trigger.event;
      const guard = guardView(t, s, event, now, evidence, bindings);
      const list = byEvent.get(event) ?? byEvent.set(event, []).get(event)!;
      list.push({ source, targets: t.targets.map((r) => r.name), ...(guard ? { guard } : {}) });
    }
  }
  return [...byEvent].map(([event, candidates]) => {
    const enabled = s.status === 'running' && interpreter().sendEvent(wf, s, { type: event }, { now, ...(evidence ? { evidence } : {}), ...bindings }).transitioned;
    return { event, candidates, enabled, ...(enabled ? {} : { reason: reasonOf(s, candidates) }) };
  });
}
