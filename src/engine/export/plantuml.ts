/**
 * PlantUML state diagram. Compound and parallel states are blocks
 * (`state "label" as id {` ... `}`), a parallel state's regions are separated
 * by `||`, history states are PlantUML's own `id[H]` / `id[H*]`, `meta.color`
 * is the state's `#colour`. Edges are written after the states they join are
 * declared, in the innermost block holding both ends.
 *
 * PlantUML refuses a reference to a state that sits directly in a concurrent
 * section from anywhere outside that section: each region is therefore a
 * named block of its own inside its section, and an edge that starts or ends
 * at a region itself is drawn from / to the parallel state, captioned with
 * the region's name.
 */
import type { GraphEdge } from './graph.js';
import { edgeLabel, plantumlCaption, safeId } from './ids.js';
import { edgesByHome, isContainer, type DiagramTree, type TreeNode } from './tree.js';

export function plantuml(tree: DiagramTree): string {
  const drawn = { ...tree, edges: tree.edges.map((e) => withoutRegionEnds(tree, e)) };
  const homes = edgesByHome(drawn);
  const lines = ['@startuml', `title ${tree.id}`];
  const ref = (id: string): string => {
    const n = tree.nodes.get(id);
    if (!n?.history) return safeId(id); // (a Statewright `initial` naming no state is written as it is)
    const mark = n.history === 'deep' ? '[H*]' : '[H]';
    return n.parent === undefined ? mark : `${safeId(n.parent)}${mark}`;
  };
  const body = (owner: TreeNode | undefined, children: readonly string[], initial: string | undefined, indent: string): void => {
    const parallel = owner?.kind === 'parallel';
    children.forEach((id, i) => {
      const n = tree.nodes.get(id)!;
      if (parallel && i > 0) lines.push(`${indent}||`);
      if (n.history) return; // drawn by reference: `parent[H]`
      const head = `${indent}state ${plantumlCaption(n.label)} as ${safeId(id)}${n.color ? ` #${n.color.replace(/^#/, '')}` : ''}`;
      if (!isContainer(n)) return void lines.push(head);
      lines.push(`${head} {`);
      body(n, n.children, n.initial, `${indent}  `);
      lines.push(`${indent}}`);
    });
    if (parallel) return;
    if (initial !== undefined) lines.push(`${indent}[*] --> ${ref(initial)}`);
    for (const e of homes.get(owner?.id) ?? []) {
      const label = edgeLabel(e).replace(/\n/g, ' ');
      lines.push(`${indent}${ref(e.from)} --> ${ref(e.to)}${label ? ` : ${label}` : ''}`);
    }
    for (const id of children) if (tree.nodes.get(id)!.kind === 'final') lines.push(`${indent}${ref(id)} --> [*]`);
  };
  body(undefined, tree.top, tree.initial, '');
  lines.push('@enduml');
  return `${lines.join('\n')}\n`;
}

/** An edge from or to a region, moved to the region's parallel state (see above). */
function withoutRegionEnds(tree: DiagramTree, e: GraphEdge): GraphEdge {
  const from = tree.nodes.get(e.from)!;
  const to = tree.nodes.get(e.to)!;
  if (!from.region && !to.region) return e;
  const regions = [from, to].filter((n) => n.region).map((n) => n.label);
  const label = `(${[...new Set(regions)].join(', ')}) ${e.label}`.trim();
  return { ...e, from: from.region ? from.parent! : e.from, to: to.region ? to.parent! : e.to, label };
}
