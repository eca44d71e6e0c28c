/**
 * The states a transition enters: XState's computeEntrySet. Each target, the
 * default entry below it (a compound's initial child, every region of a
 * parallel state, a history node's record or default), and its ancestors up
 * to the transition's domain, with the missing regions of any parallel
 * ancestor. A microstep marks the sets of its transitions in one array, in
 * order: completing a parallel state's regions looks at what is marked.
 */
import { effectiveTargets, historyDefaultTargets, transitionDomain } from './domain.js';
import type { ChartView, TransitionRow } from './table.js';
import { ROOT, isDescendant } from './table.js';

/** XState's computeEntrySet for one transition, marking states in `toEnter`. */
export function addEntrySet(view: ChartView, t: TransitionRow, toEnter: Uint8Array): void {
  const domain = transitionDomain(view, t);
  for (const s of t.targets) {
    if (view.node(s).kind !== 'history' && (t.source !== s || t.source !== domain || t.reenter)) toEnter[s] = 1;
    addDescendants(view, s, toEnter);
  }
  for (const s of effectiveTargets(view, t.targets)) {
    const ancestors = properAncestors(view, s, domain);
    if (domain >= 0 && view.node(domain).kind === 'parallel') ancestors.push(domain);
    addAncestors(view, ancestors, toEnter, t.source === ROOT && t.reenter ? -1 : domain);
  }
}

/** The ancestors of `s` below `upTo` (exclusive), innermost first; `upTo` -1: up to and including the root. */
function properAncestors(view: ChartView, s: number, upTo: number): number[] {
  const out: number[] = [];
  if (s === upTo) return out;
  for (let m = view.node(s).parent; m >= 0 && m !== upTo; m = view.node(m).parent) out.push(m);
  return out;
}

/** Default entry below `s`: XState's addDescendantStatesToEnter. */
function addDescendants(view: ChartView, s: number, toEnter: Uint8Array): void {
  const node = view.node(s);
  if (node.kind === 'history') {
    const restored = view.history.get(s) ?? historyDefaultTargets(view, s);
    for (const r of restored) {
      toEnter[r] = 1;
      addDescendants(view, r, toEnter);
    }
    for (const r of restored) addAncestors(view, properAncestors(view, r, node.parent), toEnter, -1);
    return;
  }
  if (node.kind === 'compound') {
    const initial = node.initial;
    if (initial < 0) return;
    if (view.node(initial).kind !== 'history') toEnter[initial] = 1;
    addDescendants(view, initial, toEnter);
    return;
  }
  if (node.kind === 'parallel') addMissingRegions(view, s, toEnter);
}

/** Adds `ancestors` (those inside `reentryDomain`; -1: all) and the regions of parallel ones that nothing enters yet. */
function addAncestors(view: ChartView, ancestors: readonly number[], toEnter: Uint8Array, reentryDomain: number): void {
  for (const anc of ancestors) {
    if (reentryDomain < 0 || isDescendant(view.nodes, anc, reentryDomain)) toEnter[anc] = 1;
    if (view.node(anc).kind === 'parallel') addMissingRegions(view, anc, toEnter);
  }
}

/** Every region of parallel `p` with no descendant being entered is entered by default. */
function addMissingRegions(view: ChartView, p: number, toEnter: Uint8Array): void {
  for (const region of view.node(p).states) {
    if (hasEnteringDescendant(view, region, toEnter)) continue;
    toEnter[region] = 1;
    addDescendants(view, region, toEnter);
  }
}

function hasEnteringDescendant(view: ChartView, s: number, toEnter: Uint8Array): boolean {
  const end = view.node(s).end;
  for (let i = s + 1; i < end; i++) if (toEnter[i]) return true;
  return false;
}
