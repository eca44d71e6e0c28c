/**
 * Every place a workflow names a state, in one list, so the target check, the
 * reachability walk and the `$return` rule agree on what the edges are.
 */
import { RETURN_TARGET, transitionTargets, type NameRef, type StateNode, type Transition, type Workflow } from './model.js';

export interface TargetSite {
  /** The state the edge leaves; undefined for interrupts (they fire from anywhere). */
  readonly from?: string;
  readonly ref: NameRef;
  /** "`GO` in state `a`": for messages. */
  readonly label: string;
  /** `$return` is a target only where an event moves the machine (not for invoke/fork/interrupt slots). */
  readonly returnAllowed: boolean;
  /** Reachability roots (interrupt targets, fork branch states) besides the initial state. */
  readonly root: boolean;
}

/** The state an invoke or fork falls back to on failure when it has no `on_fail` (DESIGN.md). */
export const DEFAULT_FAIL_STATE = 'failed';

export function targetSites(wf: Workflow): TargetSite[] {
  const sites: TargetSite[] = [];
  for (const state of wf.states.values()) {
    for (const t of state.on) sites.push(...transitionSites(state, t));
    if (state.safeNext) {
      sites.push({ from: state.id, ref: state.safeNext, label: `\`safe_next\` of state \`${state.id}\``, returnAllowed: true, root: false });
    }
  }
  for (const i of wf.interrupts) {
    sites.push({ ref: i.target, label: `interrupt \`${i.name}\``, returnAllowed: false, root: true });
  }
  return sites;
}

function transitionSites(state: StateNode, t: Transition): TargetSite[] {
  const label = `\`${t.event}\` in state \`${state.id}\``;
  const returnAllowed = t.kind === 'simple' || t.kind === 'guarded' || t.kind === 'branched';
  const branchStates = new Set(t.kind === 'fork' ? t.branches.flatMap((b) => [b.initial, b.terminal]) : []);
  return transitionTargets(t).map((ref) => ({ from: state.id, ref, label, returnAllowed, root: branchStates.has(ref) }));
}

/**
 * Implicit edges: an invoke or fork without `on_fail` moves to the state named
 * `failed` when the child or a branch fails, so that state is reachable from it.
 */
export function implicitFailEdges(wf: Workflow): Array<{ from: string; to: string }> {
  if (!wf.states.has(DEFAULT_FAIL_STATE)) return [];
  const edges: Array<{ from: string; to: string }> = [];
  for (const state of wf.states.values()) {
    for (const t of state.on) {
      if ((t.kind === 'invoke' || t.kind === 'fork') && !t.onFail) edges.push({ from: state.id, to: DEFAULT_FAIL_STATE });
    }
  }
  return edges;
}

export function isReturn(ref: NameRef): boolean {
  return ref.name === RETURN_TARGET;
}
