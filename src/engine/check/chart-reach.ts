/**
 * Rule 3: no orphan states. Starting from the chart's initial configuration
 * (and the interrupts' targets), a state is reachable when a transition of a
 * reachable state (or of the root) targets it or a state inside it, or when
 * entering a reachable state enters it by default (a compound's initial
 * child, every region of a parallel state, a history's default). Only the
 * outermost unreachable state of a subtree is reported.
 */
import type { Diagnostic, Workflow } from '../model/index.js';
import { resolveTarget } from '../statechart/targets.js';
import { childNamed, entrySet } from './chart-walk.js';
import type { TargetSite } from './chart-targets.js';

export const CHART_UNREACHABLE = 'chart-unreachable';

export function reachRule(wf: Workflow, sites: readonly TargetSite[], out: Diagnostic[]): void {
  // Without a valid initial state everything would look unreachable; rule 1 reports that instead.
  if (!childNamed(wf, undefined, wf.initial)) return;
  const targetsBySource = new Map<string, string[]>();
  for (const s of sites) {
    const to = resolveTarget(wf, s.source, s.ref);
    if (to === undefined) continue;
    const list = targetsBySource.get(s.source);
    if (list) list.push(to);
    else targetsBySource.set(s.source, [to]);
  }
  const reached = new Set<string>();
  const queue: string[] = [];
  const entered = new Map<string, Set<string>>(); // many transitions target the same states
  const enter = (to: string): void => {
    let set = entered.get(to);
    if (!set) entered.set(to, (set = entrySet(wf, to)));
    for (const id of set) {
      if (reached.has(id)) continue;
      reached.add(id);
      queue.push(id);
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
