/**
 * Reachability rules: unreachable states, and `$return` used where no
 * interrupt can be active.
 */
import type { Diagnostic, RelatedInfo, Workflow } from '../model/index.js';
import { closestName } from '../util/suggest.js';
import { implicitFailEdges, isReturn, type TargetSite } from './sites.js';

/** Breadth-first walk over the edges from `roots`. */
function walk(roots: Iterable<string>, edges: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  // A read index instead of queue.shift() (which moves the whole queue each time): linear in the edges.
  for (let head = 0; head < queue.length; head++) {
    const next = queue[head] as string;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const to of edges.get(next) ?? []) if (!seen.has(to)) queue.push(to);
  }
  return seen;
}

function edgeMap(wf: Workflow, sites: readonly TargetSite[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  const add = (from: string, to: string) => {
    if (!wf.states.has(to)) return;
    const list = edges.get(from);
    if (list) list.push(to);
    else edges.set(from, [to]);
  };
  // A misspelt target leads where its "did you mean" says (unknown-target reports the typo): one mistake, one
  // diagnostic, not also "unreachable" for the state it meant and every state after it.
  const names = [...wf.states.keys()];
  const meant = (name: string): string => (wf.states.has(name) || name === '' ? name : (closestName(name, names) ?? name));
  for (const s of sites) if (s.from !== undefined && !isReturn(s.ref)) add(s.from, meant(s.ref.name));
  for (const e of implicitFailEdges(wf)) add(e.from, e.to);
  // Hierarchy (statecharts): entering a compound state enters its initial child, a parallel state all its children.
  for (const state of wf.states.values()) {
    if (state.kind === 'compound' && state.initial) add(state.id, state.initial.name);
    if (state.kind === 'parallel') for (const child of state.children) add(state.id, child);
  }
  return edges;
}

export function reachabilityRules(wf: Workflow, sites: readonly TargetSite[]): Diagnostic[] {
  const edges = edgeMap(wf, sites);
  const roots = [wf.initial.name, ...sites.filter((s) => s.root).map((s) => s.ref.name)].filter((n) => wf.states.has(n));
  // Without a valid initial state everything would look unreachable; the missing initial is reported instead.
  if (!wf.states.has(wf.initial.name)) return returnRule(wf, sites, edges);
  const reached = walk(roots, edges);
  const out: Diagnostic[] = [];
  let into: Map<string, TargetSite[]> | undefined; // the sites naming each state, built at the first unreachable state
  for (const state of wf.states.values()) {
    if (reached.has(state.id)) continue;
    into ??= sitesByTarget(sites);
    const sources: RelatedInfo[] = (into.get(state.id) ?? []).map((s) => ({
      message: `${s.label} leads here, but \`${s.from}\` is unreachable too`,
      loc: s.ref.loc,
    }));
    out.push({
      severity: 'error',
      code: 'unreachable-state',
      message:
        `State \`${state.id}\` can never be entered: nothing leads to it from the initial state \`${wf.initial.name}\`, an interrupt or a fork. ` +
        'Add a transition to it, or remove it.',
      loc: state.keyLoc,
      ...(sources.length ? { related: sources } : {}),
      data: { state: state.id },
    });
  }
  return [...out, ...returnRule(wf, sites, edges)];
}

/** Sites with a source state, by the state they name, in site order. */
function sitesByTarget(sites: readonly TargetSite[]): Map<string, TargetSite[]> {
  const by = new Map<string, TargetSite[]>();
  for (const s of sites) {
    if (s.from === undefined) continue;
    const list = by.get(s.ref.name);
    if (list) list.push(s);
    else by.set(s.ref.name, [s]);
  }
  return by;
}

/** `$return` is only meaningful in states an interrupt handler can be in: those reachable from an interrupt target. */
function returnRule(wf: Workflow, sites: readonly TargetSite[], edges: ReadonlyMap<string, readonly string[]>): Diagnostic[] {
  const handlerStates = walk(wf.interrupts.map((i) => i.target.name).filter((n) => wf.states.has(n)), edges);
  const related: RelatedInfo[] = wf.interrupts.map((i) => ({
    message: `interrupt \`${i.name}\` enters at \`${i.target.name}\``,
    loc: i.target.loc,
  }));
  return sites
    .filter((s) => isReturn(s.ref) && s.returnAllowed && s.from !== undefined && !handlerStates.has(s.from))
    .map((s) => ({
      severity: 'error' as const,
      code: 'return-outside-interrupt',
      message:
        `${s.label} targets \`$return\`, but no interrupt's handler can reach \`${s.from}\`, so there is never an interrupted state to return to. ` +
        (wf.interrupts.length
          ? 'Target a state by name, or make this state reachable from an interrupt target.'
          : 'Target a state by name, or add an `interrupts` entry whose target leads here.'),
      loc: s.ref.loc,
      ...(related.length ? { related } : {}),
    }));
}
