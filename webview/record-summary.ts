/**
 * <sg-record>: the run record (agent-state.json) in short: status, phase,
 * task, iterations, and the cost and time bounds as bars (orange past 75%,
 * red past 90%, as the record's warnings).
 */
import { LitElement, css, html, nothing } from 'lit';
import type { BoundView, RecordSummary } from '../src/protocol.js';
import { usage } from './format.js';
// The run record's own formatter, so the ticking time reads as the record writes it ("0h 34m 8s").
import { formatElapsed } from '../src/engine/record/bounds.js';
import { sectionStyles } from './styles.js';

export class SgRecord extends LitElement {
  static override properties = { record: { attribute: false } };
  declare record: RecordSummary | undefined;
  static override styles = [
    sectionStyles,
    css`
      .bar { display: inline-block; width: 8em; height: 0.6em; background: var(--vscode-editorWidget-border, #8884); border-radius: 2px; overflow: hidden; vertical-align: middle; }
      .fill { height: 100%; background: var(--vscode-charts-green); }
      .fill.warn { background: var(--vscode-charts-orange); }
      .fill.over { background: var(--vscode-charts-red); }
      .warning { color: var(--vscode-editorWarning-foreground); }
    `,
  ];

  private timer: ReturnType<typeof setInterval> | undefined;

  // While the run goes on, its time ticks each second between the record's writes.
  override connectedCallback(): void {
    super.connectedCallback();
    this.timer = setInterval(() => this.record?.ticking && this.requestUpdate(), 1000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.timer);
  }

  /** The time bound now: the record's, or from the start while the run goes on. */
  private time(r: RecordSummary): BoundView {
    if (!r.ticking) return r.time;
    const ms = Date.now() - r.ticking.startMs;
    const max = r.ticking.maxMs;
    return { used: formatElapsed(ms), max: r.time.max, fraction: max === null ? null : max === 0 ? 1 : Math.min(1, ms / max) };
  }

  private bound(name: string, id: string, b: BoundView) {
    const pct = b.fraction === null ? null : Math.round(b.fraction * 100);
    const cls = b.fraction === null ? '' : b.fraction >= 0.9 ? 'over' : b.fraction >= 0.75 ? 'warn' : '';
    return html`<div class="row" data-testid=${id}><span class="label">${name}</span>
      ${pct === null ? nothing : html`<span class="bar" role="progressbar" aria-valuenow=${pct} aria-valuemin="0" aria-valuemax="100"><div class="fill ${cls}" style="width: ${pct}%"></div></span>`}
      <span>${b.used}${b.max === null ? html` <span class="muted">(no bound)</span>` : ` of ${b.max}`}</span></div>`;
  }

  override render() {
    const r = this.record;
    if (!r) return nothing;
    return html`
      <div class="row" data-testid="record-status"><span class="label">status</span><span class="chip">${r.status}</span>
        <span class="muted">phase ${r.phase.index + 1}/${r.phase.total} (${r.phase.name}), task ${r.task}</span></div>
      ${r.taskText ? html`<div class="row"><span class="label">task</span><span data-testid="record-task">${r.taskText}</span></div>` : nothing}
      <div class="row" data-testid="record-iterations"><span class="label">iterations</span><span class="chip">${usage(r.iteration, r.maxIterations)}</span>
        <span class="muted" data-testid="record-counts">${r.counts.join(', ')}${r.lastCheckpointSha ? ` (the last at commit ${r.lastCheckpointSha.slice(0, 8)})` : ''}</span></div>
      ${this.bound('cost', 'record-cost', r.cost)} ${this.bound('time', 'record-time', this.time(r))}
      ${r.warnings.map((w) => html`<div class="row warning" data-testid="record-warning">${w}</div>`)}`;
  }
}

customElements.define('sg-record', SgRecord);
