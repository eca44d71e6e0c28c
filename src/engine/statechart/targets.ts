/**
 * Statechart target resolution (DESIGN.md "Statecharts", Targets): a plain
 * name is the nearest state with that key, looking first among the source's
 * siblings (the source itself included), then among the siblings of each
 * ancestor outward, up to the top-level states; `a.b.c` finds `a` that way and
 * then descends by child keys. The chart root ('') has no siblings: its names
 * are its children, the top-level states. `#id` absolute ids are not supported.
 */
import type { NameRef, StateNode, Workflow } from '../model/index.js';

/** The id of the state `ref` names from the node `sourceId` ('' for the chart root), or undefined. */
export function resolveTarget(workflow: Workflow, sourceId: string, ref: NameRef | string): string | undefined {
  const name = typeof ref === 'string' ? ref : ref.name;
  if (name === '') return undefined;
  const path = name.split('.');
  const first = path[0] as string;
  // The scopes, innermost first: the source's parent's children, then each ancestor's parent's.
  let scope: string | undefined = sourceId === '' ? undefined : workflow.states.get(sourceId)?.parent;
  if (sourceId !== '' && !workflow.states.has(sourceId)) return undefined;
  for (;;) {
    const found = childOf(workflow, scope, first);
    if (found) return descend(workflow, found, path);
    if (scope === undefined) return undefined;
    scope = workflow.states.get(scope)?.parent;
  }
}

/** The child `key` of `parent` (undefined: the root). Keys never contain a dot (the loader rejects them). */
function childOf(workflow: Workflow, parent: string | undefined, key: string): StateNode | undefined {
  const node = workflow.states.get(parent === undefined ? key : `${parent}.${key}`);
  return node && node.parent === parent ? node : undefined;
}

function descend(workflow: Workflow, from: StateNode, path: readonly string[]): string | undefined {
  let node: StateNode | undefined = from;
  for (let i = 1; i < path.length && node; i++) node = childOf(workflow, node.id, path[i] as string);
  return node?.id;
}
