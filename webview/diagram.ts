/**
 * <sg-diagram>: the workflow laid out by elkjs and drawn as SVG. The current
 * state carries `data-current="true"`, visited states and taken transitions
 * are marked, final states have a double border, approval edges are labelled
 * with ⚑, groups are dashed boxes. On a statechart run, compound states and
 * regions are boxes around their children, every active state is marked
 * (`data-active`; the active leaves are `data-current`), history nodes are
 * circles captioned H / H*, each initial state has a dot with an arrow to it.
 *
 * Readable as it opens: the text is the editor's font size (the layout is
 * made at that size), the diagram is as wide as the panel and follows it
 * (never drawn smaller than 1:1, enlarged up to MAX_GROW when the panel is
 * wider), and as tall as it needs, so the wheel scrolls the panel as anywhere
 * else. A diagram wider than the panel says so at once: it sits in a real
 * horizontal scroller (its scrollbar in the theme's colors; Shift + wheel, a
 * horizontal wheel or a drag pan it), the side where more is hidden fades
 * with the theme's scrollbar shadow, and the toolbar shows the zoom beside
 * "Show all". Ctrl/Cmd + wheel zooms around the pointer; a click (or Enter)
 * on a state opens its definition. Each state says its readable name (not its
 * dotted id) in its tooltip and to screen readers.
 */
import { LitElement, css, html, svg, nothing, type PropertyValues } from 'lit';
import type { TakenEdge } from '../src/engine/index.js';
import type { DiagramModel } from '../src/protocol.js';
import { post } from './api.js';
import { layoutDiagram, type Layout, type PlacedEdge, type PlacedNode, type Typography } from './layout.js';
import { standaloneSvg } from './svg-export.js';

