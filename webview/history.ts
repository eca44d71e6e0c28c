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
import './context-tree.js';

/** One line per entry kind: what a person scanning the timeline needs. */
export function summary(e: HistoryEntry): string {
  switch (e.kind) {
    case 'start': return `started ${e.workflowId} in ${e.state}`;
    case 'transition': return `${e.event}: ${e.from} → ${e.to}${e.via ? ` (${e.via.replace('_', ' ')})` : ''}`;
    case 'rejected': return `${e.event} refused in ${e.state}: ${e.message}`;
    case 'approval_requested': return `${e.event} waits for approval (${e.from} → ${e.target})`;
    case 'approved': return `${e.event} approved`;
    case 'approval_rejected': return `${e.event} rejected (${e.from} stays)`;
    case 'approval_withdrawn': return `${e.event} approval withdrawn: ${e.reason}`;
    case 'interrupt': return `interrupt ${e.name}${e.file ? ` (${e.file})` : ''}: ${e.from} → ${e.to}`;
    case 'interrupt_return': return `$return from ${e.name}: ${e.from} → ${e.to}`;
    case 'pause': return 'paused';
    case 'resume': return 'resumed';
    case 'stop': return 'stopped';
    case 'force': return `forced ${e.from} → ${e.to}`;
    case 'fork_start': return `${e.event}: fork ${e.branches.join(', ')} (join ${e.join})`;
    case 'branch_start': return `branch ${e.branch} starts in ${e.state}`;
    case 'branch_done': return `branch ${e.branch} ${e.outcome} in ${e.state}`;
    case 'join': return `join ${e.outcome}: ${e.from} → ${e.to ?? '(run failed)'}`;
    case 'invoke_start': return `${e.event}: invoke ${e.invoked} (${e.state})`;
    case 'child_done': return `child ${e.outcome} in ${e.childState}: ${e.from} → ${e.to ?? '(run failed)'}`;
    case 'reload': return `definition reloaded in ${e.state}`;
    case 'tool_denied': return `denied ${e.tool} in ${e.state}: ${e.reason}`;
    case 'tool_result': return `${e.tool} in ${e.state}${e.file ? ` edited ${e.file}` : ''}`;
    case 'learning': return `learning (${e.type}) in ${e.state}: ${e.lesson}`;
    case 'usage': return `model usage +$${e.cost.toFixed(2)} (total $${e.total.toFixed(2)})${e.model ? ` by ${e.model}` : ''}`;
    case 'bound_warning': return e.message;
    case 'stage_setup': return `stage ${e.state} #${e.attempt} set up (${e.completion_tool}${e.turn_cap ? `, ${e.turn_cap} turns` : ''})`;
    case 'prompt_sent': return `stage ${e.state} #${e.attempt}: prompt sent`;
    case 'turn': return `stage ${e.state} #${e.attempt}: turn ${e.turn}${e.turn_cap ? `/${e.turn_cap}` : ''}`;
    case 'grant_asked': return `stage ${e.state}: grant asked for ${e.tool} ${e.args_summary}`;
    case 'grant_answered': return `stage ${e.state}: grant for ${e.tool} ${e.approved ? 'approved' : `denied (${e.by})`}`;
    case 'grant_consumed': return `stage ${e.state}: grant for ${e.tool} used`;
    case 'completion_checked': return `stage ${e.state}: ${e.tool} ${e.valid ? 'valid' : `invalid (${(e.errors ?? []).join('; ')})`}`;
    case 'stage_exit': return `stage ${e.state} #${e.attempt} ${e.outcome} after ${e.turns} turns${e.reason ? `: ${e.reason}` : ''}`;
    case 'next_stage': return `next: ${e.from.join(', ')} → ${e.to.join(', ') || '(end)'}`;
    case 'chart': return `${e.op === 'timers' ? 'timers fired' : e.op === 'start' ? 'statechart started' : `${e.op} ${e.event ?? ''}`.trim()}${e.transitioned ? '' : ' (no transition)'}: ${e.state}`;
  }
}

export class SgHistory extends LitElement {
  static override properties = { entries: { attribute: false }, point: { attribute: false } };
  declare entries: readonly HistoryEntry[];
  declare point: HistoryPoint | null;
  static override styles = [
    sectionStyles,
    css`
      ol { list-style: none; margin: 0; padding: 0; max-height: 260px; overflow: auto; }
      li { display: grid; grid-template-columns: 5.5em 1fr; gap: 6px; padding: 2px 4px; cursor: pointer; border-radius: 2px; }
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
          <span class="muted">${time(e.at)}</span><span>${summary(e)}</span></li>`)}
      </ol>
      ${p
        ? html`<div class="point" data-testid="history-point">
            <div class="row"><strong>after #${p.seq}</strong><span>state <code data-testid="history-point-state">${p.state}</code></span>
              <span class="muted">${p.status}, ${p.transitions} transitions (read-only)</span>
              <vscode-button secondary @click=${() => post({ type: 'selectHistory', seq: null })}>Back to live</vscode-button></div>
            <sg-context .context=${p.context}></sg-context></div>`
        : nothing}`;
  }
}

customElements.define('sg-history', SgHistory);
