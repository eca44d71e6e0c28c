/**
 * Rule 9: no cycle of eventless (`always`) transitions. After an `always`
 * transition, the states it enters and their ancestors (which stay active) may
 * take their own `always` transitions in the next microstep; a targetless one
 * leaves its source active. A cycle made of unguarded transitions loops
 * forever: an error (the run would stop after 1,000 microsteps). A cycle with
 * a guard on it may end: a warning (docs/statecharts.md).
 *
 * As in XState v5, a microstep that changes neither the configuration nor the
 * context ends the eventless steps: a transition taken again right after
 * itself lands where it already is, so a cycle through one transition loops
 * only when that transition assigns to the context (a targetless or
 * self-targeting `always` without an assign runs once).
 *
 * The graph has, besides the transitions, two vertices per state: entered
 * by default, and active. A transition enters its targets and, as the
 * interpreter does (statechart/entry.ts), the ancestors between a target and
 * the transition's domain, with the other regions of any parallel state among
 * them: so a transition that stays inside one region of a parallel state
 * enters nothing in its sibling regions, and eventless transitions in
 * different regions form a cycle only when one of them really leaves its
 * region and comes back through the parallel state. A cycle always runs
 * through a transition.
 */
import type { Diagnostic, RelatedInfo, SourceLoc, StateNode, Workflow } from '../model/index.js';
import { resolveTarget } from '../statechart/targets.js';
import type { ChartIndex, SourcedTransition } from './chart-walk.js';
import { childNamed } from './chart-walk.js';
import { cyclicComponents } from './scc.js';

export const CHART_ALWAYS_CYCLE = 'chart-always-cycle';

export function alwaysCycleRule(wf: Workflow, index: ChartIndex, out: Diagnostic[]): void {
  const always = index.transitions.filter((s) => s.t.trigger.kind === 'always');
  if (always.length === 0) return;
  const errors = transitionCycles(wf, always, (s) => !s.t.guard);
  const inError = new Set(errors.flat());
  for (const cycle of errors) out.push(cycleDiagnostic(always, cycle, 'error'));
  for (const cycle of transitionCycles(wf, always, () => true)) {
    if (!cycle.some((i) => inError.has(i))) out.push(cycleDiagnostic(always, cycle, 'warning'));
  }
}

/** The cycles (as transition indexes, in document order) among the transitions `include` keeps. */
function transitionCycles(wf: Workflow, always: readonly SourcedTransition[], include: (s: SourcedTransition) => boolean): number[][] {
  const ids = [...wf.states.keys()];
  const slot = new Map(ids.map((id, i) => [id, i]));
  const n = ids.length + 1; // the root is the last state slot
  const root = ids.length;
  const at = (id: string | undefined): number => (id === undefined || id === '' ? root : (slot.get(id) as number));
  const ENTERED = 0;
  const ACTIVE = n;
  const TRANSITION = 2 * n;
  const edges: number[][] = Array.from({ length: TRANSITION + always.length }, () => []);
  const edge = (from: number, to: number) => (edges[from] as number[]).push(to);
  /** Entering `id` from `from` through `domain`: the state, then the regions its entry adds to parallel ancestors below the domain. */
  const targetEntry = (from: number, id: string, domain: string | undefined) => {
    edge(from, ENTERED + at(id));
    for (const p of entryAncestors(wf, id, domain)) {
      const parallel = wf.states.get(p);
      if (parallel?.kind !== 'parallel') continue;
      for (const region of parallel.children) if (!isWithin(wf, id, region)) edge(from, ENTERED + at(region));
    }
  };
  for (const [id, node] of wf.states) {
    const k = at(id);
    edge(ENTERED + k, ACTIVE + k);
    edge(ACTIVE + k, ACTIVE + at(node.parent));
    for (const child of defaultChildren(wf, node)) edge(ENTERED + k, ENTERED + at(child));
    if (node.kind === 'history') {
      const parent = node.parent === undefined ? undefined : wf.states.get(node.parent);
      const fallback = node.chart?.historyDefault ? resolveTarget(wf, id, node.chart.historyDefault) : undefined;
      if (fallback !== undefined) targetEntry(ENTERED + k, fallback, node.parent ?? '');
      else if (parent) for (const child of defaultChildren(wf, parent)) edge(ENTERED + k, ENTERED + at(child));
    }
  }
  always.forEach((s, j) => {
    if (!include(s)) return;
    edge(ACTIVE + at(s.source), TRANSITION + j);
    if (s.t.targets.length === 0) edge(TRANSITION + j, ACTIVE + at(s.source));
    const targets: string[] = [];
    for (const ref of s.t.targets) {
      const to = resolveTarget(wf, s.source, ref);
      if (to !== undefined) targets.push(to); // unresolved: rule 2
    }
    const domain = transitionDomain(wf, s.source, targets, s.t.reenter);
    for (const to of targets) targetEntry(TRANSITION + j, to, domain);
  });
  const cycles: number[][] = [];
  for (const component of cyclicComponents(edges.length, edges)) {
    const transitions = component.filter((v) => v >= TRANSITION).map((v) => v - TRANSITION);
    const only = transitions[0];
    // One transition on the cycle: taken twice in a row, it changes something only by assigning.
    if (transitions.length > 1 || (only !== undefined && assigns(wf, always[only] as SourcedTransition))) cycles.push(transitions);
  }
  return cycles.sort((a, b) => (a[0] as number) - (b[0] as number));
}

