/**
 * The parse tree's nodes (jsonc-parser's `Node` shape), made by constructors
 * rather than object literals.
 *
 * Why: V8 gives every object or array literal an allocation site and counts
 * how much of what it allocated survives a young-generation collection. A
 * parse tree all survives (it lives while the loader reads it), so V8 decides
 * to "pretenure" those sites: to allocate straight into the old generation.
 * That deoptimizes the parser, fills the old generation until a full
 * collection, and when the next check's garbage shows the tree did die after
 * all, V8 changes its mind and deoptimizes again. On the 1,003-node benchmark
 * chart half the checks ran at twice their time for it (docs/dev/performance-history.md,
 * 2026-12-05). Objects made by `new` have no allocation site, so none of this
 * happens to them.
 *
 * Fields are public and writable because the parsers fill in lengths, colon
 * offsets and children as they go; to everything else the nodes are
 * `JsonNode`s.
 */
import type { Node as JsonNode, NodeType } from 'jsonc-parser';

/** A property's `children`: its key and its value (made without an array literal, for the reason above). */
export function pairOf(key: JsonNode, value: JsonNode): JsonNode[] {
  const out = new Array<JsonNode>(2);
  out[0] = key;
  out[1] = value;
  return out;
}

/** A string, number, boolean or null. */
export class ScalarNode implements JsonNode {
  constructor(
    public type: NodeType,
    public value: unknown,
    public offset: number,
    public length: number,
    public parent: JsonNode | undefined,
  ) {}
}

/** An object or array; `children` are filled in when it ends. */
export class CollectionNode implements JsonNode {
  constructor(
    public type: 'object' | 'array',
    public offset: number,
    public length: number,
    public children: JsonNode[],
    public parent: JsonNode | undefined,
  ) {}
}

/** A `key: value` of an object: `children` are the key's string node and the value. */
export class PropertyNode implements JsonNode {
  readonly type = 'property';
  constructor(
    public offset: number,
    public length: number,
    public children: JsonNode[],
    public parent: JsonNode | undefined,
    public colonOffset: number,
  ) {}
}
