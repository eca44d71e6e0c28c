/** Small reads over the JSON/YAML tree shared by the statechart loader's files. */
import type { JsonNode } from './jsonc.js';
import { Entry } from './reader.js';

/** An array item as an Entry (so the Reader's typed reads apply); `label` names it in messages. */
export function itemEntry(node: JsonNode, pointer: string, label: string): Entry {
  return new Entry(label, node, node, pointer);
}

/**
 * The value of `key` in an object node (the last one, as JSON.parse reads it),
 * read quietly: for deciding how to read a node before its fields are read and
 * reported (a node's kind, an action's type, a region's id).
 */
export function valueOf(obj: JsonNode, key: string): JsonNode | undefined {
  const children = obj.children;
  if (!children) return undefined;
  // From the end: the last occurrence is the one read. (An indexed loop: this runs for every state node.)
  for (let i = children.length - 1; i >= 0; i--) {
    const pc = (children[i] as JsonNode).children;
    if (pc?.[0]?.value === key) return pc[1];
  }
  return undefined;
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
