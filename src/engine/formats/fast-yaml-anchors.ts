/**
 * Anchors and aliases for fast-yaml.ts, as yaml-package.ts's Converter reads them:
 * an alias stands for the last node anchored with its name before it in the
 * text (yaml-anchors.ts, `Alias.resolve`), and becomes a copy of that node's
 * subtree (the same offsets and lengths, new parents). The fast path builds the
 * anchored node once and copies the finished subtree at each alias, which is
 * the same tree the Converter makes by converting the anchored node again (an
 * alias inside that subtree was already expanded when it was built).
 *
 * What the Converter reports instead of expanding (an alias that names no
 * anchor, one inside the node it refers to, expansions past ALIAS_BUDGET
 * nodes) is for the caller to leave to the `yaml` package: here `target` and
 * `expand` answer undefined.
 */
import type { JsonNode } from './jsonc.js';
import { ALIAS_BUDGET } from './yaml-alias-budget.js';

type Building = { -readonly [K in keyof JsonNode]: JsonNode[K] };

/** An anchor's node; undefined while the anchored collection is still being read (an alias to it then is inside it). */
export interface Anchored {
  node: JsonNode | undefined;
}

const anchors = new Map<string, Anchored>();
/** Value nodes made by expanding aliases so far, counted as the Converter counts them against ALIAS_BUDGET. */
let expanded = 0;

/** Forget the last document's anchors. */
export function resetAnchors(): void {
  anchors.clear();
  expanded = 0;
}

/**
 * Where the anchor or alias name starting at `at` ends, or -1 when the fast
 * path does not take it: a name of letters, digits, `_` and `-` only (the
 * `yaml` package takes more, and what a name next to other characters is
 * depends on context), followed by a space, a line break or the end.
 */
export function nameEnd(src: string, at: number): number {
  let i = at;
  for (; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45)) break;
  }
  if (i === at) return -1;
  if (i < src.length && src.charCodeAt(i) !== 32 && src.charCodeAt(i) !== 10) return -1;
  return i;
}

/** An anchor whose node is being read; its `node` is set when it is read (`defineAnchor`). */
export function openAnchor(name: string): Anchored {
  const anchored: Anchored = { node: undefined };
  anchors.set(name, anchored);
  return anchored;
}

/** The node an alias of `name` refers to, or undefined when none can be expanded (no such anchor before it, or one still open around it). */
export function aliasTarget(name: string): JsonNode | undefined {
  return anchors.get(name)?.node;
}

/** A copy of `target`'s subtree under `parent`, or undefined once aliases have expanded to more than ALIAS_BUDGET nodes. */
export function expand(target: JsonNode, parent: JsonNode): JsonNode | undefined {
  const copy = copyValue(target, parent);
  return expanded > ALIAS_BUDGET ? undefined : copy;
}

/** A value node and its subtree; each counts once, as the Converter's `convert` does (properties and keys do not). */
function copyValue(node: JsonNode, parent: JsonNode): JsonNode {
  expanded++;
  if (expanded > ALIAS_BUDGET) return node; // the caller declines the document: what is returned no longer matters
  const { type } = node;
  if (type === 'object' || type === 'array') {
    const out: Building = { type, offset: node.offset, length: node.length, children: undefined, parent };
    const from = node.children!;
    const children = new Array<JsonNode>(from.length);
    for (let i = 0; i < from.length; i++) children[i] = type === 'object' ? copyProperty(from[i]!, out) : copyValue(from[i]!, out);
    out.children = children;
    return out;
  }
  return { type, value: node.value, offset: node.offset, length: node.length, parent } as Building;
}

function copyProperty(prop: JsonNode, parent: JsonNode): JsonNode {
  const out = { type: 'property', offset: prop.offset, length: prop.length, children: undefined, parent, colonOffset: prop.colonOffset } as Building;
  const [key, value] = prop.children!;
  out.children = [{ type: 'string', value: key!.value, offset: key!.offset, length: key!.length, parent: out } as Building, copyValue(value!, out)];
  return out;
}
