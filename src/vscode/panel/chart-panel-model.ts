/**
 * What a statechart run adds to the panel's render model: the active states
 * (every one, ancestors included, for the diagram's highlight), the pending
 * `after` timers with what they will do, the invocations, and the events the
 * active states accept with their guard results. Pure, unit-tested.
 */
import { chartEvents, evidenceView, configurationPaths, duration, ROOT_ID, type ChartSnapshot, type ChartTimer, type RunSnapshot, type Workflow } from '../../engine/index.js';
import type { ChartPanelModel, ChartTimerView } from '../../protocol.js';
import { configurationSummary } from '../runtime/chart-summary.js';

function timerView(wf: Workflow, t: ChartTimer): ChartTimerView {
  const transitions = t.state === ROOT_ID ? wf.chart?.root.transitions : wf.states.get(t.state)?.chart?.transitions;
  const tr = transitions?.[t.transition];
  const trigger = tr?.trigger;
  const delay = trigger?.kind === 'after' ? (typeof trigger.delay === 'number' ? duration(trigger.delay) : trigger.delay.text.trim()) : '';
  const targets = tr?.targets.map((r) => r.name).join(', ');
  return { state: t.state, label: `after ${delay}${targets ? ` → ${targets}` : ''}`, dueMs: t.due };
}

/** `now`: the run's clock (ms), which guards reading `now()` are evaluated at. */
export function chartPanelModel(run: RunSnapshot, wf: Workflow, now: number): ChartPanelModel | undefined {
  const s = run.chart as ChartSnapshot | undefined;
  if (!s || !wf.chart) return undefined;
  const configuration = configurationPaths(wf, s);
  return {
    configuration,
    // The root ('' in the diagram, drawn when it has transitions of its own) is always active.
    active: ['', ...s.configuration],
    summary: configurationSummary(wf, configuration),
    timers: s.status === 'running' ? s.timers.map((t) => timerView(wf, t)).sort((a, b) => a.dueMs - b.dueMs) : [],
    invocations: s.invocations,
    events: chartEvents(wf, s, now, evidenceView(run.counters.evidence), run),
    ...(s.error === undefined ? {} : { error: s.error }),
  };
}
