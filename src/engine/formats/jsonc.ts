/**
 * jsonc-parser helpers shared by the loaders and the schema mapping: parsing
 * with diagnostics, JSON pointers and exact source locations of tree nodes.
 */
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Diagnostic, JsonValue, SourceLoc } from '../model/index.js';
import { fastParseTree } from './fast-tree.js';
import { Loc } from './ir-objects.js';
import { depthError } from './tree-depth.js';

export type { Node as JsonNode } from 'jsonc-parser';

export interface ParsedJsonc {
  readonly root?: Node;
  readonly diagnostics: Diagnostic[];
}

const SYNTAX_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'Unexpected character.',
  InvalidNumberFormat: 'Invalid number.',
  PropertyNameExpected: 'A property name in double quotes is expected here.',
  ValueExpected: 'A value is expected here.',
  ColonExpected: 'A colon (:) is expected after the property name.',
  CommaExpected: 'A comma is expected here.',
  CloseBraceExpected: 'A closing brace (}) is expected here.',
  CloseBracketExpected: 'A closing bracket (]) is expected here.',
  EndOfFileExpected: 'Unexpected content after the end of the JSON value.',
  InvalidCommentToken: 'Invalid comment.',
  UnexpectedEndOfComment: 'Unterminated comment: close it with */.',
  UnexpectedEndOfString: 'Unterminated string: close it with a double quote.',
  UnexpectedEndOfNumber: 'Unexpected end of number.',
  InvalidUnicode: 'Invalid unicode escape sequence.',
  InvalidEscapeCharacter: 'Invalid escape character in string.',
  InvalidCharacter: 'Invalid character in string (control characters must be escaped).',
};

/**
 * jsonc-parser's `parseTree` with every node kept inside the text. An
 * unterminated block comment ends one character past the end of the text
 * (`/*` at 0 is the token 0..3), and the nodes the parser closes at the end of
 * the text take that end; without the clamp, a diagnostic on such a node
 * points past the end (found by test/unit/fuzz-loader.test.ts, seed 899881064).
 */
export function parseJsoncTree(text: string, errors: ParseError[] = []): Node | undefined {
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (root && root.offset + root.length > text.length) clampNode(root, text.length);
  return root;
}

/** Shortens every node that runs past `end`; only the ones ending at the end of the text can. */
function clampNode(node: Node, end: number): void {
  // jsonc-parser's `Node` is read-only in its types; the tree is fresh and ours.
  const span = node as { offset: number; length: number };
  if (span.offset > end) span.offset = end;
  if (span.offset + span.length > end) span.length = end - span.offset;
  const children = node.children;
  if (children) for (const child of children) clampNode(child, end);
}

const PARSER_PREFIX = 'JSON syntax error: ';
const TOO_DEEP = `${PARSER_PREFIX}the JSON is nested too deeply to read.`;

/**
 * Whether `d` is a syntax error of the JSON text itself (a missing comma, an
 * unclosed string: what jsonc-parser finds, and what an editor's own JSON
 * service reports too), not one of stategate's own findings about the text
 * (nested too deeply, empty). The language server leaves these to an editor
 * that reports them (src/lsp/diagnostics.ts), so one mistake is one diagnostic.
 */
export function isJsonParserError(d: Pick<Diagnostic, 'code' | 'message'>): boolean {
  return d.code === 'json-syntax' && d.message.startsWith(PARSER_PREFIX) && d.message !== TOO_DEEP;
}

/** Parses JSON with comments and trailing commas; syntax errors become `json-syntax` diagnostics. */
export function parseJsonc(text: string): ParsedJsonc {
  // Well-formed text (the common case) takes the fast path, which builds the same tree.
  const fast = fastParseTree(text);
  if (fast) return withinDepth(fast, []);
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseJsoncTree(text, errors);
  } catch (err) {
    // jsonc-parser recurses per nesting level: thousands of levels exhaust the stack (found by a statechart test).
    if (!(err instanceof RangeError)) throw err;
    return { diagnostics: [{ severity: 'error', code: 'json-syntax', message: TOO_DEEP, loc: { pointer: '', start: 0, end: 0 } }] };
  }
  const diagnostics: Diagnostic[] = errors.map((e) => {
    const name = printParseErrorCode(e.error);
    return {
      severity: 'error',
      code: 'json-syntax',
      message: `${PARSER_PREFIX}${SYNTAX_MESSAGES[name] ?? name}`,
      // jsonc-parser reports an unterminated block comment one character past the
      // end of the text (`/*` -> 0..3): keep every range inside the text (found by
      // test/unit/fuzz-loader.test.ts).
      loc: { pointer: '', start: Math.min(e.offset, text.length), end: Math.min(e.offset + e.length, text.length) },
    };
  });
  if (!root && diagnostics.length === 0) {
    diagnostics.push({
      severity: 'error',
      code: 'json-syntax',
      message: 'The file is empty: a workflow is a JSON object with `id`, `initial` and `states`.',
      loc: { pointer: '', start: 0, end: 0 },
    });
  }
  return root ? withinDepth(root, diagnostics) : { diagnostics };
}

