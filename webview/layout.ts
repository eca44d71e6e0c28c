/**
 * The panel's diagram model laid out by the engine's layout (elkjs; shared
 * with the CLI's SVG export) and returned as absolute shapes ready to draw.
 * Groups (interrupt handlers, fork branches) are containers around their
 * members; a statechart's compound states and regions contain their children.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import { LABEL_HEIGHT, layoutGraph, titleLabel, type Box, type LayoutNode } from '../src/engine/export/layout.js';
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

export interface Layout extends Box {
  readonly nodes: readonly PlacedNode[];
  readonly groups: readonly PlacedGroup[];
  readonly edges: readonly PlacedEdge[];
}

const elk = new ELK();

export async function layoutDiagram(model: DiagramModel): Promise<Layout> {
  const grouped = new Map<string, string>();
  for (const g of model.groups) for (const m of g.members) grouped.set(m, g.id);
  // Statecharts: a node with a `parent` is laid out inside it (compound states and regions are ELK compound nodes).
  const children = new Map<string, DiagramNode[]>();
  for (const n of model.nodes) if (n.parent !== undefined) (children.get(n.parent) ?? children.set(n.parent, []).get(n.parent)!).push(n);
  const leaf = (n: DiagramNode): LayoutNode => {
    const kids = children.get(n.id);
    return kids?.length ? { id: n.id, label: titleLabel(n.label ?? n.id), children: kids.map(leaf) } : { id: n.id, width: n.width, height: n.height };
  };
  const groups: LayoutNode[] = model.groups.map((g) => ({ id: g.id, label: titleLabel(g.label), children: model.nodes.filter((n) => grouped.get(n.id) === g.id).map(leaf) }));
  const out = await layoutGraph(elk, {
    nodes: [...model.nodes.filter((n) => !grouped.has(n.id) && n.parent === undefined).map(leaf), ...groups],
    edges: model.edges.map((e) => ({ id: e.id, from: e.from, to: e.to, label: { text: e.label, width: e.labelWidth, height: LABEL_HEIGHT } })),
  });
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
  };
}