/** The ancestors of `id` ('' the root) outermost last, without `id` itself. */
function ancestorsOf(wf: Workflow, id: string): string[] {
  const out: string[] = [];
  for (let p = wf.states.get(id)?.parent; ; p = wf.states.get(p)?.parent) {
    if (p === undefined) {
      out.push('');
      return out;
    }
    out.push(p);
  }
}

/** Whether `id` is `ancestor` or inside it ('' the root holds everything). */
function isWithin(wf: Workflow, id: string, ancestor: string): boolean {
  return id === ancestor || ancestor === '' || ancestorsOf(wf, id).includes(ancestor);
}

/**
 * The transition's domain as the interpreter computes it (statechart/domain.ts):
 * the source when every target is inside it (and it does not re-enter), else the
 * nearest common proper ancestor; undefined: above the root (a root transition
 * that re-enters). A history target stands for what it restores: its parent is
 * a common ancestor of both, so the domain found is never lower than the real one.
 */
function transitionDomain(wf: Workflow, source: string, targets: readonly string[], reenter: boolean): string | undefined {
  if (!reenter && targets.every((t) => t === source || isWithin(wf, t, source))) return source;
  const head = targets[0] ?? source;
  for (const anc of ancestorsOf(wf, head)) {
    if (targets.every((t) => t !== anc && isWithin(wf, t, anc)) && source !== anc && isWithin(wf, source, anc)) return anc;
  }
  return reenter ? undefined : '';
}

/**
 * The states whose entry comes with entering `id` through `domain`: its proper
 * ancestors below the domain, and the domain itself when it is a parallel state
 * (its exited regions come back by default); undefined domain: every ancestor.
 */
function entryAncestors(wf: Workflow, id: string, domain: string | undefined): string[] {
  const out: string[] = [];
  for (const anc of ancestorsOf(wf, id)) {
    if (anc === domain) {
      if (wf.states.get(anc)?.kind === 'parallel') out.push(anc);
      break;
    }
    out.push(anc);
  }
  return out;
}

/** What entering `node` enters by default: a compound's initial child (every child when it has none valid), every region. */
function defaultChildren(wf: Workflow, node: StateNode): readonly string[] {
  if (node.kind === 'parallel') return node.children;
  if (node.kind !== 'compound') return [];
  const initial = childNamed(wf, node, node.initial);
  return initial ? [initial.id] : node.children;
}

/** Whether the transition writes the context (a named or inline `assign` among its actions). */
function assigns(wf: Workflow, s: SourcedTransition): boolean {
  return s.t.actions.some((a) => (a.kind === 'inline' ? a.action : wf.chart?.actions.get(a.name.name)?.action)?.type === 'assign');
}

function cycleDiagnostic(always: readonly SourcedTransition[], cycle: readonly number[], severity: 'error' | 'warning'): Diagnostic {
  const members = cycle.map((i) => always[i] as SourcedTransition);
  const first = members[0] as SourcedTransition;
  const name = (m: SourcedTransition) => (m.source === '' ? 'the statechart' : `\`${m.source}\``);
  const states = [...new Set(members.map(name))].join(', ');
  const related: RelatedInfo[] = members.slice(1).map((m) => ({ message: `\`always\` of ${name(m)}`, loc: where(m) }));
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
