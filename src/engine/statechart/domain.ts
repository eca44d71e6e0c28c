/**
 * Where a transition acts (SCXML's transition domain, as XState v5 computes
 * it) and which active states it exits. Conflict resolution and the
 * microstep both use these.
 *
 * Node numbers are in document order; `-1` stands for "outside the root"
 * (XState's undefined domain): a root transition with `reenter: true` exits
 * and re-enters the root itself.
 */
import type { RunState } from './run-state.js';
import type { TransitionRow } from './table.js';
import { ROOT, isDescendant } from './table.js';

/** The default targets of a history node with no record: its own default, else the parent's initial (a parallel parent: itself). */
export function historyDefaultTargets(rs: RunState, history: number): readonly number[] {
  const node = rs.node(history);
  if (node.historyDefault) return node.historyDefault;
  const parent = rs.node(node.parent);
  return parent.kind === 'parallel' ? [parent.index] : parent.initial >= 0 ? [parent.initial] : [];
}

/** The states a transition really goes to: history nodes replaced by what they restore. */
export function effectiveTargets(rs: RunState, targets: readonly number[], out: number[] = []): number[] {
  for (const target of targets) {
    if (rs.node(target).kind === 'history') {
      const record = rs.history.get(target);
      if (record) {
        for (const s of record) if (!out.includes(s)) out.push(s);
      } else {
        effectiveTargets(rs, historyDefaultTargets(rs, target), out);
      }
    } else if (!out.includes(target)) {
      out.push(target);
    }
  }
  return out;
}

/** The transition's domain: the state whose active descendants it exits (-1: the root too). */
export function transitionDomain(rs: RunState, t: TransitionRow): number {
  const nodes = rs.nodes;
  const targets = effectiveTargets(rs, t.targets);
  const source = t.source;
  if (!t.reenter && targets.every((s) => s === source || isDescendant(nodes, s, source))) return source;
  // The least common ancestor of the targets and the source: a proper ancestor of the first target.
  const head = targets.length ? (targets[0] as number) : source;
  for (let anc = rs.node(head).parent; anc >= 0; anc = rs.node(anc).parent) {
    if (targets.every((s) => isDescendant(nodes, s, anc)) && isDescendant(nodes, source, anc)) return anc;
  }
  return t.reenter ? -1 : ROOT;
}

/** Adds to `out` the states `t` exits (unsorted, no duplicates); a targetless transition exits nothing. */
export function addExitSet(rs: RunState, t: TransitionRow, out: number[]): void {
  if (!t.targets.length) return;
  const domain = transitionDomain(rs, t);
  if (t.reenter && t.source === domain && !out.includes(domain)) out.push(domain);
  const active = rs.active;
  // Descendants of the domain are the range after it (pre-order); -1's range is every node.
  const from = domain < 0 ? 0 : domain + 1;
  const to = domain < 0 ? rs.nodes.length : rs.node(domain).end;
  for (let i = from; i < to; i++) if (active[i] && !out.includes(i)) out.push(i);
}
