/**
 * <sg-chart>: what a statechart run has beyond a state: the active states
 * (one line per region, by the diagram's readable names),
 * the pending `after` timers with a live countdown,
 * and the invocations with their status. Also the mapping of the chart's
 * events onto <sg-events>' rows, so both kinds of run fire events alike.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { TransitionView } from '../src/engine/index.js';
import type { ChartEventView, ChartPanelModel, DiagramModel } from '../src/protocol.js';
import { countdown } from './format.js';
import { sectionStyles } from './styles.js';

const TICK_MS = 250;

/**
 * One row per candidate transition, in <sg-events>' shape; `available` is the
 * interpreter's dry run. Targets by the names the diagram gives them
 * (`names`: id → readable name), not by their dotted ids.
 */
export function chartTransitions(events: readonly ChartEventView[], names: ReadonlyMap<string, string> = new Map()): TransitionView[] {
  return events.flatMap((e) =>
    e.candidates.map((c) => ({
      event: e.event,
      target: c.targets.length ? c.targets.map((t) => names.get(t) ?? t).join(', ') : '(stays)',
      guards: c.guard ? [{ name: c.guard.text, passes: c.guard.passes }] : [],
      requires_approval: false,
      available: e.enabled,
    })),
  );
}

/** Each drawn state's readable name (the diagram's caption, or its disambiguated name) by id. */
export function diagramNames(diagram: DiagramModel): Map<string, string> {
  return new Map(diagram.nodes.map((n) => [n.id, n.name ?? n.label ?? n.id]));
}

export function chartReasons(events: readonly ChartEventView[]): Record<string, string> {
  return Object.fromEntries(events.flatMap((e) => (e.reason ? [[e.event, e.reason]] : [])));
}

export class SgChart extends LitElement {
  static override properties = { chart: { attribute: false }, names: { attribute: false } };
  declare chart: ChartPanelModel | undefined;
  /** The diagram's readable names by state id (diagramNames): the chips say these, not dotted ids. */
  declare names: ReadonlyMap<string, string>;
  private ticker: ReturnType<typeof setInterval> | undefined;
  static override styles = [sectionStyles, css`.timer .left { font-variant-numeric: tabular-nums; font-weight: 600; }`];

  constructor() {
    super();
    this.names = new Map();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Only the countdowns change between renders from the host.
    this.ticker = setInterval(() => (this.chart?.timers.length ? this.requestUpdate() : undefined), TICK_MS);
  }

  override disconnectedCallback(): void {
    if (this.ticker) clearInterval(this.ticker);
    super.disconnectedCallback();
  }

  override render() {
    const c = this.chart;
    if (!c) return nothing;
    const now = Date.now();
    const name = (id: string): string => this.names.get(id) ?? id;
    return html`
      <div class="row"><span class="label">active states</span>
        ${c.configuration.map((p) => html`<span class="chip" data-testid="chart-active" data-state=${p}>${name(p)}</span>`)}</div>
      ${c.error ? html`<div class="error" data-testid="chart-error">${c.error}</div>` : nothing}
      <div class="row"><span class="label">timers</span>
        ${c.timers.length
          ? c.timers.map((t) => html`<span class="chip timer" data-testid="chart-timer" data-state=${t.state} title=${new Date(t.dueMs).toLocaleTimeString()}>
              ${name(t.state)}: ${t.label} in <span class="left" data-testid="chart-timer-left">${countdown(t.dueMs, now)}</span></span>`)
          : html`<span class="muted">none pending</span>`}</div>
      <div class="row"><span class="label">invocations</span>
        ${c.invocations.length
          ? c.invocations.map((i) => html`<span class="chip" data-testid="chart-invocation" data-id=${i.id} data-status=${i.status}>${i.id} (${i.src}) ${i.status}</span>`)
          : html`<span class="muted">none</span>`}</div>`;
  }
}

customElements.define('sg-chart', SgChart);
