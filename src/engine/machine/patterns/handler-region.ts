/**
 * The "handler region" of a workflow's interrupts: the states from which a
 * `$return` can still be reached. Leaving it ends the interrupt (interrupts.ts);
 * moving inside it keeps the interrupt (progress.ts). Its own file because both
 * need it and interrupts.ts also depends on progress.ts.
 */
import type { Workflow } from '../../model/index.js';
import { RETURN_TARGET, transitionTargets } from '../../model/index.js';

const regionCache = new WeakMap<Workflow, ReadonlySet<string>>();

/** States from which a `$return` transition can be reached through ordinary transitions. */
export function handlerRegion(wf: Workflow): ReadonlySet<string> {
  let region = regionCache.get(wf);
  if (region) return region;
  const set = new Set<string>();
  const targetsOf = new Map<string, string[]>();
  for (const node of wf.states.values()) {
    const targets = node.on.flatMap((t) => transitionTargets(t).map((r) => r.name));
    if (node.safeNext) targets.push(node.safeNext.name);
    targetsOf.set(node.id, targets);
    if (targets.includes(RETURN_TARGET)) set.add(node.id);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const [id, targets] of targetsOf) {
      if (!set.has(id) && targets.some((t) => set.has(t))) {
        set.add(id);
        grew = true;
      }
    }
  }
  region = set;
  regionCache.set(wf, region);
  return region;
}
