/**
 * Where a transition acts (SCXML's transition domain, as XState v5 computes
 * it): the state whose active descendants the transition exits (exits.ts).
 *
 * Node numbers are in document order; `-1` stands for "outside the root"
 * (XState's undefined domain): a root transition with `reenter: true` exits
 * and re-enters the root itself.
 */
import type { ChartView, TransitionRow } from './table.js';
import { ROOT, isDescendant } from './table.js';

/** The default targets of a history node with no record: its own default, else the parent's initial (a parallel parent: itself). */
export function historyDefaultTargets(view: ChartView, history: number): readonly number[] {
  const node = view.node(history);
  if (node.historyDefault) return node.historyDefault;
  const parent = view.node(node.parent);
  return parent.kind === 'parallel' ? [parent.index] : parent.initial >= 0 ? [parent.initial] : [];
}

/** The states a transition really goes to: history nodes replaced by what they restore. */
export function effectiveTargets(view: ChartView, targets: readonly number[], out: number[] = []): number[] {
  for (const target of targets) {
    if (view.node(target).kind === 'history') {
      const record = view.history.get(target);
      if (record) {
        for (const s of record) if (!out.includes(s)) out.push(s);
      } else {
        effectiveTargets(view, historyDefaultTargets(view, target), out);
      }
    } else if (!out.includes(target)) {
      out.push(target);
    }
  }
  return out;
}

/** The transition's domain: the state whose active descendants it exits (-1: the root too). */
export function transitionDomain(view: ChartView, t: TransitionRow): number {
  const nodes = view.nodes;
  const targets = effectiveTargets(view, t.targets);
  const source = t.source;
  if (!t.reenter && targets.every((s) => s === source || isDescendant(nodes, s, source))) return source;
  // The least common ancestor of the targets and the source: a proper ancestor of the first target.
  const head = targets.length ? (targets[0] as number) : source;
  for (let anc = view.node(head).parent; anc >= 0; anc = view.node(anc).parent) {
    if (targets.every((s) => isDescendant(nodes, s, anc)) && isDescendant(nodes, source, anc)) return anc;
  }
  return t.reenter ? -1 : ROOT;
}
