/**
 * <sg-panel>: the state panel. It holds the last render model from the host
 * and lays the sections out: run header and controls, banners (definition
 * changed, interrupt), the pending approval card, the diagram, then the
 * current state, events, context and history; on a statechart run also the
 * active states, timers and invocations (<sg-chart>), and an SVG export.
 */
import { LitElement, css, html, nothing } from 'lit';
import { withCode } from './inline-code.js';
import type { DefinitionRenderModel, FlowRenderModel, HistoryPoint, HostMessage, RenderModel } from '../src/protocol.js';
import { post } from './api.js';
import { time } from './format.js';
import { sectionStyles } from './styles.js';
import type { SgDiagram } from './diagram.js';
import { chartReasons, chartTransitions, diagramNames } from './chart-details.js';
import './diagram.js';
import './state-details.js';
import './events.js';
import './context-tree.js';
import './history.js';
import './record-summary.js';
import './timeline.js';

type Active = Extract<RenderModel, { kind: 'active' }>;

export class SgPanel extends LitElement {
  static override properties = { model: { state: true }, point: { state: true } };
  declare model: RenderModel | undefined;
  declare point: HistoryPoint | null;

  static override styles = [
    sectionStyles,
    css`
      :host { padding: 6px 8px 16px; }
      header { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-bottom: 6px; }
      header .state { font-weight: 600; font-size: 1.1em; }
      header .controls { margin-left: auto; display: flex; gap: 4px; }
      .banner { padding: 6px 8px; margin: 6px 0; border-radius: 3px; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
      .banner.changed { background: var(--vscode-inputValidation-warningBackground); border: 1px solid var(--vscode-inputValidation-warningBorder); }
      code { font-family: var(--vscode-editor-font-family, monospace); font-size: 0.95em; }
      .banner.failed { background: var(--vscode-inputValidation-errorBackground); border: 1px solid var(--vscode-inputValidation-errorBorder); }
      /* The status badge in the shared colors: a failed run or flow looks failed, a waiting or paused one asks for attention. */
      vscode-badge[data-status='failed'] { --vscode-badge-background: var(--vscode-errorForeground); --vscode-badge-foreground: var(--vscode-editor-background); }
      vscode-badge[data-status='waiting'], vscode-badge[data-status='paused'], vscode-badge[data-status='interrupted'] { --vscode-badge-background: var(--vscode-editorWarning-foreground); --vscode-badge-foreground: var(--vscode-editor-background); }
      .banner.interrupt { background: var(--vscode-inputValidation-infoBackground); border: 1px solid var(--vscode-inputValidation-infoBorder); }
      .approval { border: 1px solid var(--vscode-charts-orange, orange); border-radius: 4px; padding: 8px; margin: 6px 0; }
      .approval .msg { margin: 4px 0 8px; }
      .approval .actions { display: flex; gap: 6px; }
      sg-diagram { border: 1px solid var(--vscode-panel-border, rgba(128,128,128,0.35)); border-radius: 3px; margin: 6px 0; }
      vscode-collapsible { margin-top: 4px; }
      .body { padding: 4px 6px; }
    `,
  ];

  constructor() {
    super();
    this.point = null;
    window.addEventListener('message', (e: MessageEvent<HostMessage>) => this.receive(e.data));
  }

  private receive(msg: HostMessage): void {
    switch (msg.type) {
      case 'render':
        this.model = msg.model;
        // A history point belongs to the run it came from.
        if (msg.model.kind !== 'active') this.point = null;
        return;
      case 'historyPoint':
        this.point = msg.point;
        return;
      case 'requestSvg': {
        const diagram = this.renderRoot.querySelector<SgDiagram>('sg-diagram');
        post({ type: 'svg', requestId: msg.requestId, svg: diagram?.exportSvg() ?? null });
        return;
      }
    }
  }

