/**
 * The workflow as a graph of labelled edges: what the exports and the panel's
 * diagram draw. One place decides how each transition pattern looks as edges,
 * so every renderer agrees.
 */
import { RETURN_TARGET, type Workflow } from '../model/index.js';

export type EdgeKind =
  | 'event'
  | 'branch'
  | 'invoke-complete'
  | 'invoke-fail'
  | 'fork-complete'
  | 'fork-fail'
  | 'fork-branch'
  | 'safe-next'
  | 'interrupt'
  // statecharts (tree.ts): eventless, delayed, done events, a history state's default
  | 'always'
  | 'after'
  | 'done'
  | 'history';

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly label: string;
  readonly kind: EdgeKind;
  readonly guarded: boolean;
  readonly approval: boolean;
}

export interface GraphNode {
  readonly id: string;
  readonly final: boolean;
  readonly initial: boolean;
  /** States only entered through an interrupt (drawn grouped). */
  readonly interruptHandler: boolean;
}

export interface WorkflowGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

/** The edges of a workflow; `$return` edges and targets that don't exist are left out. */
export function workflowGraph(wf: Workflow): WorkflowGraph {
  const edges: GraphEdge[] = [];
  const exists = (s: string) => wf.states.has(s);
  const push = (e: GraphEdge) => {
    if (e.to !== RETURN_TARGET && exists(e.from) && exists(e.to)) edges.push(e);
  };
  for (const [id, state] of wf.states) {
    for (const t of state.on) {
      switch (t.kind) {
        case 'simple':
        case 'guarded': {
          const guards = t.guards.map((g) => g.name);
          const label = guards.length ? `${t.event} [${guards.join(' & ')}]` : t.event;
          push({ from: id, to: t.target.name, label, kind: 'event', guarded: guards.length > 0, approval: t.requiresApproval });
          break;
        }
        case 'branched':
          for (const b of t.branches) {
            const guards = b.guards.map((g) => g.name);
            const label = guards.length ? `${t.event} [${guards.join(' & ')}]` : `${t.event} [else]`;
            push({ from: id, to: b.target.name, label, kind: 'branch', guarded: guards.length > 0, approval: false });
          }
          break;
        case 'invoke':
          push({ from: id, to: t.onComplete.name, label: `${t.event} ⇒ ${t.workflow.name} ✓`, kind: 'invoke-complete', guarded: false, approval: false });
          if (t.onFail) push({ from: id, to: t.onFail.name, label: `${t.event} ⇒ ${t.workflow.name} ✗`, kind: 'invoke-fail', guarded: false, approval: false });
          break;
        case 'fork':
          for (const b of t.branches) {
            push({ from: id, to: b.initial.name, label: `${t.event} ⑂ ${b.name}`, kind: 'fork-branch', guarded: false, approval: false });
          }
          push({ from: id, to: t.onComplete.name, label: `${t.event} join ${t.join}`, kind: 'fork-complete', guarded: false, approval: false });
          if (t.onFail) push({ from: id, to: t.onFail.name, label: `${t.event} fork failed`, kind: 'fork-fail', guarded: false, approval: false });
          break;
      }
    }
    if (state.safeNext) push({ from: id, to: state.safeNext.name, label: 'safe_next', kind: 'safe-next', guarded: false, approval: false });
  }
  const handlers = new Set(wf.interrupts.map((i) => i.target.name));
  const nodes: GraphNode[] = [...wf.states.values()].map((s) => ({
    id: s.id,
    final: s.kind === 'final',
    initial: s.id === wf.initial.name,
    interruptHandler: handlers.has(s.id),
  }));
  return { nodes, edges };
}
