/**
 * The active configuration as XState's StateValue: the key of the active
 * child for a compound state whose active child is atomic, else an object
 * from child key to that child's value (one key for a compound state, one per
 * region for a parallel state; an atomic region's value is `{}`).
 *
 * XState computes the value from its node list completed by
 * getAllStateNodes: every ancestor of an active node, the initial states of
 * an active compound state with no active child, and the initial states of a
 * parallel state's missing regions. A regular configuration needs none of
 * that, but XState can reach an irregular one (a transition to a history
 * node whose default is its own source, taken together with one that
 * re-enters the enclosing state, enters a state without its parent). Event
 * selection walks the value, so for an irregular configuration both the
 * value and the selection are computed from the completed list, in its
 * order, exactly as XState does.
 */
import type { JsonObject, JsonValue } from '../model/index.js';
import type { RunState } from './run-state.js';
import type { NodeRow } from './table.js';
import { ROOT, isAtomicKind } from './table.js';

export type StateValue = string | { readonly [key: string]: StateValue };

/** Whether every active node's parent is active, every active compound has an active child, every active parallel all its regions, entered together. */
export function isRegular(rs: RunState): boolean {
  return (rs.regular ??= regular(rs));
}

function regular(rs: RunState): boolean {
  const { nodes, active, stamps } = rs;
  for (let i = 0; i < nodes.length; i++) {
    if (!active[i]) continue;
    const node = nodes[i] as NodeRow;
    if (node.parent >= 0 && !active[node.parent]) return false;
    if (node.kind === 'compound' && node.states.length && rs.activeChild(i) < 0) return false;
    if (node.kind === 'parallel') {
      for (const region of node.states) if (!active[region] || stamps[region] !== stamps[node.states[0] as number]) return false;
    }
  }
  return true;
}

export function valueOf(rs: RunState): StateValue {
  return isRegular(rs) ? regularValue(rs, ROOT) : completedValue(rs);
}

function regularValue(rs: RunState, index: number): StateValue {
  const node = rs.node(index);
  if (node.kind === 'compound') {
    const child = rs.activeChild(index);
    if (child < 0) return {};
    const childNode = rs.node(child);
    if (isAtomicKind(childNode.kind)) return childNode.key;
    return keyed([[childNode.key, regularValue(rs, child)]]);
  }
  const entries: [string, StateValue][] = [];
  for (const child of node.states) if (rs.active[child]) entries.push([rs.node(child).key, regularValue(rs, child)]);
  return keyed(entries);
}

/** XState's getAllStateNodes over its node list (active nodes in entry order), in the order it adds them. */
function completedNodes(rs: RunState): number[] {
  const { nodes, active, stamps } = rs;
  const order: number[] = [];
  for (let i = 0; i < nodes.length; i++) if (active[i]) order.push(i);
  order.sort((a, b) => (stamps[a] as number) - (stamps[b] as number) || a - b);
  const inSet = Uint8Array.from(active);
  const hadChild = new Uint8Array(nodes.length);
  for (const s of order) if ((nodes[s] as NodeRow).parent >= 0) hadChild[(nodes[s] as NodeRow).parent] = 1;
  const add = (s: number): void => {
    if (inSet[s]) return;
    inSet[s] = 1;
    order.push(s);
  };
  const addInitial = (s: number): void => {
    // getInitialStateNodesWithTheirAncestors(s): s, then down through initial children and every region.
    const visit = (x: number): void => {
      add(x);
      const node = nodes[x] as NodeRow;
      if (node.kind === 'compound' && node.initial >= 0 && (nodes[node.initial] as NodeRow).kind !== 'history') visit(node.initial);
      else if (node.kind === 'parallel') for (const region of node.states) visit(region);
    };
    visit(s);
  };
  for (let i = 0; i < order.length; i++) {
    const s = order[i] as number;
    const node = nodes[s] as NodeRow;
    if (node.kind === 'compound' && node.states.length && !hadChild[s]) addInitial(s);
    else if (node.kind === 'parallel') for (const region of node.states) if (!inSet[region]) addInitial(region);
  }
  for (let i = 0; i < order.length; i++) {
    for (let m = (nodes[order[i] as number] as NodeRow).parent; m >= 0; m = (nodes[m] as NodeRow).parent) add(m);
  }
  return order;
}

/** XState's getValueFromAdj over the completed node list. */
function completedValue(rs: RunState): StateValue {
  const children = new Map<number, number[]>();
  for (const s of completedNodes(rs)) {
    const parent = rs.node(s).parent;
    if (parent < 0) continue;
    const list = children.get(parent);
    if (list) list.push(s);
    else children.set(parent, [s]);
  }
  const build = (index: number): StateValue => {
    const list = children.get(index) ?? [];
    const node = rs.node(index);
    if (node.kind === 'compound') {
      const first = list[0];
      if (first === undefined) return {};
      if (isAtomicKind(rs.node(first).kind)) return rs.node(first).key;
    }
    return keyed(list.map((child) => [rs.node(child).key, build(child)]));
  };
  return build(ROOT);
}

function keyed(entries: readonly [string, StateValue][]): StateValue {
  const out: JsonObject = {};
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, { value: value as JsonValue, enumerable: true, writable: true, configurable: true });
  }
  return out as StateValue;
}
