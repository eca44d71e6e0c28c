/**
 * Reachability over the same edges the validator walks (check/sites.ts),
 * so completion offers `$return` exactly where `return-outside-interrupt`
 * would not fire, and quick fixes connect new states where they count.
 */
import type { Workflow } from '../model/index.js';
import { implicitFailEdges, isReturn, targetSites } from '../check/sites.js';

const handlers = new WeakMap<Workflow, ReadonlySet<string>>();

/** States an interrupt handler can be in: every state reachable from an interrupt's target. */
export function interruptReachable(wf: Workflow): ReadonlySet<string> {
  const hit = handlers.get(wf);
  if (hit) return hit;
  const seen = reachableFrom(wf, wf.interrupts.map((i) => i.target.name));
  handlers.set(wf, seen);
  return seen;
}

/** States a run can enter: from the initial state, interrupt targets and fork branch states. */
export function runReachable(wf: Workflow): ReadonlySet<string> {
  return reachableFrom(wf, [wf.initial.name, ...targetSites(wf).filter((s) => s.root).map((s) => s.ref.name)]);
}

function reachableFrom(wf: Workflow, roots: readonly string[]): Set<string> {
  const next = new Map<string, string[]>();
  const add = (from: string, to: string): void => {
    const list = next.get(from);
    if (list) list.push(to);
    else next.set(from, [to]);
  };
  for (const s of targetSites(wf)) if (s.from !== undefined && !isReturn(s.ref)) add(s.from, s.ref.name);
  for (const e of implicitFailEdges(wf)) add(e.from, e.to);
  const seen = new Set<string>();
  const queue = roots.filter((s) => wf.states.has(s));
  while (queue.length) {
    const s = queue.pop() as string;
    if (seen.has(s) || !wf.states.has(s)) continue;
    seen.add(s);
    queue.push(...(next.get(s) ?? []));
  }
  return seen;
}
