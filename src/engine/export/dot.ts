/**
 * Graphviz DOT. A compound or parallel state is a cluster (a region's border
 * is dashed) holding a point for its `[*]`; an edge to or from a cluster is
 * drawn to / from a node inside it and clipped at the cluster's border
 * (`lhead` / `ltail`, with `compound=true`). History states are circles
 * captioned `H` / `H*`, final states have a double border, `meta.color` fills
 * the state or cluster.
 */
import { edgeLabel, safeId } from './ids.js';
import { isContainer, textColorOn, type DiagramTree, type TreeNode } from './tree.js';

function quote(text: string): string {
  return JSON.stringify(text);
}

/** The point drawn for a container's `[*]` (no safeId starts with `i`). */
function initialPoint(id: string): string {
  return `init_${safeId(id)}`;
}

function cluster(id: string): string {
  return `cluster_${safeId(id)}`;
}

export function dot(tree: DiagramTree): string {
  const clustered = [...tree.nodes.values()].some(isContainer);
  const lines = [`digraph ${quote(tree.id)} {`, '  rankdir=LR;', ...(clustered ? ['  compound=true;'] : []), '  node [shape=box, style=rounded];', '  __start [shape=point];'];
  const declare = (ids: readonly string[], indent: string): void => {
    for (const id of ids) {
      const n = tree.nodes.get(id)!;
      if (!isContainer(n)) {
        lines.push(`${indent}${safeId(id)} [${nodeAttrs(n).join(', ')}];`);
        continue;
      }
      lines.push(`${indent}subgraph ${cluster(id)} {`, `${indent}  label=${quote(n.label)};`, ...clusterAttrs(n).map((a) => `${indent}  ${a};`));
      if (n.initial !== undefined) lines.push(`${indent}  ${initialPoint(id)} [shape=point];`);
      declare(n.children, `${indent}  `);
      lines.push(`${indent}}`);
    }
  };
  declare(tree.top, '  ');
  /** The node an edge to or from `id` attaches to, and the cluster it is clipped at. */
  const end = (id: string): { node: string; cluster?: string } => {
    const n = tree.nodes.get(id);
    if (!n || !isContainer(n)) return { node: safeId(id) };
    return { node: n.initial !== undefined ? initialPoint(id) : end(n.children[0]!).node, cluster: cluster(id) };
  };
  const edge = (a: { node: string; cluster?: string }, to: string, attrs: readonly string[]): void => {
    const b = end(to);
    const all = [...attrs, ...(a.cluster ? [`ltail=${a.cluster}`] : []), ...(b.cluster ? [`lhead=${b.cluster}`] : [])];
    lines.push(`  ${a.node} -> ${b.node}${all.length ? ` [${all.join(', ')}]` : ''};`);
  };
  if (tree.initial !== undefined) edge({ node: '__start' }, tree.initial, []);
  for (const n of tree.nodes.values()) if (isContainer(n) && n.initial !== undefined) edge({ node: initialPoint(n.id) }, n.initial, []);
  for (const e of tree.edges) {
    const attrs = e.label ? [`label=${quote(edgeLabel(e))}`] : [];
    if (e.kind === 'safe-next' || e.kind.endsWith('fail') || e.kind === 'history') attrs.push('style=dashed');
    edge(end(e.from), e.to, attrs);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function nodeAttrs(n: TreeNode): string[] {
  const attrs = [`label=${quote(n.label)}`];
  if (n.history) attrs.push('shape=circle');
  if (n.kind === 'final') attrs.push('peripheries=2');
  // The default style is rounded; a history circle has no corners to round.
  const styles = [...(n.history ? [] : ['rounded']), ...(n.interruptHandler ? ['dashed'] : []), ...(n.color ? ['filled'] : [])];
  if (n.interruptHandler || n.color) attrs.push(`style=${quote(styles.join(','))}`);
  return [...attrs, ...colorAttrs(n)];
}

function clusterAttrs(n: TreeNode): string[] {
  const styles = ['rounded', ...(n.region ? ['dashed'] : []), ...(n.color ? ['filled'] : [])];
  return [`style=${quote(styles.join(','))}`, ...colorAttrs(n)];
}

function colorAttrs(n: TreeNode): string[] {
  if (!n.color) return [];
  const text = textColorOn(n.color);
  return [`fillcolor=${quote(n.color)}`, ...(text ? [`fontcolor=${quote(text)}`] : [])];
}
