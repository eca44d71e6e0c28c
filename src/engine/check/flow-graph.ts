/**
 * A flow's states as a graph: an edge for each `next`, `on-error` and `goto`
 * target and each state a `parallel` state runs as a task. Reachability, the
 * cycle rule and the variables' dataflow all walk these edges.
 */
import type { FlowStep, NameRef, StateNode, Workflow } from '../model/index.js';

/** Which field routes there. */
export type FlowRoute = 'next' | 'on-error' | 'goto' | 'task';

export interface FlowEdge {
  readonly to: string;
  readonly route: FlowRoute;
  /** What the diagram writes on it: `next`, `exit 1`, `exit _`, `= "ready"`, `otherwise`, `task`. */
  readonly label: string;
}

/** Every name the step refers to as a state, with what refers to it. */
export function flowTargets(step: FlowStep): { ref: NameRef; route: FlowRoute; label: string }[] {
  const out: { ref: NameRef; route: FlowRoute; label: string }[] = [];
  if (step.next) out.push({ ref: step.next, route: 'next', label: 'next' });
  for (const r of step.onError) out.push({ ref: r.target, route: 'on-error', label: `exit ${r.code}` });
  for (const g of step.goto) out.push({ ref: g.target, route: 'goto', label: g.value === '_' ? 'otherwise' : `= "${g.value}"` });
  for (const t of step.tasks ?? []) if (t.kind === 'state') out.push({ ref: t.state, route: 'task', label: 'task' });
  return out;
}

/** The edges out of each state, to states that exist. */
export function flowEdges(wf: Workflow): Map<string, FlowEdge[]> {
  const out = new Map<string, FlowEdge[]>();
  for (const s of wf.states.values()) {
    const edges = s.flow ? flowTargets(s.flow).filter((t) => wf.states.has(t.ref.name)).map((t) => ({ to: t.ref.name, route: t.route, label: t.label })) : [];
    out.set(s.id, edges);
  }
  return out;
}

/** A state after which the flow can end on success: no `next` (a switch routes only by `goto`). */
export function isTerminal(s: StateNode): boolean {
  return s.flow !== undefined && s.flow.next === undefined && s.flow.tool !== 'switch';
}

/** The states reachable from `start-at` (empty when it names no state). */
export function reachableStates(wf: Workflow, edges: ReadonlyMap<string, readonly FlowEdge[]>): Set<string> {
  const seen = new Set<string>();
  const todo = wf.states.has(wf.initial.name) ? [wf.initial.name] : [];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of edges.get(id) ?? []) todo.push(e.to);
  }
  return seen;
}
