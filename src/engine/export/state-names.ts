/**
 * The name a person reads for each node of a diagram tree, in place of its
 * dotted internal id (`hotfix.patching.writing_test`): its caption, with the
 * captions of its ancestors before it (`code_review › approved`) only where
 * another node has the same caption; a history node is its parent's name
 * "(where it was)", since a transition into it resumes the parent there. The
 * panel's tooltips, screen-reader labels and event targets and the CLI's SVG
 * tooltips say these, and so do the status bar, notifications and the chat
 * (machine/state-display.ts), so a state has one name everywhere.
 */
import type { DiagramTree } from './tree-types.js';

const SEP = ' › ';

/** Names the nodes of one tree: each state's caption path is computed once, a name on demand. */
export function stateNamer(tree: DiagramTree): (id: string) => string {
  const captions = (id: string): string[] => {
    const out: string[] = [];
    // The chart root ('') frames everything and names nobody's path.
    for (let n = tree.nodes.get(id); n && n.id !== ''; n = n.parent === undefined ? undefined : tree.nodes.get(n.parent)) out.unshift(n.label);
    return out;
  };
  const paths = new Map([...tree.nodes.values()].filter((n) => n.id !== '' && !n.history).map((n) => [n.id, captions(n.id)]));
  const stateName = (id: string): string => {
    const path = paths.get(id);
    if (!path) return id;
    const whole = path.join(SEP);
    // Two states with one caption path (one meta.label on siblings): only the id tells them apart.
    if ([...paths].some(([other, p]) => other !== id && p.join(SEP) === whole)) return id;
    for (let k = 1; k <= path.length; k++) {
      const tail = path.slice(-k).join(SEP);
      if (![...paths].some(([other, p]) => other !== id && p.slice(-k).join(SEP) === tail)) return tail;
    }
    return whole;
  };
  const name = (id: string): string => {
    const n = tree.nodes.get(id);
    if (!n) return id;
    if (n.id === '') return n.label;
    if (!n.history) return stateName(id);
    return n.parent === undefined ? n.label : `${name(n.parent)} (where it was)`;
  };
  return name;
}

export function readableNames(tree: DiagramTree): Map<string, string> {
  const name = stateNamer(tree);
  return new Map([...tree.nodes.keys()].map((id) => [id, name(id)]));
}
