/**
 * Rule 3: no orphan states. Starting from the chart's initial configuration
 * (and the interrupts' targets), a state is reachable when a transition of a
 * reachable state (or of the root) targets it or a state inside it, or when
 * entering a reachable state enters it by default (a compound's initial
 * child, every region of a parallel state, a history's default). Only the
 * outermost unreachable state of a subtree is reported.
 *
 * Each state is entered by default at most once, and the walk up from a
 * target stops at the first ancestor already reached (its ancestors, and its
 * other regions, were entered when it was), so the work stays linear in the
 * size of the chart however deep it nests.
 */
import type { Diagnostic, StateNode, Workflow } from '../model/index.js';
import { resolveTarget } from '../statechart/targets.js';
import { childNamed } from './chart-walk.js';
import type { TargetSite } from './chart-targets.js';

export const CHART_UNREACHABLE = 'chart-unreachable';

export function reachRule(wf: Workflow, sites: readonly TargetSite[], out: Diagnostic[]): void {
  // Without a valid initial state everything would look unreachable; rule 1 reports that instead.
  if (!childNamed(wf, undefined, wf.initial)) return;
  const targetsBySource = new Map<string, string[]>();
  for (const s of sites) {
    const to = s.to;
    if (to === undefined) continue;
    const list = targetsBySource.get(s.source);
    if (list) list.push(to);
    else targetsBySource.set(s.source, [to]);
  }
  const reached = new Set<string>();
  const defaulted = new Set<string>();
  const queue: string[] = [];
  const get = (id: string | undefined) => (id === undefined ? undefined : wf.states.get(id));
  const activate = (id: string): void => {
    if (reached.has(id)) return;
    reached.add(id);
    queue.push(id);
  };
  const enterDefault = (node: StateNode | undefined): void => {
    if (!node || defaulted.has(node.id)) return;
    defaulted.add(node.id);
    activate(node.id);
    if (node.kind === 'parallel') for (const c of node.children) enterDefault(get(c));
    else if (node.kind === 'compound') {
      const initial = childNamed(wf, node, node.initial);
      // With no valid initial (rule 1 says so), every child counts as entered, so nothing is reported twice.
      if (initial) enterDefault(initial);
      else for (const c of node.children) enterDefault(get(c));
    } else if (node.kind === 'history') {
      const fallback = node.chart?.historyDefault ? resolveTarget(wf, node.id, node.chart.historyDefault) : undefined;
      const parent = get(node.parent);
      if (fallback !== undefined) enter(fallback);
      else if (parent) enterDefault(childNamed(wf, parent, parent.initial));
    }
  };
  /** A transition's target: it and its defaults, its ancestors, and the other regions of a parallel ancestor. */
  const enter = (id: string): void => {
    const node = get(id);
    enterDefault(node);
    for (let child = node, at = get(node?.parent); child && at; child = at, at = get(at.parent)) {
      if (reached.has(at.id)) break;
      activate(at.id);
      if (at.kind === 'parallel') for (const c of at.children) if (c !== child.id) enterDefault(get(c));
    }
  };
  for (const to of targetsBySource.get('') ?? []) enter(to); // the root's own transitions and the interrupts
  enter(wf.initial.name);
  for (let i = 0; i < queue.length; i++) {
    for (const to of targetsBySource.get(queue[i] as string) ?? []) enter(to);
  }
  for (const state of wf.states.values()) {
    if (reached.has(state.id) || (state.parent !== undefined && !reached.has(state.parent))) continue;
    out.push({
      severity: 'error',
      code: CHART_UNREACHABLE,
      message: `${state.kind === 'history' ? 'History state' : 'State'} \`${state.id}\` can never be entered: no transition targets it or a state inside it, and it is not entered by default (an initial state, a region). Add a transition to it, or remove it.`,
      loc: state.keyLoc,
      data: { state: state.id },
    });
  }
}
