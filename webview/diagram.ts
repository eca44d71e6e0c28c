/**
 * <sg-diagram>: the workflow laid out by elkjs and drawn as SVG. The current
 * state carries `data-current="true"`, visited states and taken transitions
 * are marked, final states have a double border, approval edges are labelled
 * with ⚑, groups are dashed boxes. On a statechart run, compound states and
 * regions are boxes around their children, every active state is marked
 * (`data-active`; the active leaves are `data-current`), history nodes are
 * circles captioned H / H*. Wheel zooms around the pointer, dragging
 * pans, a click (or Enter) on a state opens its definition.
 */
import { LitElement, css, html, svg, nothing, type PropertyValues } from 'lit';
import type { TakenEdge } from '../src/engine/index.js';
import type { DiagramModel } from '../src/protocol.js';
import { post } from './api.js';
import { layoutDiagram, type Layout, type PlacedEdge, type PlacedNode } from './layout.js';
import { standaloneSvg } from './svg-export.js';

const MIN_ZOOM = 0.2;
const MAX_ZOOM = 3;
const MIN_HEIGHT_PX = 160;
const MAX_HEIGHT_PX = 520;
/** A pointer that moved less than this between down and up clicked rather than dragged. */
const CLICK_SLOP_PX = 4;

export class SgDiagram extends LitElement {
  static override properties = {
    model: { attribute: false },
    current: {},
    active: { attribute: false },
    visited: { attribute: false },
    taken: { attribute: false },
    pinned: {},
    failed: {},
    layout: { state: true },
    view: { state: true },
  };

  declare model: DiagramModel | undefined;
  declare current: string;
  /** Statechart runs: every active state (ancestors too); the active leaves are drawn as current. */
  declare active: readonly string[];
  declare visited: readonly string[];
  declare taken: readonly TakenEdge[];
  /** A state picked in the history (time travel): outlined, the live state stays highlighted. */
  declare pinned: string | undefined;
  /** Flow instances: the state the flow failed in. */
  declare failed: string;
  declare layout: Layout | undefined;
  declare view: { x: number; y: number; k: number };

  private layoutKey = '';
  /** Once a person zooms or pans, resizes stop re-fitting the diagram (until "Fit"). */
  private userMoved = false;
  private readonly resizes = new ResizeObserver(() => {
    if (!this.userMoved) this.fit();
  });
  private drag: { x: number; y: number; vx: number; vy: number; moved: boolean } | undefined;

  constructor() {
    super();
    this.current = '';
    this.failed = '';
    this.active = [];
    this.visited = [];
    this.taken = [];
    this.view = { x: 0, y: 0, k: 1 };
  }

