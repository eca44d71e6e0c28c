/**
 * A flow as a diagram: one box per state captioned with its tool, an edge per
 * `next`, `on-error` code, `goto` value and parallel state task (labelled as
 * flow-graph.ts names them), and the states that can end the flow drawn as final.
 */
import { flowEdges, isTerminal } from '../check/flow-graph.js';
import type { Workflow } from '../model/index.js';
import type { EdgeKind, GraphEdge } from './graph.js';
import type { DiagramTree, TreeNode } from './tree-types.js';

const KIND: Record<string, EdgeKind> = { next: 'event', 'on-error': 'invoke-fail', goto: 'branch', task: 'fork-branch' };

export function flowTree(wf: Workflow): DiagramTree {
  const nodes = new Map<string, TreeNode>();
  for (const s of wf.states.values()) {
    const label = s.flow?.tool ? `${s.key} (${s.flow.tool})` : s.key;
    nodes.set(s.id, { id: s.id, label, kind: isTerminal(s) ? 'final' : 'atomic', children: [], region: false, interruptHandler: false });
  }
  const edges: GraphEdge[] = [];
  for (const [from, out] of flowEdges(wf)) {
    for (const e of out) edges.push({ from, to: e.to, label: e.label, kind: KIND[e.route] ?? 'event', guarded: false, approval: false });
  }
  const initial = nodes.has(wf.initial.name) ? { initial: wf.initial.name } : {};
  return { id: wf.id, nodes, top: [...nodes.keys()], ...initial, edges };
}
