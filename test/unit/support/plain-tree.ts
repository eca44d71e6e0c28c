/** A parse tree (jsonc-parser's node shape) as plain data for deepEqual, its parent links checked on the way. */
import assert from 'node:assert/strict';
import type { JsonNode } from '../../../src/engine/formats/jsonc';

export interface Plain {
  type: string;
  offset: number;
  length: number;
  value?: unknown;
  colonOffset?: number;
  children?: Plain[];
}

/** The tree without its parent cycle; parent links are checked on the way. */
export function plain(node: JsonNode, parent: JsonNode | undefined): Plain {
  assert.equal(node.parent, parent, `parent of the ${node.type} at ${node.offset}`);
  const out: Plain = { type: node.type, offset: node.offset, length: node.length };
  if (node.value !== undefined) out.value = node.value;
  if (node.colonOffset !== undefined) out.colonOffset = node.colonOffset;
  if (node.children) out.children = node.children.map((c) => plain(c, node));
  return out;
}
