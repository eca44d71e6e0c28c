/**
 * Mermaid `stateDiagram-v2`. Every state is declared with its caption
 * (`state "label" as id`); a compound or parallel state then opens its body
 * (`state id { ... }`) where its children, `[*] --> initial`, the edges
 * inside it and `final --> [*]` go, and a parallel state's regions are
 * separated by `--`. Mermaid has no history pseudo-state: a history state is
 * a state captioned `[H]` / `[H*]`. `meta.color` becomes a `classDef`.
 */
import { edgeLabel, mermaidCaption, safeId } from './ids.js';
import { edgesByHome, isContainer, textColorOn, type DiagramTree, type TreeNode } from './tree.js';

export function mermaid(tree: DiagramTree): string {
  const lines = ['stateDiagram-v2'];
  const homes = edgesByHome(tree);
  const body = (owner: TreeNode | undefined, children: readonly string[], initial: string | undefined, indent: string): void => {
    const parallel = owner?.kind === 'parallel';
    children.forEach((id, i) => {
      const n = tree.nodes.get(id)!;
      if (parallel && i > 0) lines.push(`${indent}--`);
      lines.push(`${indent}state ${mermaidCaption(n.history ? `[${n.label}]` : n.label)} as ${safeId(id)}`);
      if (!isContainer(n)) return;
      lines.push(`${indent}state ${safeId(id)} {`);
      body(n, n.children, n.initial, `${indent}  `);
      lines.push(`${indent}}`);
    });
    if (parallel) return;
    if (initial !== undefined) lines.push(`${indent}[*] --> ${safeId(initial)}`);
    for (const e of homes.get(owner?.id) ?? []) {
      const label = edgeLabel(e).replace(/[:;\n]/g, ' ');
      lines.push(`${indent}${safeId(e.from)} --> ${safeId(e.to)}${label ? `: ${label}` : ''}`);
    }
    for (const id of children) if (tree.nodes.get(id)!.kind === 'final') lines.push(`${indent}${safeId(id)} --> [*]`);
  };
  body(undefined, tree.top, tree.initial, '  ');
  lines.push(...colorClasses(tree));
  return `${lines.join('\n')}\n`;
}

/** One class per colour, applied to the states that have it. */
function colorClasses(tree: DiagramTree): string[] {
  const byColor = new Map<string, string[]>();
  for (const n of tree.nodes.values()) if (n.color) (byColor.get(n.color) ?? byColor.set(n.color, []).get(n.color)!).push(safeId(n.id));
  const lines: string[] = [];
  [...byColor].forEach(([color, ids], i) => {
    const text = textColorOn(color);
    lines.push(`  classDef color${i} fill:${color}${text ? `,color:${text}` : ''}`);
    lines.push(`  class ${ids.join(',')} color${i}`);
  });
  return lines;
}
