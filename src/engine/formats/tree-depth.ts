/**
 * The limit on how deep a workflow file's values may nest
 * (model/json-value.ts, MAX_JSON_DEPTH, says why and how deep), checked once
 * on the parse tree before anything else walks it. The parsers survive deep
 * nesting (they catch the stack overflow and report it), but everything after
 * them walks the tree by recursion: the loaders, the schema check (ajv), the
 * rules, the language services. On a main thread (the CLI, the hook, the
 * extension host) a Statewright document 1,877 levels deep overflowed the
 * stack in the stage loader and the check threw (found by fuzzing on a
 * main thread's stack size, 2026-12-05).
 */
import type { Node as JsonNode } from 'jsonc-parser';
import type { Diagnostic } from '../model/index.js';
import { MAX_JSON_DEPTH } from '../model/json-value.js';

/** The most levels of objects and arrays, one inside the other, that a document may have. */
export const MAX_TREE_DEPTH = MAX_JSON_DEPTH;

/**
 * The first object or array (in document order) nested more than
 * MAX_TREE_DEPTH levels deep, or undefined. Iterative, so a tree of any depth
 * is measured without recursion. A property node is not a level: `{"a": {}}`
 * is two.
 */
export function tooDeep(root: JsonNode): JsonNode | undefined {
  const pending: JsonNode[] = [root];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const depth = depths.pop()!;
    const children = node.children;
    if (!children) continue;
    if (node.type !== 'property' && depth > MAX_TREE_DEPTH) return node;
    // A property passes its own depth on to its value; a container adds one. Pushed last child first, so
    // the first child is taken next (document order).
    const childDepth = node.type === 'property' ? depth : depth + 1;
    for (let i = children.length - 1; i >= 0; i--) {
      pending.push(children[i]!);
      depths.push(childDepth);
    }
  }
  return undefined;
}

/**
 * The error for a tree nested past MAX_TREE_DEPTH, on the opening bracket (or
 * first character) of the first container too deep; undefined when it is not.
 */
export function depthError(root: JsonNode, syntax: 'JSON' | 'YAML'): Diagnostic | undefined {
  const deep = tooDeep(root);
  if (!deep) return undefined;
  return {
    severity: 'error',
    code: syntax === 'JSON' ? 'json-syntax' : 'yaml-syntax',
    message: `The ${syntax} nests objects and arrays more than ${MAX_TREE_DEPTH} levels deep, from here on; stategate reads at most ${MAX_TREE_DEPTH}.`,
    loc: { pointer: '', start: deep.offset, end: deep.offset + Math.min(1, deep.length) },
  };
}
