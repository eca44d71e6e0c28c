/**
 * Rule 9: no cycle of eventless (`always`) transitions. After an `always`
 * transition, the states it enters (and their ancestors, which stay active)
 * may take their own `always` transitions in the next microstep; a targetless
 * one leaves its source active, so it can fire again at once. A cycle made of
 * unguarded transitions loops forever: an error (the run would stop after
 * 1,000 microsteps). A cycle with a guard on it may end: a warning (DESIGN.md).
 *
 * As in XState v5, a microstep that changes neither the configuration nor the
 * context ends the eventless steps: a transition taken again right after
 * itself lands where it already is, so it loops on its own only when it
 * assigns to the context (in XState v5 a targetless or self-targeting
 * `always` without an assign runs once; with an assign it never ends).
 */
import type { Diagnostic, RelatedInfo, SourceLoc, Workflow } from '../model/index.js';
import { resolveTarget } from '../statechart/targets.js';
import type { ChartIndex, SourcedTransition } from './chart-walk.js';
import { ancestorsOrSelf, entrySet } from './chart-walk.js';
import { cyclicComponents } from './scc.js';

export const CHART_ALWAYS_CYCLE = 'chart-always-cycle';

export function alwaysCycleRule(wf: Workflow, index: ChartIndex, out: Diagnostic[]): void {
  const always = index.transitions.filter((s) => s.t.trigger.kind === 'always');
  if (always.length === 0) return;
  const bySource = new Map<string, number[]>();
  always.forEach((s, i) => {
    const list = bySource.get(s.source);
    if (list) list.push(i);
    else bySource.set(s.source, [i]);
  });
  const edges = always.map((s, i) => successors(wf, s, bySource).filter((j) => j !== i || assigns(wf, s)));
  const unguardedEdges = edges.map((next, i) => (always[i]?.t.guard ? [] : next.filter((j) => !always[j]?.t.guard)));
  const errors = cyclicComponents(always.length, unguardedEdges);
  const inError = new Set(errors.flat());
  for (const component of errors) out.push(cycleDiagnostic(always, component, 'error'));
  for (const component of cyclicComponents(always.length, edges)) {
    if (component.some((i) => inError.has(i))) continue;
    out.push(cycleDiagnostic(always, component, 'warning'));
  }
}

/** The `always` transitions that can fire in the microstep after `s`. */
function successors(wf: Workflow, s: SourcedTransition, bySource: ReadonlyMap<string, number[]>): number[] {
  const active = new Set<string>();
  if (s.t.targets.length === 0) for (const id of ancestorsOrSelf(wf, s.source)) active.add(id);
  for (const ref of s.t.targets) {
    const to = resolveTarget(wf, s.source, ref);
    if (to === undefined) continue; // rule 2
    for (const id of entrySet(wf, to)) active.add(id);
    active.add('');
  }
  const out: number[] = [];
  for (const id of active) for (const j of bySource.get(id) ?? []) out.push(j);
  return out;
}

/** Whether the transition writes the context (a named or inline `assign` among its actions). */
function assigns(wf: Workflow, s: SourcedTransition): boolean {
  return s.t.actions.some((a) => (a.kind === 'inline' ? a.action : wf.chart?.actions.get(a.name.name)?.action)?.type === 'assign');
}

function cycleDiagnostic(always: readonly SourcedTransition[], component: readonly number[], severity: 'error' | 'warning'): Diagnostic {
  const members = component.map((i) => always[i] as SourcedTransition);
  const first = members[0] as SourcedTransition;
  const states = [...new Set(members.map((m) => (m.source === '' ? 'the statechart' : `\`${m.source}\``)))].join(', ');
  const related: RelatedInfo[] = members.slice(1).map((m) => ({ message: `\`always\` of ${m.source === '' ? 'the statechart' : `\`${m.source}\``}`, loc: where(m) }));
  return {
    severity,
    code: CHART_ALWAYS_CYCLE,
    message:
      severity === 'error'
        ? `The eventless (\`always\`) transitions of ${states} form a cycle with no guard, so they would fire forever (the run stops as failed after 1,000 microsteps). Give one of them a guard that becomes false, or an event.`
        : `The eventless (\`always\`) transitions of ${states} form a cycle; only their guards stop it from looping. Make sure one of the guards becomes false on the way.`,
    loc: where(first),
    ...(related.length ? { related } : {}),
    data: { states: [...new Set(members.map((m) => m.source))] },
  };
}

/** A transition's first target; without one, its guard, else its first action, else the whole transition. */
function where(s: SourcedTransition): SourceLoc {
  const { t } = s;
  const action = t.actions[0];
  return t.targets[0]?.loc ?? t.guard?.loc ?? (action ? (action.kind === 'named' ? action.name.loc : action.action.loc) : t.loc);
}
