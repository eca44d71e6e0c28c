/**
 * Every place a workflow names a state, in one list, so the target check, the
 * reachability walk and the `$return` rule agree on what the edges are.
 */
import { RETURN_TARGET, transitionTargets, type NameRef, type StateNode, type Transition, type Workflow } from '../model/index.js';

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

/** The state an invoke or fork falls back to on failure when it has no `on_fail` (docs/format.md). */
export const DEFAULT_FAIL_STATE = 'failed';

export function targetSites(wf: Workflow): TargetSite[] {
  const sites: TargetSite[] = [];
  for (const state of wf.states.values()) {
    for (const t of state.on) transitionSites(state, t, sites);
    if (state.safeNext) sites.push(new Site(state.id, state.safeNext, SAFE_NEXT, state.id, true, false));
  }
  for (const i of wf.interrupts) {
    sites.push(new Site(undefined, i.target, INTERRUPT, i.name, false, true));
  }
  return sites;
}

const TRANSITION = 0;
const SAFE_NEXT = 1;
const INTERRUPT = 2;

/**
 * A site whose label is put together only when a message needs it: a large
 * workflow has thousands of sites and nearly all of them are fine.
 */
class Site implements TargetSite {
  declare readonly from?: string;
  private text: string | undefined;
  constructor(
    from: string | undefined,
    readonly ref: NameRef,
    private readonly kind: number,
    /** The event, or the state (`safe_next`), or the interrupt's name. */
    private readonly name: string,
    readonly returnAllowed: boolean,
    readonly root: boolean,
  ) {
    if (from !== undefined) (this as { from?: string }).from = from;
  }

  get label(): string {
    if (this.text === undefined) {
      this.text =
        this.kind === TRANSITION
          ? `\`${this.name}\` in state \`${this.from ?? ''}\``
          : this.kind === SAFE_NEXT
            ? `\`safe_next\` of state \`${this.name}\``
            : `interrupt \`${this.name}\``;
    }
    return this.text;
  }
}

function transitionSites(state: StateNode, t: Transition, sites: TargetSite[]): void {
  const returnAllowed = t.kind === 'simple' || t.kind === 'guarded' || t.kind === 'branched';
  for (const ref of transitionTargets(t)) {
    sites.push(new Site(state.id, ref, TRANSITION, t.event, returnAllowed, t.kind === 'fork' && isBranchState(t, ref)));
  }
}

/** Fork branch states (their `initial` and `terminal`) are reachability roots. */
function isBranchState(t: Extract<Transition, { kind: 'fork' }>, ref: NameRef): boolean {
  for (const b of t.branches) if (b.initial === ref || b.terminal === ref) return true;
  return false;
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