const MIN_ZOOM = 0.2;
const MAX_ZOOM = 3;
/** How much larger than 1:1 a small diagram is drawn in a wide panel: it grows with the panel, within reason. */
const MAX_GROW = 1.6;
const MIN_HEIGHT_PX = 120;
/** VS Code's default editor font size, should the webview not have the variable. */
const DEFAULT_FONT_PX = 14;
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
    outOfView: { state: true },
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
  /** `x`: where the drawing starts in the scroller (centred when narrower); `k`: the scale. Panning is the scroller's. */
  declare view: { x: number; y: number; k: number };
  /** Which sides of a diagram wider than the panel are out of view (the fades, `data-overflow`). */
  declare outOfView: { left: boolean; right: boolean };

  private layoutKey = '';
  /** Once a person zooms or pans, resizes stop re-fitting the diagram (until "Fit"). */
  private userMoved = false;
  /** The width last fitted to: the height a fit sets must not set off another fit. */
  private fittedWidth = 0;
  private readonly resizes = new ResizeObserver(() => {
    if (this.clientWidth === this.fittedWidth) return;
    if (!this.userMoved) this.fit();
    else this.fittedWidth = this.clientWidth;
    this.requestUpdate();
  });
  /** A drag's start: the pointer, the scroller's and the page's scroll offsets. */
  private drag: { x: number; y: number; left: number; top: number; moved: boolean } | undefined;
  /** Where the scroller should stand after the next render (a zoom keeps the point under the pointer). */
  private pendingScroll: { left: number; pageDy: number } | undefined;

  constructor() {
    super();
    this.current = '';
    this.failed = '';
    this.active = [];
    this.visited = [];
    this.taken = [];
    this.view = { x: 0, y: 0, k: 1 };
    this.outOfView = { left: false, right: false };
  }

  static override styles = css`
    :host { display: block; position: relative; }
    .viewport { overflow-x: auto; overflow-y: hidden; cursor: grab; user-select: none; touch-action: pan-x pan-y; }
    .viewport.dragging { cursor: grabbing; }
    svg { height: var(--sg-diagram-height, 320px); display: block; }
    /* The scrollbar VS Code's own views have (the document's styles do not reach into this shadow root). */
    .viewport::-webkit-scrollbar { height: 10px; }
    .viewport::-webkit-scrollbar-corner { background: transparent; }
    .viewport::-webkit-scrollbar-thumb { background: var(--vscode-scrollbarSlider-background, rgba(121,121,121,0.4)); }
    .viewport::-webkit-scrollbar-thumb:hover { background: var(--vscode-scrollbarSlider-hoverBackground, rgba(100,100,100,0.7)); }
    .viewport::-webkit-scrollbar-thumb:active { background: var(--vscode-scrollbarSlider-activeBackground, rgba(191,191,191,0.4)); }
    /* More to that side: the drawing fades into the background towards the cut edge, which carries the shadow
       VS Code draws at a scrolled edge, and a chevron that scrolls there. */
    .fade { position: absolute; top: 0; bottom: 10px; width: 40px; pointer-events: none; opacity: 0; transition: opacity 0.15s; }
    .fade.left { left: 0; background: linear-gradient(to right, var(--vscode-editor-background), transparent);
      box-shadow: inset 6px 0 6px -6px var(--vscode-scrollbar-shadow, rgba(0,0,0,0.5)); }
    .fade.right { right: 0; background: linear-gradient(to left, var(--vscode-editor-background), transparent);
      box-shadow: inset -6px 0 6px -6px var(--vscode-scrollbar-shadow, rgba(0,0,0,0.5)); }
    .fade.on { opacity: 1; }
    .fade vscode-icon { position: absolute; top: 36px; pointer-events: auto; background: var(--vscode-editor-background); border-radius: 3px; }
    .fade.left vscode-icon { left: 2px; }
    .fade.right vscode-icon { right: 2px; }
    .fade:not(.on) vscode-icon { pointer-events: none; }
    .toolbar { position: absolute; right: 4px; top: 4px; display: flex; gap: 2px; align-items: center; background: var(--vscode-editor-background); border-radius: 3px; }
    .zoom { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size, 13px); color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; min-width: 3.2em; text-align: right; padding: 0 4px; }
    .zoom.more { color: var(--vscode-foreground); }
    .node rect { fill: var(--vscode-editor-background); stroke: var(--vscode-foreground); stroke-opacity: 0.8; stroke-width: 1.2; }
    .node text { fill: var(--vscode-editor-foreground, var(--vscode-foreground)); font-family: var(--vscode-font-family); font-size: var(--vscode-editor-font-size, 14px); }
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
    .initial path { fill: none; stroke: var(--vscode-foreground); stroke-opacity: 0.8; stroke-width: 1.2; }
    .edge path { fill: none; stroke: var(--vscode-foreground); stroke-opacity: 0.7; stroke-width: 1.2; }
    .edge.dashed path { stroke-dasharray: 5 3; }
    .edge.taken path { stroke: var(--vscode-charts-blue, #3794ff); stroke-opacity: 1; stroke-width: 2; }
    .edge text { fill: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-editor-font-size, 14px);
      paint-order: stroke; stroke: var(--vscode-editor-background); stroke-width: 3px; stroke-linejoin: round; }
    .edge.approval text { fill: var(--vscode-charts-orange, #d18616); }
    .edge.guarded text { font-style: italic; }
    .edge.taken text { fill: var(--vscode-charts-blue, #3794ff); }
    .group rect { fill: none; stroke: var(--vscode-descriptionForeground); stroke-dasharray: 4 3; stroke-opacity: 0.7; }
    .group text { fill: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-editor-font-size, 14px); }
    marker path { fill: var(--vscode-foreground); fill-opacity: 0.85; }
    marker#arrow-taken path { fill: var(--vscode-charts-blue, #3794ff); fill-opacity: 1; }
    .container rect.outer { fill: none; stroke: var(--vscode-foreground); stroke-opacity: 0.6; stroke-width: 1.2; }
    .container.region rect.outer { stroke-dasharray: 6 4; }
    .container text { fill: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-editor-font-size, 14px); font-weight: 600; }
    .container.active rect.outer { fill: var(--vscode-list-inactiveSelectionBackground, rgba(128,128,128,0.12)); stroke: var(--vscode-focusBorder); stroke-opacity: 1; stroke-width: 2; }
    /* The chart root is a frame (its transitions apply in every state), never a state's box. */
    .container.chart rect.outer, .container.chart.active rect.outer { fill: none; stroke: var(--vscode-descriptionForeground); stroke-dasharray: 2 3; stroke-width: 1; stroke-opacity: 0.9; }
    .container.chart text { fill: var(--vscode-descriptionForeground); font-weight: normal; font-style: italic; }
    .node circle.history { fill: var(--vscode-editor-background); stroke: var(--vscode-foreground); stroke-opacity: 0.8; stroke-width: 1.2; }
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

  /** The editor's font size and a measure of text in the panel's font, read from the theme's variables. */
  private typography(): Typography {
    const cs = getComputedStyle(this);
    const fontPx = parseFloat(cs.getPropertyValue('--vscode-editor-font-size')) || DEFAULT_FONT_PX;
    const family = cs.getPropertyValue('--vscode-font-family').trim() || 'sans-serif';
    const ctx = document.createElement('canvas').getContext('2d');
    return {
      fontPx,
      width: (text, bold) => {
        if (!ctx) return text.length * fontPx * 0.62;
        ctx.font = `${bold ? '600 ' : ''}${fontPx}px ${family}`;
        return ctx.measureText(text).width;
      },
    };
  }

  private async relayout(): Promise<void> {
    const model = this.model;
    const type = this.typography();
    const key = `${type.fontPx}|${JSON.stringify(model ?? null)}`;
    if (key === this.layoutKey) return;
    this.layoutKey = key;
    if (!model || model.nodes.length === 0) {
      this.layout = undefined;
      return;
    }
    const layout = await layoutDiagram(model, type);
    if (this.layoutKey !== key) return; // a newer model arrived meanwhile
    // A new structure (the first layout, another run's chart, an edited definition) is fitted afresh:
    // a zoom chosen for the previous diagram says nothing about this one.
    this.layout = layout;
    this.userMoved = false;
    this.fit();
  }

  /**
   * The opening view: as wide as the panel (a diagram narrower than the panel
   * is enlarged, up to MAX_GROW and no taller than the window, so a long thin
   * chain is not blown up past seeing two states at once), never below 1:1 so the text stays at the
   * editor's font size (a wider one starts at its left, its scrollbar and the
   * right edge's fade showing the rest), and the box as tall as the diagram so
   * the panel, not the diagram, scrolls.
   */
  fit(): void {
    const l = this.layout;
    if (!l) return;
    const w = this.clientWidth || 300;
    this.fittedWidth = this.clientWidth;
    this.userMoved = false;
    const k = Math.max(1, Math.min(MAX_GROW, w / l.width, (window.innerHeight - 16) / l.height));
    this.setHeight(l.height * k);
    this.view = { k, x: Math.max(0, (w - l.width * k) / 2), y: 0 };
    this.pendingScroll = { left: 0, pageDy: 0 };
  }

  /**
   * "Show all": the whole diagram in view, its width within the panel's and its
   * height within the window's, however small that makes it (a person asked),
   * and the page scrolled to it.
   */
  private fitAll(): void {
    const l = this.layout;
    if (!l) return;
    const w = this.clientWidth || 300;
    const h = Math.max(MIN_HEIGHT_PX, window.innerHeight - 8);
    const k = Math.max(MIN_ZOOM, Math.min(1, w / l.width, h / l.height));
    this.userMoved = true;
    this.setHeight(l.height * k);
    this.view = { k, x: Math.max(0, (w - l.width * k) / 2), y: 0 };
    this.pendingScroll = { left: 0, pageDy: 0 };
    void this.updateComplete.then(() => this.scrollIntoView({ block: 'nearest' }));
  }

  private setHeight(px: number): void {
    this.style.setProperty('--sg-diagram-height', `${Math.max(MIN_HEIGHT_PX, Math.ceil(px))}px`);
  }

  /** The drawing's size in the scroller at the current scale (at least the scroller's width). */
  private drawnWidth(): number {
    const l = this.layout;
    return l ? Math.max(this.clientWidth, Math.ceil(this.view.x + l.width * this.view.k)) : this.clientWidth;
  }

  private viewport(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('.viewport');
  }

  /** The element the page scrolls in (<html> or <body>, as VS Code's webview styles have it). */
  private pageScroller(): Element {
    const doc = document.scrollingElement ?? document.documentElement;
    return [doc, document.body].find((e) => e.scrollHeight > e.clientHeight + 1) ?? doc;
  }

  protected override updated(): void {
    const p = this.pendingScroll;
    const v = this.viewport();
    if (p && v) {
      this.pendingScroll = undefined;
      v.scrollLeft = p.left;
      if (p.pageDy) this.pageScroller().scrollTop += p.pageDy;
    }
    this.updateHidden();
  }

  /** Which sides are out of view, for the fades and `data-overflow` (what a test and a person see). */
  private updateHidden(): void {
    const v = this.viewport();
    const left = !!v && v.scrollLeft > 1;
    const right = !!v && v.scrollLeft + v.clientWidth < v.scrollWidth - 1;
    if (left !== this.outOfView.left || right !== this.outOfView.right) this.outOfView = { left, right };
    this.dataset.overflow = left && right ? 'both' : left ? 'left' : right ? 'right' : 'none';
  }

  /** The drawn diagram as a standalone SVG document (for export), or null before the first layout. */
  exportSvg(): string | null {
    const content = this.renderRoot.querySelector<SVGGElement>('g.content');
    if (!content || !this.layout) return null;
    const bg = getComputedStyle(this).getPropertyValue('--vscode-editor-background').trim() || 'white';
    return standaloneSvg(content, this.renderRoot.querySelector('defs'), this.layout, bg);
  }

  /**
   * The wheel is not taken here: the panel scrolls, and a horizontal wheel (or
   * Shift + wheel) scrolls the diagram's own scroller. Ctrl/Cmd + wheel (and a
   * trackpad's pinch, which arrives as one) zooms around the pointer.
   */
  private onWheel(e: WheelEvent): void {
    if (!e.ctrlKey && !e.metaKey) return;
    e.preventDefault();
    const v = e.currentTarget as HTMLElement;
    const r = v.getBoundingClientRect();
    this.zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
  }

  /**
   * Zooms by `factor` keeping the diagram's point under (`px`, `py`) (relative
   * to the scroller's visible box) where it is: the scroller and the page are
   * scrolled by what the zoom moved it.
   */
  private zoomAt(factor: number, px: number, py: number): void {
    const l = this.layout;
    const v = this.viewport();
    if (!l || !v) return;
    this.userMoved = true;
    const { x, k } = this.view;
    const k2 = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k * factor));
    const cx = (v.scrollLeft + px - x) / k;
    const cy = py / k;
    const x2 = Math.max(0, (this.clientWidth - l.width * k2) / 2);
    this.setHeight(l.height * k2);
    this.view = { k: k2, x: x2, y: 0 };
    this.pendingScroll = { left: Math.max(0, cx * k2 + x2 - px), pageDy: cy * (k2 - k) };
  }

  private onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    const v = e.currentTarget as HTMLElement;
    this.drag = { x: e.clientX, y: e.clientY, left: v.scrollLeft, top: this.pageScroller().scrollTop, moved: false };
  }

  private onPointerMove(e: PointerEvent): void {
    const d = this.drag;
    if (!d) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < CLICK_SLOP_PX) return;
    const v = e.currentTarget as HTMLElement;
    if (!d.moved) v.setPointerCapture(e.pointerId);
    if (!d.moved) v.classList.add('dragging');
    d.moved = true;
    v.scrollLeft = d.left - dx;
    this.pageScroller().scrollTop = d.top - dy;
  }

  private onPointerUp(e: PointerEvent): void {
    const d = this.drag;
    this.drag = undefined;
    (e.currentTarget as HTMLElement).classList.remove('dragging');
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

  /** A chevron at a cut edge: most of a view's width further that way. */
  private scrollSideways(direction: 1 | -1): void {
    const v = this.viewport();
    v?.scrollBy({ left: direction * v.clientWidth * 0.8, behavior: 'smooth' });
  }

  /** The toolbar's zoom: around the middle of what is in view. */
  private zoom(factor: number): void {
    const v = this.viewport();
    const r = v?.getBoundingClientRect();
    const top = Math.max(0, -(r?.top ?? 0));
    const visible = Math.min(r?.height ?? 320, window.innerHeight - Math.max(0, r?.top ?? 0));
    this.zoomAt(factor, (v?.clientWidth ?? 300) / 2, top + visible / 2);
  }

  /** A statechart's compound state, parallel state or region: a box with its name, around its children. */
  private renderContainer(p: PlacedNode) {
    const n = p.node;
    const active = this.active.includes(n.id);
    const cls = ['container', n.container ?? '', active ? 'active' : ''].filter(Boolean).join(' ');
    const name = n.name ?? n.label ?? n.id;
    if (n.container === 'chart') {
      return svg`<g class=${cls} data-testid="diagram-state" data-state=${n.id} data-container="chart" data-current="false" data-active="false" role="group" aria-label=${name}>
        <title>${name}: its transitions apply in every state</title>
        <rect class="outer" x=${p.x} y=${p.y} width=${p.width} height=${p.height} rx="8"></rect>
        <text x=${p.x + 10} y=${p.y + 6} dominant-baseline="hanging">${n.label ?? n.id}</text>
      </g>`;
    }
    return svg`<g class=${cls} data-testid="diagram-state" data-state=${n.id} data-container=${n.container ?? ''} data-current="false"
        data-active=${active ? 'true' : 'false'} tabindex="0" role="button" aria-label=${`${n.container} ${name}${active ? ' (active)' : ''}`}
        @keydown=${(e: KeyboardEvent) => this.onKey(e, n.id)}>
      <title>${name}</title>
      <rect class="outer" x=${p.x} y=${p.y} width=${p.width} height=${p.height} rx="8"></rect>
      <text x=${p.x + 10} y=${p.y + 6} dominant-baseline="hanging">${n.label ?? n.id}</text>
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
        tabindex="0" role="button" aria-label=${`${n.history ? 'history' : 'state'} ${n.name ?? n.label ?? n.id}${current ? ' (current)' : ''}${n.id === this.failed ? ' (failed)' : ''}`}
        @keydown=${(e: KeyboardEvent) => this.onKey(e, n.id)}>
      <title>${n.name ?? n.label ?? n.id}</title>
      ${shape}
      ${n.final ? svg`<rect class="inner" x=${p.x + 3} y=${p.y + 3} width=${p.width - 6} height=${p.height - 6} rx="6"></rect>` : nothing}
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
      ${p.label ? svg`<text x=${p.label.x + 3} y=${p.label.y + p.label.height / 2} dominant-baseline="central">${e.label}</text>` : nothing}
    </g>`;
  }

  override render() {
    const l = this.layout;
    if (!this.model || this.model.nodes.length === 0) return html`<div class="empty">No diagram.</div>`;
    const { x, y, k } = this.view;
    const percent = Math.round(k * 100);
    const more = this.outOfView.left || this.outOfView.right;
    return html`
      <div class="viewport" data-testid="diagram-viewport" @scroll=${() => this.updateHidden()}
        @wheel=${this.onWheel} @pointerdown=${this.onPointerDown} @pointermove=${this.onPointerMove} @pointerup=${this.onPointerUp}>
      <svg data-testid="diagram" role="img" aria-label="workflow diagram" width=${this.drawnWidth()}>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"></path></marker>
          <marker id="arrow-taken" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"></path></marker>
        </defs>
        <g class="content" transform=${`translate(${x} ${y}) scale(${k})`}>
          ${l?.nodes.filter((n) => n.node.container).map((n) => this.renderContainer(n))}
          ${l?.groups.map((g) => svg`<g class="group" data-testid="diagram-group" data-kind=${g.group.kind}>
            <rect x=${g.x} y=${g.y} width=${g.width} height=${g.height} rx="6"></rect>
            <text x=${g.x + 8} y=${g.y + 6} dominant-baseline="hanging">${g.group.label}</text></g>`)}
          ${l?.edges.map((e) => this.renderEdge(e))}
          ${l?.initials.map((i) => svg`<g class="initial" data-testid="diagram-initial" data-to=${i.target}>
            <path d=${i.d} marker-end="url(#arrow)"></path>
            <circle class="start" cx=${i.dot.x + i.dot.width / 2} cy=${i.dot.y + i.dot.height / 2} r=${i.dot.width / 2}></circle></g>`)}
          ${l?.nodes.filter((n) => !n.node.container).map((n) => this.renderNode(n))}
        </g>
      </svg></div>
      <div class="fade left ${this.outOfView.left ? 'on' : ''}" data-testid="diagram-fade-left">
        <vscode-icon name="chevron-left" action-icon label="More to the left" title="More to the left: scroll" @click=${() => this.scrollSideways(-1)}></vscode-icon></div>
      <div class="fade right ${this.outOfView.right ? 'on' : ''}" data-testid="diagram-fade-right">
        <vscode-icon name="chevron-right" action-icon label="More to the right" title="More to the right: scroll (Shift + wheel), or Show all" data-testid="diagram-more-right" @click=${() => this.scrollSideways(1)}></vscode-icon></div>
      <div class="toolbar">
        <span class="zoom ${more ? 'more' : ''}" data-testid="diagram-zoom" role="status"
          title=${more ? `Zoom ${percent}%: the diagram is wider than the panel (scroll sideways, or Show all)` : `Zoom ${percent}%`}>${percent}%</span>
        <vscode-icon name="zoom-in" action-icon label="Zoom in" title="Zoom in" @click=${() => this.zoom(1.25)}></vscode-icon>
        <vscode-icon name="zoom-out" action-icon label="Zoom out" title="Zoom out" @click=${() => this.zoom(0.8)}></vscode-icon>
        <vscode-icon name="screen-normal" action-icon label="Fit to width" title="Fit to width, text at the editor's size (the opening view)" data-testid="diagram-reset" @click=${() => this.fit()}></vscode-icon>
        <vscode-icon name="screen-full" action-icon label="Show all" title="Show all of the diagram" data-testid="diagram-fit" @click=${() => this.fitAll()}></vscode-icon>
      </div>`;
  }
}

customElements.define('sg-diagram', SgDiagram);
