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

function elkNode(n: LayoutNode): ElkNode {
  if (!n.children?.length) return { id: n.id, width: n.width ?? 0, height: n.height ?? 0 };
  return {
    id: n.id,
    ...(n.label ? { labels: [{ ...n.label }] } : {}),
    layoutOptions: { 'elk.padding': '[top=26,left=12,bottom=12,right=12]', 'elk.nodeLabels.placement': 'INSIDE V_TOP H_LEFT' },
    children: n.children.map(elkNode),
  };
}

function elkInput(input: LayoutInput): ElkNode {
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
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeLabel': '3',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.padding': '[top=12,left=12,bottom=12,right=12]',
    },
    children: input.nodes.map(elkNode),
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

export async function layoutGraph(elk: ElkEngine, input: LayoutInput): Promise<LayoutResult> {
  const out = await elk.layout(elkInput(input));
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
