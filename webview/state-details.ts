/**
 * <sg-state>: what the agent may do in the current state and how much of each
 * limit it has used, plus the workflow's meta (task type, danger level,
 * steps against estimated_steps).
 */
import { LitElement, css, html, nothing } from 'lit';
import type { StateView } from '../src/engine/index.js';
import type { WorkflowSummary } from '../src/protocol.js';
import { kb, usage } from './format.js';
import { sectionStyles } from './styles.js';

function chips(items: readonly string[], cls = '') {
  return items.map((t) => html`<span class="chip ${cls}">${t}</span>`);
}

export class SgState extends LitElement {
  static override properties = { view: { attribute: false }, workflow: { attribute: false } };
  declare view: StateView | undefined;
  declare workflow: WorkflowSummary | undefined;
  static override styles = [
    sectionStyles,
    css`
      vscode-badge.danger-safe { --vscode-badge-background: var(--vscode-charts-green); --vscode-badge-foreground: var(--vscode-editor-background); }
      vscode-badge.danger-moderate { --vscode-badge-background: var(--vscode-charts-orange); --vscode-badge-foreground: var(--vscode-editor-background); }
      vscode-badge.danger-dangerous { --vscode-badge-background: var(--vscode-charts-red); --vscode-badge-foreground: var(--vscode-editor-background); }
    `,
  ];

  private limits(v: StateView) {
    const l = v.limits;
    const u = v.usage;
    const rows: [string, string, string][] = [['iterations', 'limit-iterations', usage(u.iterations, l.max_iterations)]];
    // max_edit_lines caps each edit: the panel shows the cap and the lines changed so far, not a count towards it.
    if (l.max_edit_lines !== null) rows.push(['lines per edit', 'limit-edit-lines', `≤ ${l.max_edit_lines} (${u.edit_lines} changed)`]);
    rows.push(['files', 'limit-files', usage(u.files_edited.length, l.max_files_per_state)]);
    rows.push(['budget', 'limit-budget', usage(u.bytes_read, l.context_budget_bytes, kb)]);
    return rows.map(([name, id, text]) => html`<span class="chip" data-testid=${id}>${name} ${text}</span>`);
  }

  override render() {
    const v = this.view;
    const wf = this.workflow;
    if (!v || !wf) return nothing;
    const est = wf.estimatedSteps;
    return html`
      <div class="row"><span class="label">instructions</span></div>
      <pre data-testid="instructions">${v.instructions ?? '(none)'}</pre>
      <div class="row"><span class="label">allowed tools</span>${v.allowed_tools === null ? html`<span class="muted">any</span>` : v.allowed_tools.length ? chips(v.allowed_tools) : html`<span class="muted">none but stategate's own</span>`}</div>
      ${v.disallowed_tools.length ? html`<div class="row"><span class="label">disallowed tools</span>${chips(v.disallowed_tools, 'deny')}</div>` : nothing}
      <div class="row" data-testid="allowed-commands"><span class="label">commands</span>${v.allowed_commands === null ? html`<span class="muted">any</span>` : chips(v.allowed_commands)}</div>
      ${v.blocked_env.length ? html`<div class="row"><span class="label">blocked env</span>${chips(v.blocked_env, 'deny')}</div>` : nothing}
      ${Object.keys(v.env_overrides).length
        ? html`<div class="row"><span class="label">env overrides</span>${chips(Object.entries(v.env_overrides).map(([k, val]) => `${k}=${val}`))}</div>`
        : nothing}
      ${v.model ? html`<div class="row"><span class="label">model</span><code>${v.model}</code>${v.thinking_level ? html`<span class="muted">thinking ${v.thinking_level}</span>` : nothing}</div>` : nothing}
      <div class="row" data-testid="limits"><span class="label">limits</span>${this.limits(v)}</div>
      <div class="row" data-testid="meta"><span class="label">workflow</span>
        <span>${wf.name ?? wf.id}</span>
        ${wf.taskType ? html`<span class="chip">${wf.taskType}</span>` : nothing}
        ${wf.dangerLevel ? html`<vscode-badge data-testid="danger" class="danger-${wf.dangerLevel}">${wf.dangerLevel}</vscode-badge>` : nothing}
        <span class="chip" data-testid="steps">steps ${usage(v.usage.transitions, est ?? null)}</span>
        ${wf.debug ? html`<span class="chip">debug</span>` : nothing}
      </div>`;
  }
}

customElements.define('sg-state', SgState);