/** The tree and its diagnostics, or no tree and an error where it nests past MAX_TREE_DEPTH (tree-depth.ts says why). */
function withinDepth(root: Node, diagnostics: Diagnostic[]): ParsedJsonc {
  const deep = depthError(root, 'JSON');
  if (!deep) return { root, diagnostics };
  diagnostics.push(deep);
  return { diagnostics };
}

/** RFC 6901: `~` -> `~0`, `/` -> `~1`. (Called for every node the loader reads: most segments need no escaping.) */
export function childPointer(parent: string, segment: string | number): string {
  const s = typeof segment === 'number' ? String(segment) : segment;
  if (!s.includes('~') && !s.includes('/')) return `${parent}/${s}`;
  return `${parent}/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The node's range; a string literal's range excludes its quotes. */
export function nodeLoc(node: Node, pointer: string): SourceLoc {
  if (node.type === 'string' && node.length >= 2) {
    return new Loc(pointer, node.offset + 1, node.offset + node.length - 1);
  }
  return new Loc(pointer, node.offset, node.offset + node.length);
}

/**
 * Where to report something about a whole object (e.g. a missing field): the
 * key that owns it, or its opening brace at the top level, rather than a range
 * spanning the entire object.
 */
export function ownerLoc(node: Node, pointer: string): SourceLoc {
  const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
  if (key) return nodeLoc(key, pointer);
  return new Loc(pointer, node.offset, node.offset + Math.min(1, node.length));
}

/** Follows a JSON pointer through the tree (the last duplicate key wins, as in JSON.parse). */
export function nodeAtPointer(root: Node, pointer: string): Node | undefined {
  let node: Node | undefined = root;
  for (const segment of pointerSegments(pointer)) {
    if (!node) return undefined;
    if (node.type === 'object') {
      const prop: Node | undefined = [...(node.children ?? [])]
        .reverse()
        .find((p) => p.children?.[0]?.value === segment);
      node = prop?.children?.[1];
    } else if (node.type === 'array') {
      node = /^\d+$/.test(segment) ? node.children?.[Number(segment)] : undefined;
    } else {
      return undefined;
    }
  }
  return node;
}

/**
 * The node's value as plain JSON: ordinary objects (so equality checks and
 * spreading behave as usual) in which keys such as `__proto__` stay own data
 * properties, as JSON.parse makes them. Built in one pass over the tree; the
 * result is what `JSON.parse(JSON.stringify(getNodeValue(node)))` gives (the
 * last of repeated keys wins, in the first one's place; a non-finite number
 * is null and -0 is 0 inside an object or array; a property or item without a
 * usable value is dropped or null), without building the value three times.
 */
export function nodeValue(node: Node): JsonValue {
  if (node.type === 'object' || node.type === 'array') return plainValue(node) as JsonValue;
  return getNodeValue(node) as JsonValue;
}

/** One node as JSON.stringify then JSON.parse would give it back; undefined where stringify drops it. */
function plainValue(node: Node): JsonValue | undefined {
  switch (node.type) {
    case 'object': {
      const out: Record<string, JsonValue> = {};
      for (const prop of node.children ?? []) {
        const valueNode = prop.children?.[1];
        if (!valueNode) continue;
        const key = String(prop.children?.[0]?.value);
        const value = plainValue(valueNode);
        if (value === undefined) delete out[key];
        else if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        else out[key] = value;
      }
      return out;
    }
    case 'array': {
      const children = node.children ?? [];
      const out: JsonValue[] = new Array(children.length);
      for (let i = 0; i < children.length; i++) out[i] = plainValue(children[i] as Node) ?? null;
      return out;
    }
    case 'number': {
      const n = node.value as number;
      return Number.isFinite(n) ? (n === 0 ? 0 : n) : null;
    }
    case 'null':
    case 'string':
    case 'boolean':
      return node.value as JsonValue;
    default:
      return undefined;
  }
}

/** "a string", "an array", ... for messages. */
export function describeNode(node: Node): string {
  switch (node.type) {
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return 'null';
  }
}
