/**
 * Which state a statechart transition's target names, for the diagrams.
 *
 * A stand-in until `statechart/targets.ts` (`resolveTarget`) lands on main:
 * the same rule (DESIGN.md "Statecharts", Targets): the nearest state with
 * that key, the source's siblings first (the source itself included), then
 * the siblings of each ancestor outward; `a.b.c` finds `a` that way and then
 * descends by child keys. The chart root is the source ''.
 */
import type { StateNode, Workflow } from '../model/index.js';

/** The id of the state `name` names from the node `sourceId` ('' for the chart root), or undefined. */
export function resolveChartTarget(wf: Workflow, sourceId: string, name: string): string | undefined {
  if (name === '' || (sourceId !== '' && !wf.states.has(sourceId))) return undefined;
  const [first, ...rest] = name.split('.');
  let scope: string | undefined = sourceId === '' ? undefined : wf.states.get(sourceId)?.parent;
  for (;;) {
    const found = childOf(wf, scope, first!);
    if (found) return descend(wf, found, rest);
    if (scope === undefined) return undefined;
    scope = wf.states.get(scope)?.parent;
  }
}

function childOf(wf: Workflow, parent: string | undefined, key: string): StateNode | undefined {
  const node = wf.states.get(parent === undefined ? key : `${parent}.${key}`);
  return node && node.parent === parent ? node : undefined;
}

function descend(wf: Workflow, from: StateNode, path: readonly string[]): string | undefined {
  let node: StateNode | undefined = from;
  for (const key of path) node = node && childOf(wf, node.id, key);
  return node?.id;
}
