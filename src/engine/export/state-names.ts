/**
 * The name a person reads for each node of a diagram tree, in place of its
 * dotted internal id (`hotfix.patching.writing_test`): its caption, with the
 * captions of its ancestors before it (`code_review › approved`) only where
 * another node has the same caption; a history node is its parent's name
 * "(where it was)", since a transition into it resumes the parent there. The
 * panel's tooltips, screen-reader labels and event targets and the CLI's SVG
 * tooltips say these.
 */
import type { DiagramTree } from './tree-types.js';

const SEP = ' › ';

export function readableNames(tree: DiagramTree): Map<string, string> {
  const captions = (id: string): string[] => {
    const out: string[] = [];
    // The chart root ('') frames everything and names nobody's path.
    for (let n = tree.nodes.get(id); n && n.id !== ''; n = n.parent === undefined ? undefined : tree.nodes.get(n.parent)) out.unshift(n.label);
    return out;
  };
  const states = [...tree.nodes.values()].filter((n) => n.id !== '' && !n.history);
  const paths = new Map(states.map((n) => [n.id, captions(n.id)]));
  const names = new Map<string, string>();
  if (tree.nodes.has('')) names.set('', tree.nodes.get('')!.label);
  for (const [id, path] of paths) {
    let name = path.join(SEP);
    for (let k = 1; k <= path.length; k++) {
      const tail = path.slice(-k).join(SEP);
      if (![...paths].some(([other, p]) => other !== id && p.slice(-k).join(SEP) === tail)) {
        name = tail;
        break;
      }
    }
    // Two states with one caption path (one meta.label on siblings): only the id tells them apart.
    names.set(id, [...paths].some(([other, p]) => other !== id && p.join(SEP) === path.join(SEP)) ? id : name);
  }
  for (const n of tree.nodes.values()) {
    if (!n.history) continue;
    const parent = n.parent === undefined ? undefined : names.get(n.parent);
    names.set(n.id, parent ? `${parent} (where it was)` : n.label);
  }
  return names;
}