  static override styles = css`
    :host { display: block; position: relative; }
    svg { width: 100%; height: var(--sg-diagram-height, 320px); display: block; cursor: grab; user-select: none; touch-action: none; }
    svg.dragging { cursor: grabbing; }
    .toolbar { position: absolute; right: 4px; top: 4px; display: flex; gap: 2px; background: var(--vscode-editor-background); border-radius: 3px; }
    .node rect { fill: var(--vscode-editor-background); stroke: var(--vscode-foreground); stroke-opacity: 0.55; stroke-width: 1.2; }
    .node text { fill: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: 12px; }
    .node { cursor: pointer; }
    .node:focus { outline: none; }
    .node:focus rect.outer { stroke: var(--vscode-focusBorder); stroke-width: 2; }
    .node.visited rect.outer { fill: var(--vscode-list-inactiveSelectionBackground, rgba(128,128,128,0.15)); }
    .node.final rect.inner { fill: none; }
    .node.current rect.outer { fill: var(--vscode-button-background); stroke: var(--vscode-focusBorder); stroke-width: 2.5; stroke-opacity: 1; }
    .node.current text { fill: var(--vscode-button-foreground); font-weight: 600; }
    .node.failed rect.outer { stroke: var(--vscode-errorForeground, #f14c4c); stroke-width: 2.5; stroke-opacity: 1; }
    .node.pinned rect.outer { stroke: var(--vscode-charts-orange, orange); stroke-width: 2.5; stroke-dasharray: 4 2; stroke-opacity: 1; }
    .start { fill: var(--vscode-foreground); }
    .edge path { fill: none; stroke: var(--vscode-foreground); stroke-opacity: 0.45; stroke-width: 1.2; }
    .edge.dashed path { stroke-dasharray: 5 3; }
    .edge.taken path { stroke: var(--vscode-charts-blue, #3794ff); stroke-opacity: 1; stroke-width: 2; }
    .edge text { fill: var(--vscode-descriptionForeground); font-family: var(--vscode-font-family); font-size: 10.5px; }
    .edge.approval text { fill: var(--vscode-charts-orange, #d18616); }
    .edge.guarded text { font-style: italic; }
    .edge.taken text { fill: var(--vscode-charts-blue, #3794ff); }
    .group rect { fill: none; stroke: var(--vscode-descriptionForeground); stroke-dasharray: 4 3; stroke-opacity: 0.7; }
    .group text { fill: var(--vscode-descriptionForeground); font-family: var(--vscode-font-family); font-size: 11px; }
    marker path { fill: var(--vscode-foreground); fill-opacity: 0.6; }
    marker#arrow-taken path { fill: var(--vscode-charts-blue, #3794ff); fill-opacity: 1; }
    .container rect.outer { fill: none; stroke: var(--vscode-foreground); stroke-opacity: 0.45; stroke-width: 1.2; }
    .container.region rect.outer { stroke-dasharray: 6 4; }
    .container text { fill: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: 11.5px; font-weight: 600; }
    .container.active rect.outer { fill: var(--vscode-list-inactiveSelectionBackground, rgba(128,128,128,0.12)); stroke: var(--vscode-focusBorder); stroke-opacity: 1; stroke-width: 2; }
    .container.active text { fill: var(--vscode-focusBorder); }
    .node circle.history { fill: var(--vscode-editor-background); stroke: var(--vscode-foreground); stroke-opacity: 0.55; stroke-width: 1.2; }
    .empty { padding: 12px; color: var(--vscode-descriptionForeground); }
  `;

  override connectedCallback(): void {
    super.connectedCallback();
    this.resizes.observe(this);
  }

