/**
 * States an interrupt handler can be in: every state reachable from an
 * interrupt's target, over the same edges the validator walks (so completion
 * offers `$return` exactly where `return-outside-interrupt` would not fire).
 */
import type { Workflow } from '../model.js';
import { implicitFailEdges, isReturn, targetSites } from '../validate-sites.js';

const cache = new WeakMap<Workflow, ReadonlySet<string>>();

export function interruptReachable(wf: Workflow): ReadonlySet<string> {
  const hit = cache.get(wf);
  if (hit) return hit;
  const next = new Map<string, string[]>();
  const add = (from: string, to: string): void => {
    const list = next.get(from);
    if (list) list.push(to);
    else next.set(from, [to]);
  };
  for (const s of targetSites(wf)) if (s.from !== undefined && !isReturn(s.ref)) add(s.from, s.ref.name);
  for (const e of implicitFailEdges(wf)) add(e.from, e.to);
  const seen = new Set<string>();
  const queue = wf.interrupts.map((i) => i.target.name).filter((s) => wf.states.has(s));
  while (queue.length) {
    const s = queue.pop() as string;
    if (seen.has(s) || !wf.states.has(s)) continue;
    seen.add(s);
    queue.push(...(next.get(s) ?? []));
  }
  cache.set(wf, seen);
  return seen;
}
