/**
 * Where the cursor is in a statechart document: the path of the key or value
 * under it and the string it is in. JSON goes through the workflow cursor
 * (jsonc-parser's `getLocation`, which reads broken text); YAML walks the
 * loader's YAML tree, which the `yaml` package builds from broken text too
 * (a half-typed key is a key with a null value; `target: ` is a null value).
 */
import type { JsonNode } from '../../formats/jsonc.js';
import { cursorAt, type Cursor } from '../cursor.js';
import { chartTree } from './tree.js';

export function chartCursorAt(text: string, offset: number, json: boolean): Cursor {
  if (json) return cursorAt(text, offset, false);
  const root = chartTree(text, false);
  return root ? walk(root, offset, []) : { path: [], atKey: true };
}

/** The string node's contents (the YAML tree gives each string node the offsets that make these its contents). */
function contents(n: JsonNode): { start: number; end: number } {
  return { start: n.offset + 1, end: n.offset + n.length - 1 };
}

const within = (offset: number, r: { start: number; end: number }): boolean => offset >= r.start && offset <= r.end;

function walk(node: JsonNode, offset: number, path: (string | number)[]): Cursor {
  if (node.type === 'object') {
    for (const p of node.children ?? []) {
      const [key, value] = p.children ?? [];
      if (!key) continue;
      const k = String(key.value);
      const r = contents(key);
      // A key alone (`ta|`, read as a key with no value) is where a field name is being typed.
      if (within(offset, r)) return { path: [...path, k], atKey: true, string: { ...r, closed: true, value: String(key.value) } };
      if (value && offset >= value.offset && offset <= value.offset + value.length && (value.length > 0 || offset === value.offset)) {
        if (offset > r.end) return walk(value, offset, [...path, k]);
      }
    }
    return { path: [...path, ''], atKey: true };
  }
  if (node.type === 'array') {
    const items = node.children ?? [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (offset >= item.offset && offset <= item.offset + item.length) return walk(item, offset, [...path, i]);
    }
    return { path: [...path, items.length], atKey: false };
  }
  if (node.type === 'string') {
    const r = contents(node);
    if (within(offset, r)) return { path, atKey: false, string: { ...r, closed: true, value: String(node.value) } };
    return { path, atKey: false, afterValue: offset > r.end };
  }
  return { path, atKey: false };
}
