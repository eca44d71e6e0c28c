/**
 * The panel's diagram model laid out by the engine's layout (elkjs; shared
 * with the CLI's SVG export) and returned as absolute shapes ready to draw.
 * Groups (interrupt handlers, fork branches) are containers around their
 * members; a statechart's compound states and regions contain their children.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import { LABEL_HEIGHT, layoutGraph, NODE_HEIGHT_PX, type Box, type LayoutNode } from '../src/engine/export/layout.js';
import type { DiagramEdge, DiagramGroup, DiagramModel, DiagramNode } from '../src/protocol.js';

export type { Box };

export interface PlacedNode extends Box {
  readonly node: DiagramNode;
}

export interface PlacedGroup extends Box {
  readonly group: DiagramGroup;
}

export interface PlacedEdge {
  readonly edge: DiagramEdge;
  /** SVG path data through the edge's start, bend and end points. */
  readonly d: string;
  readonly label?: Box;
}

/** An initial state's `[*]` dot and the arrow from it to the state. */
export interface PlacedInitial {
  readonly target: string;
  readonly dot: Box;
  readonly d: string;
}

export interface Layout extends Box {
  readonly nodes: readonly PlacedNode[];
  readonly groups: readonly PlacedGroup[];
  readonly edges: readonly PlacedEdge[];
  readonly initials: readonly PlacedInitial[];
}

/**
 * The text the diagram is drawn with: its size (the editor's font size) and a
 * measure of a string in it, so boxes fit their labels at that size.
 */
export interface Typography {
  readonly fontPx: number;
  width(text: string, bold?: boolean): number;
}

/** The size the host's estimates (node widths, label widths) are made for (engine/export/layout.ts). */
const BASE_FONT_PX = 12;
const NODE_PAD_PX = 16;
const DOT_PX = 10;

const elk = new ELK();

/** Layout ids of the `[*]` dots: no state id starts with a dot. */
const dotId = (scope: string): string => `.init:${scope}`;

export async function layoutDiagram(model: DiagramModel, type: Typography): Promise<Layout> {
  const f = type.fontPx / BASE_FONT_PX;
  const lineHeight = Math.ceil(type.fontPx * 1.35);
  const titleLabel = (text: string) => ({ text, width: Math.ceil(type.width(text, true)) + 4, height: lineHeight });
  // Each initial state gets a dot beside it, in the same container, with an arrow to it.
  const scopeOf = (n: DiagramNode): string => n.parent ?? model.groups.find((g) => g.members.includes(n.id))?.id ?? '';
  const initials = model.nodes.filter((n) => n.initial && !n.container);
  const containerInitials = model.nodes.filter((n) => n.initial && n.container);
  const dots = new Map<string, DiagramNode>([...containerInitials, ...initials].map((n) => [dotId(`${scopeOf(n)}>${n.id}`), n]));
  const dotsIn = (scope: string): LayoutNode[] => [...dots].filter(([, n]) => scopeOf(n) === scope).map(([id]) => ({ id, width: DOT_PX, height: DOT_PX }));
  const grouped = new Map<string, string>();
  for (const g of model.groups) for (const m of g.members) grouped.set(m, g.id);
  // Statecharts: a node with a `parent` is laid out inside it (compound states and regions are ELK compound nodes).
  const children = new Map<string, DiagramNode[]>();
  for (const n of model.nodes) if (n.parent !== undefined) (children.get(n.parent) ?? children.set(n.parent, []).get(n.parent)!).push(n);
  // Boxes sized for their labels at the drawing's font size (history circles and the host's minimum scale with it).
  const size = (n: DiagramNode): { width: number; height: number } =>
    n.history
      ? { width: Math.round(n.width * f), height: Math.round(n.height * f) }
      : { width: Math.ceil(Math.max(n.width * f, type.width(n.label ?? n.id) + 2 * NODE_PAD_PX * f)), height: Math.max(Math.round(NODE_HEIGHT_PX * f), lineHeight + 12) };
  const leaf = (n: DiagramNode): LayoutNode => {
    const kids = children.get(n.id);
    return kids?.length ? { id: n.id, label: titleLabel(n.label ?? n.id), children: [...dotsIn(n.id), ...kids.map(leaf)] } : { id: n.id, ...size(n) };
  };
  const groups: LayoutNode[] = model.groups.map((g) => ({ id: g.id, label: titleLabel(g.label), children: [...dotsIn(g.id), ...model.nodes.filter((n) => grouped.get(n.id) === g.id).map(leaf)] }));
  const label = (text: string) => ({ text, width: text ? Math.ceil(type.width(text)) + 6 : 0, height: text ? lineHeight : LABEL_HEIGHT });
  const out = await layoutGraph(
    elk,
    {
      nodes: [...dotsIn(''), ...model.nodes.filter((n) => !grouped.has(n.id) && n.parent === undefined).map(leaf), ...groups],
      edges: [
        ...[...dots].map(([id, n]) => ({ id: `${id}>`, from: id, to: n.id })),
        ...model.edges.map((e) => ({ id: e.id, from: e.from, to: e.to, ...(e.label ? { label: label(e.label) } : {}) })),
      ],
    },
    { scale: f },
  );
  const placed = <T>(items: readonly T[], id: (t: T) => string) => items.flatMap((t) => (out.nodes.has(id(t)) ? [{ ...out.nodes.get(id(t))!, t }] : []));
  return {
    x: out.x,
    y: out.y,
    width: out.width,
    height: out.height,
    nodes: placed(model.nodes, (n) => n.id).map(({ t, ...b }) => ({ ...b, node: t })),
    groups: placed(model.groups, (g) => g.id).map(({ t, ...b }) => ({ ...b, group: t })),
    edges: model.edges.flatMap((edge) => {
      const p = out.edges.get(edge.id);
      return p ? [{ edge, ...p }] : [];
    }),
    initials: [...dots].flatMap(([id, n]) => {
      const dot = out.nodes.get(id);
      const p = out.edges.get(`${id}>`);
      return dot && p ? [{ target: n.id, dot, d: p.d }] : [];
    }),
  };
}
