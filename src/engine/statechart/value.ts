/**
 * The active configuration as XState's StateValue: the key of the active
 * child for a compound state whose active child is atomic, else an object
 * from child key to that child's value (one key for a compound state, one per
 * region for a parallel state; an atomic region's value is `{}`).
 */
import type { JsonObject, JsonValue } from '../model.js';
import type { RunState } from './run-state.js';
import { ROOT, isAtomicKind } from './table.js';

export type StateValue = string | { readonly [key: string]: StateValue };

export function valueOf(rs: RunState, index: number = ROOT): StateValue {
  const node = rs.node(index);
  if (node.kind === 'compound') {
    const child = rs.activeChild(index);
    if (child < 0) return {};
    const childNode = rs.node(child);
    if (isAtomicKind(childNode.kind)) return childNode.key;
    return keyed([[childNode.key, valueOf(rs, child)]]);
  }
  const entries: [string, StateValue][] = [];
  for (const child of node.states) if (rs.active[child]) entries.push([rs.node(child).key, valueOf(rs, child)]);
  return keyed(entries);
}

function keyed(entries: readonly [string, StateValue][]): StateValue {
  const out: JsonObject = {};
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, { value: value as JsonValue, enumerable: true, writable: true, configurable: true });
  }
  return out as StateValue;
}
