/**
 * Lays a diagram out with elkjs: layered, top to bottom (the panel usually
 * lives in a narrow side bar), containers as ELK compound nodes so their
 * members stay together, absolute coordinates everywhere. The state panel
 * (webview/layout.ts) and the CLI's SVG export (svg.ts) both lay out through
 * here.
 *
 * Format-neutral and free of runtime imports: the caller hands in its ELK
 * instance (`elkjs/lib/elk.bundled.js`), so the engine's bundles never carry
 * elkjs and the webview can import this file in the browser.
 */
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface LayoutLabel {
  readonly text: string;
  readonly width: number;
  readonly height: number;
}

/** A leaf (its size) or a container (its children and title; ELK sizes it). */
export interface LayoutNode {
  readonly id: string;
  readonly width?: number;
  readonly height?: number;
  readonly label?: LayoutLabel;
  readonly children?: readonly LayoutNode[];
}

export interface LayoutEdge {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly label?: LayoutLabel;
}

export interface LayoutInput {
  readonly nodes: readonly LayoutNode[];
  readonly edges: readonly LayoutEdge[];
}

export interface PlacedPath {
  /** SVG path data through the edge's start, bend and end points. */
  readonly d: string;
  readonly label?: Box;
}

export interface LayoutResult extends Box {
  readonly nodes: ReadonlyMap<string, Box>;
  readonly edges: ReadonlyMap<string, PlacedPath>;
}

/** What this module needs of an ELK instance. */
export interface ElkEngine {
  layout(graph: ElkNode): Promise<ElkNode>;
}

export const LABEL_HEIGHT = 14;

/**
 * Label widths are estimated from character counts: neither the extension
 * host nor the CLI can measure text, and an estimate that errs wide only costs
 * a little whitespace.
 */
const NODE_CHAR_PX = 7.5;
const NODE_PAD_PX = 32;
const NODE_MIN_PX = 80;
export const NODE_HEIGHT_PX = 34;
const LABEL_CHAR_PX = 6.2;

export function nodeWidth(label: string): number {
  return Math.max(NODE_MIN_PX, Math.ceil(label.length * NODE_CHAR_PX + NODE_PAD_PX));
}

export function labelWidth(label: string): number {
  return Math.ceil(label.length * LABEL_CHAR_PX + 8);
}

/** A container's title, sized for the layout. */
export function titleLabel(text: string): LayoutLabel {
  return { text, width: text.length * 6.5, height: LABEL_HEIGHT };
}

/**
 * How the layout is spaced. `scale` multiplies every gap and padding: the
 * panel draws its text at the editor's font size and lays its boxes out at
 * that size (webview/layout.ts), so the gaps grow with them; the CLI's SVG,
 * drawn at 12 px, uses 1.
 */
export interface LayoutOptions {
  readonly scale?: number;
}

function elkNode(n: LayoutNode, px: (v: number) => number): ElkNode {
  if (!n.children?.length) return { id: n.id, width: n.width ?? 0, height: n.height ?? 0 };
  // The top padding holds the container's title (its label height) above the children.
  const top = Math.ceil((n.label?.height ?? LABEL_HEIGHT) + px(12));
  return {
    id: n.id,
    ...(n.label ? { labels: [{ ...n.label }] } : {}),
    layoutOptions: { 'elk.padding': `[top=${top},left=${px(12)},bottom=${px(12)},right=${px(12)}]`, 'elk.nodeLabels.placement': 'INSIDE V_TOP H_LEFT' },
    children: n.children.map((c) => elkNode(c, px)),
  };
}

function elkInput(input: LayoutInput, options: LayoutOptions): ElkNode {
  const scale = options.scale ?? 1;
  const px = (v: number): number => Math.round(v * scale);
  const edges: ElkExtendedEdge[] = input.edges.map((e) => ({ id: e.id, sources: [e.from], targets: [e.to], ...(e.label ? { labels: [{ ...e.label }] } : {}) }));
  return {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      // Absolute coordinates everywhere: edges between a container and the outside need no offsets.
      'elk.json.edgeCoords': 'ROOT',
      'elk.json.shapeCoords': 'ROOT',
      'elk.layered.spacing.nodeNodeBetweenLayers': `${px(36)}`,
      'elk.spacing.nodeNode': `${px(28)}`,
      // Parallel edges (two events between the same states, a transition and its way back) run apart,
      // and their labels keep clear of the lines and of each other.
      'elk.spacing.edgeEdge': `${px(14)}`,
      'elk.layered.spacing.edgeEdgeBetweenLayers': `${px(12)}`,
      'elk.layered.spacing.edgeNodeBetweenLayers': `${px(14)}`,
      'elk.spacing.edgeNode': `${px(14)}`,
      'elk.spacing.edgeLabel': `${px(4)}`,
      'elk.spacing.labelLabel': `${px(6)}`,
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.padding': `[top=${px(12)},left=${px(12)},bottom=${px(12)},right=${px(12)}]`,
    },
    children: input.nodes.map((n) => elkNode(n, px)),
    edges,
  };
}

function box(n: { x?: number; y?: number; width?: number; height?: number }): Box {
  return { x: n.x ?? 0, y: n.y ?? 0, width: n.width ?? 0, height: n.height ?? 0 };
}

function pathOf(e: ElkExtendedEdge): string {
  return (e.sections ?? [])
    .map((s) => [s.startPoint, ...(s.bendPoints ?? []), s.endPoint].map((p, i) => `${i ? 'L' : 'M'}${p.x},${p.y}`).join(' '))
    .join(' ');
}

export async function layoutGraph(elk: ElkEngine, input: LayoutInput, options: LayoutOptions = {}): Promise<LayoutResult> {
  const out = await elk.layout(elkInput(input, options));
  const nodes = new Map<string, Box>();
  const edges = new Map<string, PlacedPath>();
  const visit = (n: ElkNode): void => {
    for (const c of n.children ?? []) {
      nodes.set(c.id, box(c));
      visit(c);
    }
    for (const e of n.edges ?? []) {
      const label = e.labels?.[0];
      edges.set(e.id, { d: pathOf(e), ...(label ? { label: box(label) } : {}) });
    }
  };
  visit(out);
  return { ...box(out), nodes, edges };
}
