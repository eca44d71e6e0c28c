/**
 * <sg-timeline>: a stage pipeline run as a timeline: one row per stage
 * execution (attempt, outcome, turns of the cap, duration on the run's clock,
 * its grants), the next-stage decisions between them. Clicking a stage shows
 * its completion payloads (each check, valid or with its errors).
 */
import { LitElement, css, html, nothing } from 'lit';
import type { PipelineTimeline } from '../src/protocol.js';
import { sectionStyles } from './styles.js';

type Stage = PipelineTimeline['stages'][number];

export class SgTimeline extends LitElement {
  static override properties = { timeline: { attribute: false }, open: { state: true } };
  declare timeline: PipelineTimeline | undefined;
  declare open: string | undefined;
  static override styles = [
    sectionStyles,
    css`
      ol { list-style: none; margin: 0; padding: 0; }
      li.stage { padding: 3px 4px; border-left: 3px solid var(--vscode-charts-blue, #38f); margin: 2px 0; cursor: pointer; }
      li.stage.completed { border-left-color: var(--vscode-charts-green); }
      li.stage.failed, li.stage.cancelled { border-left-color: var(--vscode-charts-red); }
      li.stage:focus { outline: 1px solid var(--vscode-focusBorder); }
      .grant, .payload { margin-left: 1.5em; font-size: 0.95em; }
      .invalid { color: var(--vscode-errorForeground); }
      pre { margin: 2px 0 2px 1.5em; white-space: pre-wrap; }
    `,
  ];

  private toggle(id: string): void {
    this.open = this.open === id ? undefined : id;
  }

  private stage(s: Stage) {
    const duration = s.duration_ms === undefined ? 'running' : `${(s.duration_ms / 1000).toFixed(1)} s`;
    const shown = this.open === s.stage_exec_id;
    return html`<li class="stage ${s.outcome ?? 'active'}" tabindex="0" data-testid="timeline-stage" data-state=${s.state} data-attempt=${s.attempt} data-outcome=${s.outcome ?? 'active'}
        @click=${() => this.toggle(s.stage_exec_id)} @keydown=${(e: KeyboardEvent) => (e.key === 'Enter' ? this.toggle(s.stage_exec_id) : undefined)}>
      <strong>${s.state}</strong>${s.scope ? html` <span class="muted">${s.scope}</span>` : nothing} <span class="chip">#${s.attempt}</span>
      <span>${s.outcome ?? 'active'}</span> <span class="muted">${s.turns}${s.turn_cap ? `/${s.turn_cap}` : ''} turns, ${duration}${s.reason ? `: ${s.reason}` : ''}</span>
      ${s.grants.map((g) => html`<div class="grant" data-testid="timeline-grant">grant ${g.tool} <span class="muted">${g.args_summary}</span>: ${g.approved === undefined ? 'asked' : g.approved ? 'approved' : `denied (${g.by})`}${g.consumed_at ? ', used' : ''}</div>`)}
      ${shown
        ? s.completions.map((c) => html`<div class="payload ${c.valid ? '' : 'invalid'}" data-testid="timeline-payload">${c.valid ? 'valid payload' : `invalid: ${(c.errors ?? []).join('; ')}`}<pre>${JSON.stringify(c.payload, null, 2)}</pre></div>`)
        : s.completions.length ? html`<div class="payload muted">${s.completions.length} completion call(s): click to see the payloads</div>` : nothing}
    </li>`;
  }

  override render() {
    const t = this.timeline;
    if (!t) return nothing;
    if (!t.stages.length) return html`<div class="muted">No stage has started.</div>`;
    return html`<ol data-testid="timeline">${t.stages.map((s) => this.stage(s))}</ol>
      ${t.decisions.map((d) => html`<div class="muted" data-testid="timeline-decision">next: ${d.from.join(', ')} → ${d.to.join(', ') || `(end${d.status ? `: ${d.status}` : ''})`}</div>`)}`;
  }
}

customElements.define('sg-timeline', SgTimeline);
