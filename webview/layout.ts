/**
 * Lays the diagram model out with elkjs (layered, top to bottom, because the
 * panel usually lives in a narrow side bar) and returns absolute shapes ready
 * to draw. Groups (interrupt handlers, fork branches) are ELK compound nodes,
 * so the layout keeps their members together.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import type { DiagramEdge, DiagramGroup, DiagramModel, DiagramNode } from '../src/protocol.js';

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

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

const LABEL_HEIGHT = 14;
const elk = new ELK();

function elkInput(model: DiagramModel): ElkNode {
  const grouped = new Map<string, string>();
  for (const g of model.groups) for (const m of g.members) grouped.set(m, g.id);
  const leaf = (n: DiagramNode): ElkNode => ({ id: n.id, width: n.width, height: n.height });
  const groups: ElkNode[] = model.groups.map((g) => ({
    id: g.id,
    labels: [{ text: g.label, width: g.label.length * 6.5, height: LABEL_HEIGHT }],
    layoutOptions: { 'elk.padding': '[top=26,left=12,bottom=12,right=12]', 'elk.nodeLabels.placement': 'INSIDE V_TOP H_LEFT' },
    children: model.nodes.filter((n) => grouped.get(n.id) === g.id).map(leaf),
  }));
  const edges: ElkExtendedEdge[] = model.edges.map((e) => ({
    id: e.id,
    sources: [e.from],
    targets: [e.to],
    labels: [{ text: e.label, width: e.labelWidth, height: LABEL_HEIGHT }],
  }));
  return {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      // Absolute coordinates everywhere: edges between a group and the outside need no offsets.
      'elk.json.edgeCoords': 'ROOT',
      'elk.json.shapeCoords': 'ROOT',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeLabel': '3',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.padding': '[top=12,left=12,bottom=12,right=12]',
    },
    children: [...model.nodes.filter((n) => !grouped.has(n.id)).map(leaf), ...groups],
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

export async function layoutDiagram(model: DiagramModel): Promise<Layout> {
  const out = await elk.layout(elkInput(model));
  const byNode = new Map(model.nodes.map((n) => [n.id, n]));
  const byGroup = new Map(model.groups.map((g) => [g.id, g]));
  const byEdge = new Map(model.edges.map((e) => [e.id, e]));
  const nodes: PlacedNode[] = [];
  const groups: PlacedGroup[] = [];
  const visit = (n: ElkNode): void => {
    const node = byNode.get(n.id);
    const group = byGroup.get(n.id);
    if (node) nodes.push({ ...box(n), node });
    if (group) groups.push({ ...box(n), group });
    for (const c of n.children ?? []) visit(c);
  };
  for (const c of out.children ?? []) visit(c);
  const edges: PlacedEdge[] = [];
  for (const e of out.edges ?? []) {
    const edge = byEdge.get(e.id);
    const label = e.labels?.[0];
    if (edge) edges.push({ edge, d: pathOf(e), ...(label ? { label: box(label) } : {}) });
  }
  return { ...box(out), nodes, groups, edges };
}
