/**
 * How a statechart transition's target name finds its state (docs/statecharts.md
 * "Statecharts: semantics we chose", Targets). The loader, the validator and
 * the interpreter all resolve targets here, so they can never disagree.
 *
 * - `name`: the nearest state with that key: the source's siblings first (the
 *   source itself among them), then the siblings of each ancestor outward.
 *   The chart's root (source id `''`) looks among the top-level states.
 * - `a.b.c`: `a` found as above, then `b` and `c` are children going down.
 * - `.b.c` (XState's relative form): `b` is a child of the source itself.
 * - `#a.b.c`: the state with exactly that id (its full dotted path).
 */
import type { NameRef, Workflow } from '../model/index.js';

/** The id the chart's root goes by wherever a state id is expected (it has no key of its own). */
export const ROOT_ID = '';

/** The id of the child `key` of `parentId` (the root's children have no prefix). */
export function childId(parentId: string, key: string): string {
  return parentId === ROOT_ID ? key : `${parentId}.${key}`;
}

/** The id of the state `ref` names from a transition of `sourceId`, or undefined when there is none. */
export function resolveTarget(workflow: Workflow, sourceId: string, target: NameRef | string): string | undefined {
  const ref = typeof target === 'string' ? target : target.name;
  const states = workflow.states;
  if (ref === '') return undefined;
  if (ref.startsWith('#')) return states.has(ref.slice(1)) ? ref.slice(1) : undefined;
  if (sourceId !== ROOT_ID && !states.has(sourceId)) return undefined;
  // A plain name (most targets): the nearest state with that key, without splitting the name into a new
  // array; what resolvePath gives for it (held equal by test/unit/statechart-targets.test.ts).
  if (!ref.includes('.')) return nearest(workflow, sourceId, ref);
  return resolvePath(workflow, sourceId, ref);
}

/** resolveTarget's general case, for a name that is neither empty nor `#id`, from a source that exists. */
export function resolvePath(workflow: Workflow, sourceId: string, ref: string): string | undefined {
  const states = workflow.states;
  const keys = ref.split('.');
  let found: string | undefined;
  if (keys[0] === '') {
    found = sourceId;
    keys.shift();
  } else {
    found = nearest(workflow, sourceId, keys.shift() as string);
  }
  for (const key of keys) {
    if (found === undefined || key === '') return undefined;
    const next = childId(found, key);
    found = states.has(next) ? next : undefined;
  }
  return found;
}

/** The nearest state with the key `key`, looking from `sourceId` outward. */
function nearest(workflow: Workflow, sourceId: string, key: string): string | undefined {
  if (key === '') return undefined;
  if (sourceId === ROOT_ID) return workflow.states.has(key) ? key : undefined;
  let scope: string | undefined = sourceId;
  while (scope !== undefined) {
    const parent: string | undefined = workflow.states.get(scope)?.parent;
    const candidate = childId(parent ?? ROOT_ID, key);
    if (workflow.states.has(candidate)) return candidate;
    scope = parent;
  }
  return undefined;
}
