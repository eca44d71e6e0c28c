/**
 * The workflow graph (engine/export/graph.ts) turned into what the panel's diagram
 * lays out: nodes and edge labels with the sizes the layout must reserve, and
 * the groups drawn around interrupt handlers and fork branches. Pure (no
 * 'vscode'), so it is unit-tested. The size estimates are the engine's layout's
 * (engine/export/layout.ts), which the CLI's SVG export uses too.
 */
import { labelWidth, NODE_HEIGHT_PX, nodeWidth, workflowGraph, type GraphEdge, type Workflow } from '../../engine/index.js';
import type { DiagramEdge, DiagramGroup, DiagramModel, DiagramNode } from '../../protocol.js';

export { labelWidth, nodeWidth };

/** States reachable from `from` along `next`. */
function reach(from: string, next: (s: string) => readonly string[]): Set<string> {
  const seen = new Set([from]);
  const todo = [from];
  for (let s = todo.pop(); s !== undefined; s = todo.pop()) {
    for (const n of next(s)) if (!seen.has(n)) (seen.add(n), todo.push(n));
  }
  return seen;
}

/**
 * One group per fork branch: the states on some path from the branch's
 * initial state to its terminal one. Interrupt handlers form one group. A
 * state belongs to one group at most (the first that claims it), because the
 * layout nests each node in a single parent.
 */
function groups(wf: Workflow, edges: readonly DiagramEdge[]): DiagramGroup[] {
  const out = new Map<string, string[]>();
  const claimed = new Set<string>();
  const fwd = new Map<string, string[]>();
  const back = new Map<string, string[]>();
  for (const e of edges) {
    if (e.kind === 'fork-branch' || e.kind === 'fork-complete' || e.kind === 'fork-fail') continue;
    (fwd.get(e.from) ?? fwd.set(e.from, []).get(e.from)!).push(e.to);
    (back.get(e.to) ?? back.set(e.to, []).get(e.to)!).push(e.from);
  }
  const result: DiagramGroup[] = [];
  const add = (group: Omit<DiagramGroup, 'members'>, members: Iterable<string>): void => {
    const mine = [...members].filter((m) => wf.states.has(m) && !claimed.has(m));
    if (mine.length === 0) return;
    for (const m of mine) claimed.add(m);
    out.set(group.id, mine);
    result.push({ ...group, members: mine });
  };
  for (const [id, state] of wf.states) {
    for (const t of state.on) {
      if (t.kind !== 'fork') continue;
      for (const b of t.branches) {
        const from = reach(b.initial.name, (s) => fwd.get(s) ?? []);
        const to = reach(b.terminal.name, (s) => back.get(s) ?? []);
        add({ id: `group:fork:${id}:${t.event}:${b.name}`, label: `${t.event} ⑂ ${b.name}`, kind: 'fork-branch' }, [...from].filter((s) => to.has(s)));
      }
    }
  }
  // The interrupt edges come from every state, so instead of drawing them the group names the triggers.
  const triggers = wf.interrupts.map((i) => `${i.name} (${i.filePattern})`).join(', ');
  add({ id: 'group:interrupts', label: `interrupts: ${triggers}`, kind: 'interrupts' }, new Set(wf.interrupts.map((i) => i.target.name)));
  return result;
}

/** The event name of a graph edge's label (`DEPLOY [ready]` → `DEPLOY`). */
function eventOf(label: string, kind: DiagramEdge['kind']): string {
  return kind === 'safe-next' ? '' : label.split(' ')[0] ?? label;
}

/** The graph's edges as the diagram draws them (ids, event names, label sizes); statecharts' too. */
export function diagramEdges(graphEdges: readonly GraphEdge[]): DiagramEdge[] {
  return graphEdges.map((e, i) => {
    const label = e.approval ? `${e.label} ⚑ approval` : e.label;
    return { ...e, id: `e${i}`, event: eventOf(e.label, e.kind), label, labelWidth: labelWidth(label) };
  });
}

export function diagramModel(wf: Workflow): DiagramModel {
  const graph = workflowGraph(wf);
  const nodes: DiagramNode[] = graph.nodes.map((n) => ({ ...n, width: nodeWidth(n.id), height: NODE_HEIGHT_PX }));
  const edges = diagramEdges(graph.edges);
  return { nodes, edges, groups: groups(wf, edges) };
}
