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
  let found: JsonNode | undefined;
  for (const p of obj.children ?? []) if (p.children?.[0]?.value === key) found = p.children[1];
  return found;
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
