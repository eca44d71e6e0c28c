/**
 * A statechart's diagram for the panel: the export's diagram tree
 * (engine/export/tree.ts, which the CLI's SVG export draws too) as the
 * panel's nodes, each with its parent, so the webview lays compound states
 * and regions out as ELK compound nodes. Pure, unit-tested.
 */
import { diagramTree, isContainer, readableNames, NODE_HEIGHT_PX, nodeWidth, type TreeNode, type Workflow } from '../../engine/index.js';
import type { DiagramModel, DiagramNode } from '../../protocol.js';
import { diagramEdges } from './diagram-model.js';

/** History nodes are small circles (as in the CLI's SVG). */
export const HISTORY_NODE_PX = 30;

function containerKind(n: TreeNode): DiagramNode['container'] {
  if (!isContainer(n)) return undefined;
  if (n.id === '') return 'chart';
  if (n.kind === 'parallel') return 'parallel';
  return n.region ? 'region' : 'compound';
}

export function chartDiagramModel(wf: Workflow): DiagramModel {
  const tree = diagramTree(wf);
  const names = readableNames(tree);
  const initials = new Set<string>();
  if (tree.initial !== undefined) initials.add(tree.initial);
  for (const n of tree.nodes.values()) if (n.initial !== undefined) initials.add(n.initial);
  const nodes: DiagramNode[] = [];
  // Parents before children (the webview nests in one pass), top-level nodes in document order.
  const visit = (id: string): void => {
    const n = tree.nodes.get(id)!;
    const container = containerKind(n);
    const size = n.history ? HISTORY_NODE_PX : undefined;
    const name = names.get(n.id);
    nodes.push({
      id: n.id,
      width: size ?? nodeWidth(n.label),
      height: size ?? NODE_HEIGHT_PX,
      final: n.kind === 'final',
      initial: initials.has(n.id),
      interruptHandler: n.interruptHandler,
      ...(n.label !== n.id ? { label: n.label } : {}),
      ...(name !== undefined && name !== n.label ? { name } : {}),
      ...(n.parent !== undefined ? { parent: n.parent } : {}),
      ...(container ? { container } : {}),
      ...(n.history ? { history: n.history } : {}),
    });
    n.children.forEach(visit);
  };
  tree.top.forEach(visit);
  return { nodes, edges: diagramEdges(tree.edges), groups: [] };
}
