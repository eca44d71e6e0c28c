/**
 * One microstep (SCXML's, as XState v5 runs it) for a set of non-conflicting
 * transitions: exit the exit set innermost first (history recorded before
 * any exit; exit actions, then timers cancelled and invocations stopped),
 * run the transitions' actions in selection order, enter the entry set
 * outermost first (entry actions, then timers scheduled and invocations
 * started; done events queued when a final state is entered).
 *
 * The entry set is XState's: each target, the default entry below it
 * (a compound's initial child, every region of a parallel state, a history
 * node's record or default), and its ancestors up to the transition's
 * domain, with the missing regions of any parallel ancestor.
 */
import { runActions } from './actions.js';
import { completeRun, finalEntered } from './done.js';
import { addExitSet, effectiveTargets, historyDefaultTargets, transitionDomain } from './domain.js';
import { recordHistory } from './history.js';
import { cancelInvocations, startInvocations } from './invoke.js';
import type { ChartEvent, RunState } from './run-state.js';
import type { TransitionRow } from './table.js';
import { ROOT, isDescendant } from './table.js';
import { cancelTimers, scheduleTimers } from './timers.js';

/**
 * Runs one microstep. Returns whether it changed anything XState would see
 * as a new snapshot (the configuration, the context, history, invocations),
 * which decides whether eventless transitions are looked for again.
 */
export function microstep(rs: RunState, transitions: readonly TransitionRow[], event: ChartEvent, initial = false): boolean {
  if (!transitions.length) return false;
  for (const t of transitions) {
    if (t.broken) {
      rs.fail(t.broken);
      return true;
    }
  }
  rs.transitioned = true;
  rs.regular = undefined;
  rs.touched = false;
  rs.historyTouched = false;

  for (const t of transitions) {
    if (t.index < 0) continue;
    rs.effect({
      type: 'transition',
      source: rs.node(t.source).id,
      index: t.index,
      trigger: t.label,
      event: event.binding.type,
      targets: t.targets.map((s) => rs.node(s).id),
    });
  }
  const exited = initial ? NONE : exitStates(rs, transitions, event);
  // The stamps of the exited states, in case the same states are entered again (see below).
  const exitedStamps = exited.map((s) => rs.stamps[s] as number);
  for (const t of transitions) runActions(rs, t.actions, event, rs.node(t.source).id);
  const toEnter = new Uint8Array(rs.nodes.length);
  for (const t of transitions) addEntrySet(rs, t, toEnter);
  const entered = enterStates(rs, toEnter, event);
  if (rs.status === 'done') completeRun(rs, event);

  const sameSet = entered === exited.length && exited.every((s) => toEnter[s] === 1);
  if (sameSet && !rs.historyTouched) {
    // XState keeps its previous node list (and so the previous entry order) when nothing changed in it.
    exited.forEach((s, i) => (rs.stamps[s] = exitedStamps[i] as number));
  } else {
    rs.step++;
  }
  return rs.touched || rs.historyTouched || !sameSet || rs.status !== 'running';
}

const NONE: readonly number[] = [];

/** Exits the states `transitions` exit, innermost first; returns them. */
function exitStates(rs: RunState, transitions: readonly TransitionRow[], event: ChartEvent): readonly number[] {
  const exiting: number[] = [];
  for (const t of transitions) addExitSet(rs, t, exiting);
  if (!exiting.length) return NONE;
  exiting.sort((a, b) => b - a);
  for (const s of exiting) recordHistory(rs, s);
  for (const s of exiting) {
    const node = rs.node(s);
    if (s !== ROOT) rs.effect({ type: 'exit', state: node.id });
    runActions(rs, node.exit, event, node.id);
    cancelTimers(rs, s);
    cancelInvocations(rs, s);
    rs.active[s] = 0;
  }
  return exiting;
}

