/**
 * Adding an entry to an object of a statechart document, in its own syntax:
 * JSON through jsonc-parser (edits.ts), YAML as one more line at the
 * indentation of the object's keys (or `, key: value` inside a flow mapping
 * `{ ... }`), with the value written in YAML's flow style. An object that is
 * not there yet is added to its parent the same way.
 */
import { childPointer, nodeAtPointer, pointerSegments, type JsonNode } from '../../formats/jsonc.js';
import type { JsonValue } from '../../model/index.js';
import { setValue, type TextEdit } from '../edits.js';
import { chartTree } from './tree.js';

const PLAIN = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

/** A value in YAML flow style (`{ type: final }`). */
export function yamlFlow(v: JsonValue): string {
  if (typeof v === 'string') return PLAIN.test(v) && !RESERVED.test(v) ? v : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(yamlFlow).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v).map(([k, x]) => `${yamlFlow(k)}: ${yamlFlow(x as JsonValue)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(v);
}

export function insertEntry(text: string, json: boolean, pointer: string, key: string, value: JsonValue): TextEdit[] {
  if (json) return setValue(text, undefined, [...jsonPath(chartTree(text, true), pointer), key], value);
  const root = chartTree(text, false);
  const node = root ? nodeAtPointer(root, pointer) : undefined;
  if (!node || node.type !== 'object') {
    const segments = pointerSegments(pointer);
    const last = segments.pop();
    if (last === undefined || node) return []; // there but not a mapping: nothing sensible to add to
    return insertEntry(text, json, segments.reduce(childPointer, ''), last, { [key]: value });
  }
  const entry = `${yamlFlow(key)}: ${yamlFlow(value)}`;
  const props = node.children ?? [];
  if (text[node.offset] === '{') {
    const close = text.lastIndexOf('}', node.offset + node.length);
    return [{ start: close, end: close, newText: props.length ? `, ${entry} ` : ` ${entry} ` }];
  }
  const first = props[0]?.children?.[0];
  const lastProp = props[props.length - 1];
  if (!first || !lastProp) return [];
  let end = lastProp.offset + lastProp.length;
  while (end > 0 && /\s/.test(text[end - 1] ?? '')) end--;
  return [{ start: end, end, newText: `\n${' '.repeat(column(text, keyStart(text, first)))}${entry}` }];
}

/** A pointer as jsonc-parser's path: array items by number. */
function jsonPath(root: JsonNode | undefined, pointer: string): Array<string | number> {
  let node = root;
  return pointerSegments(pointer).map((seg) => {
    const isItem = node?.type === 'array';
    node = node ? nodeAtPointer(node, childPointer('', seg)) : undefined;
    return isItem ? Number(seg) : seg;
  });
}

/** Where a key's text starts (the YAML tree puts a plain key's node one before its text). */
function keyStart(text: string, key: JsonNode): number {
  const at = Math.max(0, key.offset);
  return text[at] === '"' || text[at] === "'" ? at : key.offset + 1;
}

function column(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}