  override disconnectedCallback(): void {
    this.resizes.disconnect();
    super.disconnectedCallback();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('model')) void this.relayout();
  }

  private async relayout(): Promise<void> {
    const model = this.model;
    const key = JSON.stringify(model ?? null);
    if (key === this.layoutKey) return;
    this.layoutKey = key;
    if (!model || model.nodes.length === 0) {
      this.layout = undefined;
      return;
    }
    const layout = await layoutDiagram(model);
    if (this.layoutKey !== key) return; // a newer model arrived meanwhile
    // A new structure (the first layout, another run's chart, an edited definition) is fitted afresh:
    // a zoom chosen for the previous diagram says nothing about this one.
    this.layout = layout;
    this.userMoved = false;
    this.fit();
  }

  /**
   * Fits the whole diagram (never enlarging past 1:1). The box grows with the
   * diagram up to a cap, so a narrow side bar shows a tall workflow readably.
   */
  fit(): void {
    const l = this.layout;
    if (!l) return;
    const w = this.clientWidth || 300;
    const h = Math.round(Math.min(MAX_HEIGHT_PX, Math.max(MIN_HEIGHT_PX, l.height * Math.min(1, w / l.width))));
    this.style.setProperty('--sg-diagram-height', `${h}px`);
    this.userMoved = false;
    const k = Math.max(MIN_ZOOM, Math.min(1, w / l.width, h / l.height));
    this.view = { k, x: (w - l.width * k) / 2, y: Math.max(0, (h - l.height * k) / 2) };
  }

  /** The drawn diagram as a standalone SVG document (for export), or null before the first layout. */
  exportSvg(): string | null {
    const content = this.renderRoot.querySelector<SVGGElement>('g.content');
    if (!content || !this.layout) return null;
    const bg = getComputedStyle(this).getPropertyValue('--vscode-editor-background').trim() || 'white';
    return standaloneSvg(content, this.renderRoot.querySelector('defs'), this.layout, bg);
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const svgEl = e.currentTarget as SVGSVGElement;
    const r = svgEl.getBoundingClientRect();
    const px = e.clientX - r.left;
    const py = e.clientY - r.top;
    this.userMoved = true;
    const { x, y, k } = this.view;
    const k2 = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k * Math.exp(-e.deltaY * 0.0015)));
    // Keep the point under the pointer where it is.
    this.view = { k: k2, x: px - ((px - x) * k2) / k, y: py - ((py - y) * k2) / k };
  }

  private onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    this.drag = { x: e.clientX, y: e.clientY, vx: this.view.x, vy: this.view.y, moved: false };
  }

  private onPointerMove(e: PointerEvent): void {
    const d = this.drag;
    if (!d) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < CLICK_SLOP_PX) return;
    if (!d.moved) (e.currentTarget as Element).setPointerCapture(e.pointerId);
    d.moved = true;
    this.userMoved = true;
    this.view = { ...this.view, x: d.vx + dx, y: d.vy + dy };
  }

  private onPointerUp(e: PointerEvent): void {
    const d = this.drag;
    this.drag = undefined;
    if (!d || d.moved) return;
    const state = (e.target as Element).closest?.('[data-state]')?.getAttribute('data-state');
    if (state) post({ type: 'openState', state });
  }

  private onKey(e: KeyboardEvent, state: string): void {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      post({ type: 'openState', state });
    }
  }

  private zoom(factor: number): void {
    this.userMoved = true;
    const el = this.renderRoot.querySelector('svg');
    const cx = (el?.clientWidth ?? 300) / 2;
    const cy = (el?.clientHeight ?? 320) / 2;
    const { x, y, k } = this.view;
    const k2 = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k * factor));
    this.view = { k: k2, x: cx - ((cx - x) * k2) / k, y: cy - ((cy - y) * k2) / k };
  }

  /** A statechart's compound state, parallel state or region: a box with its name, around its children. */
  private renderContainer(p: PlacedNode) {
    const n = p.node;
    const active = this.active.includes(n.id);
    const cls = ['container', n.container ?? '', active ? 'active' : ''].filter(Boolean).join(' ');
    return svg`<g class=${cls} data-testid="diagram-state" data-state=${n.id} data-container=${n.container ?? ''} data-current="false"
        data-active=${active ? 'true' : 'false'} tabindex="0" role="button" aria-label=${`${n.container} ${n.id}${active ? ' (active)' : ''}`}
        @keydown=${(e: KeyboardEvent) => this.onKey(e, n.id)}>
      <rect class="outer" x=${p.x} y=${p.y} width=${p.width} height=${p.height} rx="8"></rect>
      ${n.initial ? svg`<circle class="start" cx=${p.x - 1} cy=${p.y - 1} r="4"></circle>` : nothing}
      <text x=${p.x + 10} y=${p.y + 15}>${n.label ?? n.id}</text>
    </g>`;
  }

  private renderNode(p: PlacedNode) {
    const n = p.node;
    const current = n.id === this.current || this.active.includes(n.id);
    const cls = ['node', current ? 'current' : '', this.visited.includes(n.id) ? 'visited' : '', n.final ? 'final' : '', n.initial ? 'initial' : '', n.id === this.pinned ? 'pinned' : '', n.id === this.failed ? 'failed' : '']
      .filter(Boolean)
      .join(' ');
    const shape = n.history
      ? svg`<circle class="outer history" cx=${p.x + p.width / 2} cy=${p.y + p.height / 2} r=${p.width / 2}></circle>`
      : svg`<rect class="outer" x=${p.x} y=${p.y} width=${p.width} height=${p.height} rx="8"></rect>`;
    return svg`<g class=${cls} data-testid="diagram-state" data-state=${n.id} data-current=${current ? 'true' : 'false'}
        data-active=${current ? 'true' : 'false'} data-history=${n.history ?? nothing}
        data-visited=${this.visited.includes(n.id) ? 'true' : 'false'} data-failed=${n.id === this.failed ? 'true' : 'false'} data-final=${n.final ? 'true' : 'false'}
        tabindex="0" role="button" aria-label=${`state ${n.id}${current ? ' (current)' : ''}${n.id === this.failed ? ' (failed)' : ''}`}
        @keydown=${(e: KeyboardEvent) => this.onKey(e, n.id)}>
      ${shape}
      ${n.final ? svg`<rect class="inner" x=${p.x + 3} y=${p.y + 3} width=${p.width - 6} height=${p.height - 6} rx="6"></rect>` : nothing}
      ${n.initial ? svg`<circle class="start" cx=${p.x - 1} cy=${p.y - 1} r="4"></circle>` : nothing}
      <text x=${p.x + p.width / 2} y=${p.y + p.height / 2} text-anchor="middle" dominant-baseline="central">${n.label ?? n.id}</text>
    </g>`;
  }

  private renderEdge(p: PlacedEdge) {
    const e = p.edge;
    const taken = this.taken.some((t) => t.from === e.from && t.to === e.to && (e.event === '' || t.event === e.event));
    const dashed = e.kind === 'safe-next' || e.kind.endsWith('-fail') || e.kind === 'fork-branch';
    const cls = ['edge', taken ? 'taken' : '', e.approval ? 'approval' : '', e.guarded ? 'guarded' : '', dashed ? 'dashed' : ''].filter(Boolean).join(' ');
    return svg`<g class=${cls} data-testid="diagram-edge" data-from=${e.from} data-to=${e.to} data-event=${e.event} data-kind=${e.kind} data-taken=${taken ? 'true' : 'false'}>
      <path d=${p.d} marker-end=${taken ? 'url(#arrow-taken)' : 'url(#arrow)'}></path>
      ${p.label ? svg`<text x=${p.label.x} y=${p.label.y + p.label.height - 3}>${e.label}</text>` : nothing}
    </g>`;
  }

  override render() {
    const l = this.layout;
    if (!this.model || this.model.nodes.length === 0) return html`<div class="empty">No diagram.</div>`;
    const { x, y, k } = this.view;
    return html`
      <svg data-testid="diagram" class=${this.drag?.moved ? 'dragging' : ''} role="img" aria-label="workflow diagram"
        @wheel=${this.onWheel} @pointerdown=${this.onPointerDown} @pointermove=${this.onPointerMove} @pointerup=${this.onPointerUp}>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"></path></marker>
          <marker id="arrow-taken" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"></path></marker>
        </defs>
        <g class="content" transform=${`translate(${x} ${y}) scale(${k})`}>
          ${l?.nodes.filter((n) => n.node.container).map((n) => this.renderContainer(n))}
          ${l?.groups.map((g) => svg`<g class="group" data-testid="diagram-group" data-kind=${g.group.kind}>
            <rect x=${g.x} y=${g.y} width=${g.width} height=${g.height} rx="6"></rect>
            <text x=${g.x + 8} y=${g.y + 15}>${g.group.label}</text></g>`)}
          ${l?.edges.map((e) => this.renderEdge(e))}
          ${l?.nodes.filter((n) => !n.node.container).map((n) => this.renderNode(n))}
        </g>
      </svg>
      <div class="toolbar">
        <vscode-icon name="zoom-in" action-icon label="Zoom in" title="Zoom in" @click=${() => this.zoom(1.25)}></vscode-icon>
        <vscode-icon name="zoom-out" action-icon label="Zoom out" title="Zoom out" @click=${() => this.zoom(0.8)}></vscode-icon>
        <vscode-icon name="screen-full" action-icon label="Fit to view" title="Fit" data-testid="diagram-fit" @click=${() => this.fit()}></vscode-icon>
      </div>`;
  }
}

customElements.define('sg-diagram', SgDiagram);