/** Enters the states marked in `toEnter`, outermost first (document order); returns how many were not active. */
function enterStates(rs: RunState, toEnter: Uint8Array, event: ChartEvent): number {
  const stamp = rs.step + 1;
  let count = 0;
  let completed: Set<number> | undefined;
  for (let s = 0; s < toEnter.length; s++) {
    if (!toEnter[s]) continue;
    const node = rs.node(s);
    // XState can "enter" a state that is still active (a history default that is the source itself):
    // its entry actions run, but the configuration, and the state's place in it, do not change.
    if (!rs.active[s]) {
      count++;
      rs.active[s] = 1;
      rs.stamps[s] = stamp;
    }
    if (s !== ROOT) rs.effect({ type: 'enter', state: node.id });
    runActions(rs, node.entry, event, node.id);
    scheduleTimers(rs, s, event);
    startInvocations(rs, s, event);
    if (node.kind === 'final') finalEntered(rs, s, (completed ??= new Set()));
  }
  return count;
}

/** XState's computeEntrySet for one transition, marking states in `toEnter`. */
function addEntrySet(rs: RunState, t: TransitionRow, toEnter: Uint8Array): void {
  const domain = transitionDomain(rs, t);
  for (const s of t.targets) {
    if (rs.node(s).kind !== 'history' && (t.source !== s || t.source !== domain || t.reenter)) toEnter[s] = 1;
    addDescendants(rs, s, toEnter);
  }
  for (const s of effectiveTargets(rs, t.targets)) {
    const ancestors = properAncestors(rs, s, domain);
    if (domain >= 0 && rs.node(domain).kind === 'parallel') ancestors.push(domain);
    addAncestors(rs, ancestors, toEnter, t.source === ROOT && t.reenter ? -1 : domain);
  }
}

/** The ancestors of `s` below `upTo` (exclusive), innermost first; `upTo` -1: up to and including the root. */
function properAncestors(rs: RunState, s: number, upTo: number): number[] {
  const out: number[] = [];
  if (s === upTo) return out;
  for (let m = rs.node(s).parent; m >= 0 && m !== upTo; m = rs.node(m).parent) out.push(m);
  return out;
}

/** Default entry below `s`: XState's addDescendantStatesToEnter. */
function addDescendants(rs: RunState, s: number, toEnter: Uint8Array): void {
  const node = rs.node(s);
  if (node.kind === 'history') {
    const restored = rs.history.get(s) ?? historyDefaultTargets(rs, s);
    for (const r of restored) {
      toEnter[r] = 1;
      addDescendants(rs, r, toEnter);
    }
    for (const r of restored) addAncestors(rs, properAncestors(rs, r, node.parent), toEnter, -1);
    return;
  }
  if (node.kind === 'compound') {
    const initial = node.initial;
    if (initial < 0) return;
    if (rs.node(initial).kind !== 'history') toEnter[initial] = 1;
    addDescendants(rs, initial, toEnter);
    return;
  }
  if (node.kind === 'parallel') addMissingRegions(rs, s, toEnter);
}

/** Adds `ancestors` (those inside `reentryDomain`; -1: all) and the regions of parallel ones that nothing enters yet. */
function addAncestors(rs: RunState, ancestors: readonly number[], toEnter: Uint8Array, reentryDomain: number): void {
  for (const anc of ancestors) {
    if (reentryDomain < 0 || isDescendant(rs.nodes, anc, reentryDomain)) toEnter[anc] = 1;
    if (rs.node(anc).kind === 'parallel') addMissingRegions(rs, anc, toEnter);
  }
}

/** Every region of parallel `p` with no descendant being entered is entered by default. */
function addMissingRegions(rs: RunState, p: number, toEnter: Uint8Array): void {
  for (const region of rs.node(p).states) {
    if (hasEnteringDescendant(rs, region, toEnter)) continue;
    toEnter[region] = 1;
    addDescendants(rs, region, toEnter);
  }
}

function hasEnteringDescendant(rs: RunState, s: number, toEnter: Uint8Array): boolean {
  const end = rs.node(s).end;
  for (let i = s + 1; i < end; i++) if (toEnter[i]) return true;
  return false;
}
