/**
 * The states a microstep's transitions exit, and whether two transitions'
 * exit sets meet (conflict resolution). Both read the transition's domain
 * (plans.ts: computed once when history plays no part).
 */
import { domainOf } from './plans.js';
import type { RunState } from './run-state.js';
import type { TransitionRow } from './table.js';

/**
 * Marks in `marks` the states `t` exits: the domain's active descendants
 * (pre-order: the range after it; -1's range is every node), and the domain
 * itself when the transition re-enters its own source. A targetless
 * transition exits nothing.
 */
export function markExitSet(rs: RunState, t: TransitionRow, marks: Uint8Array): void {
  if (!t.targets.length) return;
  const domain = domainOf(rs, t);
  if (t.reenter && t.source === domain) marks[domain] = 1;
  const active = rs.active;
  const from = domain < 0 ? 0 : domain + 1;
  const to = domain < 0 ? rs.nodes.length : rs.node(domain).end;
  for (let i = from; i < to; i++) if (active[i]) marks[i] = 1;
}

/**
 * Whether the exit sets of `a` and `b` share a state. Each lies within its
 * domain's range (and the domain itself), so transitions in ranges that do
 * not meet, like those of two parallel regions, are told apart without
 * computing either set.
 */
export function exitSetsOverlap(rs: RunState, a: TransitionRow, b: TransitionRow): boolean {
  if (!a.targets.length || !b.targets.length) return false;
  const da = domainOf(rs, a);
  const db = domainOf(rs, b);
  const n = rs.nodes.length;
  const loA = da < 0 ? 0 : a.reenter && a.source === da ? da : da + 1;
  const hiA = da < 0 ? n : rs.node(da).end;
  const loB = db < 0 ? 0 : b.reenter && b.source === db ? db : db + 1;
  const hiB = db < 0 ? n : rs.node(db).end;
  if (hiA <= loB || hiB <= loA) return false;
  const marks = new Uint8Array(n);
  markExitSet(rs, a, marks);
  const other = new Uint8Array(n);
  markExitSet(rs, b, other);
  for (let i = 0; i < n; i++) if (marks[i] && other[i]) return true;
  return false;
}