  private header(m: Active) {
    const v = m.view;
    const running = m.status === 'running';
    return html`<header>
      <span class="state" data-testid="current-state">${m.chart ? m.chart.summary : v.state}</span>
      ${v.scope ? html`<span class="muted">(${v.scope})</span>` : nothing}
      <vscode-badge data-testid="run-status" data-status=${v.pending_approval ? 'waiting' : m.status}>${m.statusLabel}</vscode-badge>
      <span class="muted">${m.workflow.id}</span>
      <span class="controls">
        ${running
          ? html`<vscode-button secondary icon="debug-pause" data-testid="pause" @click=${() => post({ type: 'pause' })}>Pause</vscode-button>`
          : m.status === 'paused'
            ? html`<vscode-button secondary icon="debug-start" data-testid="resume" @click=${() => post({ type: 'resume' })}>Resume</vscode-button>`
            : nothing}
        ${m.chart ? html`<vscode-button secondary icon="export" data-testid="export-svg" title="Export the diagram as SVG (as stategate export --format svg)" @click=${() => post({ type: 'exportSvg' })}>SVG</vscode-button>` : nothing}
        ${running || m.status === 'paused' ? html`<vscode-button secondary icon="debug-stop" data-testid="stop" @click=${() => post({ type: 'stop' })}>Stop</vscode-button>` : nothing}
      </span>
    </header>`;
  }

