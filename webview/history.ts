/**
 * <sg-history>: the journal as a timeline, newest first. Selecting an entry
 * asks the host for the run as it was right after it (a replay of the
 * journal's prefix); the panel then shows that state and context read-only.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { HistoryEntry, HistoryPoint } from '../src/protocol.js';
import { post } from './api.js';
import { time } from './format.js';
import { sectionStyles } from './styles.js';
import { summary } from './history-summary.js';

export { summary };
import './context-tree.js';

export class SgHistory extends LitElement {
  static override properties = { entries: { attribute: false }, point: { attribute: false }, names: { attribute: false } };
  declare entries: readonly HistoryEntry[];
  declare point: HistoryPoint | null;
  /** The diagram's readable names by state id (diagramNames): lines say these, not dotted ids. */
  declare names: ReadonlyMap<string, string>;
  static override styles = [
    sectionStyles,
    css`
      ol { list-style: none; margin: 0; padding: 0; max-height: 260px; overflow: auto; }
      li { display: grid; grid-template-columns: 5.5em minmax(0, 1fr); gap: 6px; padding: 2px 4px; cursor: pointer; border-radius: 2px; }
      li:hover { background: var(--vscode-list-hoverBackground); }
      li:focus { outline: 1px solid var(--vscode-focusBorder); }
      li.selected { background: var(--vscode-list-activeSelectionBackground); color: var(--vscode-list-activeSelectionForeground); }
      li.k-rejected, li.k-tool_denied, li.k-approval_rejected { color: var(--vscode-errorForeground); }
      li.k-interrupt, li.k-interrupt_return, li.k-bound_warning { color: var(--vscode-charts-orange, inherit); }
      .point { border-left: 2px solid var(--vscode-charts-orange, orange); padding-left: 8px; margin-top: 6px; }
    `,
  ];

  constructor() {
    super();
    this.entries = [];
    this.point = null;
    this.names = new Map();
  }

  private select(seq: number): void {
    post({ type: 'selectHistory', seq: this.point?.seq === seq ? null : seq });
  }

  override render() {
    const p = this.point;
    return html`
      <ol data-testid="history" aria-label="run history">
        ${[...this.entries].reverse().map((e) => html`<li tabindex="0" class="k-${e.kind} ${p?.seq === e.seq ? 'selected' : ''}"
            data-testid="history-entry" data-seq=${e.seq} data-kind=${e.kind}
            @click=${() => this.select(e.seq)} @keydown=${(ev: KeyboardEvent) => ev.key === 'Enter' && this.select(e.seq)}>
          <span class="muted">${time(e.at)}</span><span>${summary(e, this.names)}</span>${e.origin
            ? html` <span class="muted origin" data-testid="history-origin" title="committed on ${e.origin.machine ?? '?'} by ${e.origin.client ?? '?'}">${e.origin.machine ?? '?'} · ${e.origin.client ?? '?'}</span>`
            : nothing}</li>`)}
      </ol>
      ${p
        ? html`<div class="point" data-testid="history-point">
            <div class="row"><strong>after #${p.seq}</strong><span>state <code data-testid="history-point-state">${this.names.get(p.state) ?? p.state}</code></span>
              <span class="muted">${p.status}, ${p.transitions} transitions (read-only)</span>
              <vscode-button secondary @click=${() => post({ type: 'selectHistory', seq: null })}>Back to live</vscode-button></div>
            <sg-context .context=${p.context}></sg-context></div>`
        : nothing}`;
  }
}

customElements.define('sg-history', SgHistory);
