/**
 * Transition plans: a transition's domain and entry set when neither depends
 * on the run's history, computed once per transition (kept in the table's
 * `plans`) by the same code that computes them in general (domain.ts,
 * entry.ts), run against a view with no history records that notes whether
 * a record was asked for. A transition that asks gets no plan and is
 * computed on every use, as before.
 */
import { transitionDomain } from './domain.js';
import { addEntrySet } from './entry.js';
import type { RunState } from './run-state.js';
import type { ChartTable, ChartView, NodeRow, TransitionPlan, TransitionRow } from './table.js';

/** The plan of `t`, or null when its sets depend on history (or it is the interpreter's own initial transition). */
export function planOf(table: ChartTable, t: TransitionRow): TransitionPlan | null {
  if (t.serial < 0) return null;
  let plan = table.plans[t.serial];
  if (plan === undefined) {
    plan = makePlan(table, t);
    table.plans[t.serial] = plan;
  }
  return plan;
}

/** The transition's domain, from its plan when it has one. */
export function domainOf(rs: RunState, t: TransitionRow): number {
  const plan = planOf(rs.table, t);
  return plan ? plan.domain : transitionDomain(rs, t);
}

/** A view of the chart with no history records, which remembers whether one was asked for. */
class NoHistory implements ChartView {
  asked = false;
  readonly history = {
    get: (): undefined => {
      this.asked = true;
      return undefined;
    },
  };
  constructor(readonly nodes: readonly NodeRow[]) {}
  node(index: number): NodeRow {
    return this.nodes[index] as NodeRow;
  }
}

function makePlan(table: ChartTable, t: TransitionRow): TransitionPlan | null {
  if (t.broken) return null;
  const view = new NoHistory(table.nodes);
  const domain = transitionDomain(view, t);
  const marks = new Uint8Array(table.nodes.length);
  addEntrySet(view, t, marks);
  if (view.asked) return null;
  const entry: number[] = [];
  for (let s = 0; s < marks.length; s++) if (marks[s]) entry.push(s);
  // entry.ts completes a parallel state's regions only for a parallel state that is entered, targeted, or the domain.
  const isParallel = (s: number): boolean => s >= 0 && table.nodes[s]?.kind === 'parallel';
  const fillsRegions = isParallel(domain) || entry.some(isParallel) || t.targets.some(isParallel);
  return { domain, entry: Object.freeze(entry), fillsRegions };
}