  private banners(m: Active) {
    const v = m.view;
    return html`
      ${m.definitionChanged
        ? html`<div class="banner changed" data-testid="definition-changed" role="status">
            <vscode-icon name="warning"></vscode-icon><span>The saved workflow file differs from the definition this run uses; the run goes on with its own until you reload it.</span>
            <vscode-button icon="refresh" data-testid="reload-definition" @click=${() => post({ type: 'reloadDefinition' })}>Reload definition</vscode-button></div>`
        : nothing}
      ${m.sandbox && !m.sandbox.enforced
        ? html`<div class="banner changed" data-testid="sandbox-off" role="status"><vscode-icon name="shield"></vscode-icon><span>Sandbox off: ${withCode(m.sandbox.reason ?? '')}.</span></div>`
        : m.sandbox
          ? html`<div class="sandbox-on" data-testid="sandbox-on">Allowed shell commands run in a sandbox (bubblewrap) under Claude Code, VS Code's agent mode and OpenCode.</div>`
          : nothing}
      ${v.interrupt
        ? html`<div class="banner interrupt" data-testid="interrupt-banner" role="status">
            <vscode-icon name="zap"></vscode-icon><span>Interrupt <strong>${v.interrupt.name}</strong>${v.interrupt.file ? html` fired by <code data-testid="interrupt-file">${v.interrupt.file}</code>` : nothing}
            at ${time(v.interrupt.firedAt)}; <code>$return</code> goes back to <code data-testid="interrupt-return">${v.interrupt.returnTo}</code>.</span></div>`
        : nothing}
      ${v.fork
        ? html`<div class="banner interrupt" data-testid="fork-banner">Fork ${v.fork.event} (join ${v.fork.join}, ${v.fork.mode}):
            ${v.fork.branches.map((b) => html`<span class="chip">${b.name}: ${b.status}${b.state ? ` in ${b.state}` : ''}</span>`)}</div>`
        : nothing}
      ${v.child
        ? html`<div class="banner interrupt" data-testid="child-banner">${v.child.parent_state} waits for sub-workflow <code>${v.child.workflow}</code>
            (now in ${v.child.state}, ${v.child.status}).</div>`
        : nothing}
      ${v.error ? html`<div class="banner changed error" data-testid="view-error">${withCode(v.error.message)}</div>` : nothing}`;
  }

  private approval(m: Active) {
    const p = m.view.pending_approval;
    if (!p) return nothing;
    return html`<div class="approval" data-testid="approval-card" role="alert">
      <div><vscode-icon name="shield"></vscode-icon> <strong>Approval needed:</strong> <code>${p.event}</code> ${p.from} → <code>${p.target}</code></div>
      <div class="msg" data-testid="approval-message">${p.message ?? 'This transition waits for a person.'}</div>
      <div class="actions">
        <vscode-button icon="check" data-testid="approve" @click=${() => post({ type: 'approve' })}>Approve</vscode-button>
        <vscode-button secondary icon="close" data-testid="reject" @click=${() => post({ type: 'reject' })}>Reject</vscode-button>
        <span class="muted">asked ${time(p.requestedAt)}</span>
      </div></div>`;
  }

  /** A flow instance: its status, the diagram with its state highlighted, and a way back to the workflow run. */
  private flow(m: FlowRenderModel) {
    return html`<div data-testid="flow" data-instance=${m.instance} data-state=${m.state} data-status=${m.status}>
      <header>
        <span class="state" data-testid="current-state">${m.state || m.flow}</span>
        <vscode-badge data-testid="run-status" data-status=${m.status}>${m.statusLabel}</vscode-badge>
        <span class="muted">flow ${m.flow} · ${m.instance}</span>
        <span class="controls">
          <vscode-button secondary icon="close" data-testid="close-flow" title="Back to the workflow run" @click=${() => post({ type: 'closeFlow' })}>Close</vscode-button>
        </span>
      </header>
      ${m.message ? html`<div class="banner ${m.status === 'failed' ? 'failed' : 'changed'}" data-testid="flow-message" role="status">${withCode(m.message)}</div>` : nothing}
      <sg-diagram .model=${m.diagram} .current=${m.current} .visited=${m.finished} .failed=${m.failed ?? ''}></sg-diagram>
    </div>`;
  }

  /** A workflow file's definition ("Show diagram" on a file that is not the run's): its diagram, no state highlighted. */
  private definition(m: DefinitionRenderModel) {
    return html`<div data-testid="definition" data-file=${m.file} data-workflow=${m.workflow.id}>
      <header>
        <span class="state" data-testid="definition-title">${m.workflow.name ?? m.workflow.id}</span>
        <vscode-badge data-testid="run-status">definition</vscode-badge>
        <span class="muted">${m.file}</span>
        ${m.runActive
          ? html`<span class="controls">
              <vscode-button secondary icon="arrow-left" data-testid="close-definition" title="Back to the active run" @click=${() => post({ type: 'closeDefinition' })}>Show run</vscode-button>
            </span>`
          : nothing}
      </header>
      ${m.problem
        ? html`<div class="banner changed" data-testid="definition-problem" role="status">${m.file}: ${m.problem}.</div>`
        : html`<sg-diagram .model=${m.diagram}></sg-diagram>`}
    </div>`;
  }

  override render() {
    const m = this.model;
    if (!m) return html`<div class="muted" data-testid="loading">Loading…</div>`;
    if (m.kind === 'none') {
      return html`<div data-testid="no-run"><p>No active run.</p><p class="muted">${withCode(m.reason ?? 'Start one with “stategate: Start Workflow Run…”, or `stategate run start FILE` in a terminal.')}</p></div>`;
    }
    if (m.kind === 'unreadable') {
      return html`<div class="banner changed error" data-testid="run-unreadable">The active run cannot be read: ${withCode(m.reason)}</div>`;
    }
    if (m.kind === 'flow') return this.flow(m);
    if (m.kind === 'definition') return this.definition(m);
    const v = m.view;
    return html`<div data-testid="run" data-run-id=${m.runId} data-state=${v.state} data-status=${m.status}>
      ${this.header(m)} ${this.banners(m)} ${this.approval(m)}
      <sg-diagram .model=${m.diagram} .current=${m.current} .active=${m.chart?.active ?? []} .visited=${m.visited} .taken=${m.taken} .pinned=${this.point?.state}></sg-diagram>
      ${m.chart ? html`<vscode-collapsible title="Statechart" open><div class="body">
        <sg-chart data-testid="chart" .chart=${m.chart} .names=${diagramNames(m.diagram)}></sg-chart></div></vscode-collapsible>` : nothing}
      <vscode-collapsible title="Events" open><div class="body">
        <sg-events data-testid="events" .transitions=${m.chart ? chartTransitions(m.chart.events, diagramNames(m.diagram)) : v.transitions}
          .reasons=${m.chart ? chartReasons(m.chart.events) : {}} ?running=${m.status === 'running' && !v.pending_approval}></sg-events></div></vscode-collapsible>
      <vscode-collapsible title="Current state" open><div class="body">
        <sg-state data-testid="state-details" .view=${v} .workflow=${m.workflow}></sg-state></div></vscode-collapsible>
      ${m.pipeline ? html`<vscode-collapsible title="Pipeline" open><div class="body">
        <sg-timeline data-testid="pipeline" .timeline=${m.pipeline}></sg-timeline></div></vscode-collapsible>` : nothing}
      ${m.record ? html`<vscode-collapsible title="Run record" open><div class="body">
        <sg-record data-testid="record" .record=${m.record}></sg-record></div></vscode-collapsible>` : nothing}
      <vscode-collapsible title="Context" open><div class="body">
        <sg-context data-testid="context" .context=${v.context} ?editable=${m.workflow.debug}></sg-context></div></vscode-collapsible>
      <vscode-collapsible title="History" open><div class="body">
        <sg-history .entries=${m.history} .point=${this.point} .names=${diagramNames(m.diagram)}></sg-history></div></vscode-collapsible>
    </div>`;
  }
}

customElements.define('sg-panel', SgPanel);
