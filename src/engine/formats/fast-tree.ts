/**
 * A fast path for jsonc-parser's `parseTree` on well-formed input: one
 * hand-written recursive descent over char codes that builds the same tree
 * (same node kinds, offsets, lengths, values, `colonOffset`s and parents; the
 * root's `parent` is undefined; the nodes are tree-node.ts's classes), for
 * JSON with comments and trailing commas. On
 * anything it is not sure of (any syntax error, unusual whitespace, an odd
 * escape, a control character in a string) it gives up and returns undefined,
 * and the caller parses with jsonc-parser, which reports the errors and
 * recovers exactly as before. The editor re-parses a large workflow on every
 * debounced keystroke, and jsonc-parser's scanner/visitor is several times
 * slower than this on the same text.
 */
import type { Node } from 'jsonc-parser';
import { SHORT, shortString } from './short-strings.js';
import { CollectionNode, pairOf, PropertyNode, ScalarNode } from './tree-node.js';

/** The nodes are filled in as the parse goes (lengths and colon offsets once known). */
type Building = { -readonly [K in keyof Node]: Node[K] };

/** A placeholder until the real children are known (never left in a finished tree). */
const NONE: Node[] = [];

/** Thrown (and caught below) to leave the fast path. */
const BAIL = { bail: true };

let src = '';
let pos = 0;
let len = 0;

/** The tree jsonc-parser's `parseTree` would build, or undefined when `text` is not plainly well formed. */
export function fastParseTree(text: string): Node | undefined {
  src = text;
  pos = 0;
  len = text.length;
  try {
    skipTrivia();
    if (pos >= len) return undefined; // empty content: let jsonc-parser decide
    const root = parseValue(undefined);
    skipTrivia();
    if (pos < len) return undefined;
    return root;
  } catch (e) {
    if (e === BAIL || e instanceof RangeError) return undefined; // RangeError: nesting too deep for the stack
    throw e;
  } finally {
    src = '';
    stack.length = 0;
  }
}

function skipTrivia(): void {
  while (pos < len) {
    const c = src.charCodeAt(pos);
    if (c === 32 || c === 10 || c === 13 || c === 9) {
      pos++;
    } else if (c === 47) {
      const next = src.charCodeAt(pos + 1);
      if (next === 47) {
        pos += 2;
        while (pos < len) {
          const d = src.charCodeAt(pos);
          if (d === 10 || d === 13) break;
          pos++;
        }
      } else if (next === 42) {
        const end = src.indexOf('*/', pos + 2);
        if (end < 0) throw BAIL;
        pos = end + 2;
      } else {
        throw BAIL;
      }
    } else {
      return;
    }
  }
}

function parseValue(parent: Node | undefined): Node {
  const c = src.charCodeAt(pos);
  if (c === 123) return parseObject(parent);
  if (c === 91) return parseArray(parent);
  if (c === 34) {
    const start = pos;
    const value = scanString();
    return literal(parent, 'string', value, start);
  }
  if (c === 116) return keyword(parent, 'true', true, 'boolean');
  if (c === 102) return keyword(parent, 'false', false, 'boolean');
  if (c === 110) return keyword(parent, 'null', null, 'null');
  if (c === 45 || (c >= 48 && c <= 57)) {
    const start = pos;
    scanNumber();
    return literal(parent, 'number', Number(src.slice(start, pos)), start);
  }
  throw BAIL;
}

function literal(parent: Node | undefined, type: Node['type'], value: unknown, start: number): Node {
  return new ScalarNode(type, value, start, pos - start, parent);
}

function keyword(parent: Node | undefined, word: string, value: unknown, type: Node['type']): Node {
  if (!src.startsWith(word, pos)) throw BAIL;
  const start = pos;
  pos += word.length;
  if (pos < len && !isSeparator(src.charCodeAt(pos))) throw BAIL;
  return literal(parent, type, value, start);
}

/** What may follow a number or keyword for jsonc-parser to read it as one token. */
function isSeparator(c: number): boolean {
  return c === 44 || c === 125 || c === 93 || c === 32 || c === 10 || c === 13 || c === 9 || c === 47;
}

function scanNumber(): void {
  if (src.charCodeAt(pos) === 45) pos++;
  let c = src.charCodeAt(pos);
  if (c === 48) {
    pos++;
  } else if (c >= 49 && c <= 57) {
    pos++;
    while (pos < len && isDigit(src.charCodeAt(pos))) pos++;
  } else {
    throw BAIL;
  }
  c = src.charCodeAt(pos);
  if (c === 46) {
    pos++;
    if (!isDigit(src.charCodeAt(pos))) throw BAIL;
    while (pos < len && isDigit(src.charCodeAt(pos))) pos++;
    c = src.charCodeAt(pos);
  }
  if (c === 101 || c === 69) {
    pos++;
    c = src.charCodeAt(pos);
    if (c === 43 || c === 45) pos++;
    if (!isDigit(src.charCodeAt(pos))) throw BAIL;
    while (pos < len && isDigit(src.charCodeAt(pos))) pos++;
  }
  if (pos < len && !isSeparator(src.charCodeAt(pos))) throw BAIL;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A string literal at `pos` (its opening quote); leaves `pos` after the closing quote. */
function scanString(): string {
  pos++;
  let start = pos;
  let result = '';
  for (;;) {
    if (pos >= len) throw BAIL;
    const c = src.charCodeAt(pos);
    if (c === 34) {
      if (result === '') {
        result = pos - start <= SHORT ? shortString(src, start, pos) : src.slice(start, pos);
      } else {
        result += src.slice(start, pos);
      }
      pos++;
      return result;
    }
    if (c < 0x20) throw BAIL;
    if (c === 92) {
      result += src.slice(start, pos);
      const e = src.charCodeAt(pos + 1);
      pos += 2;
      switch (e) {
        case 34:
          result += '"';
          break;
        case 92:
          result += '\\';
          break;
        case 47:
          result += '/';
          break;
        case 98:
          result += '\b';
          break;
        case 102:
          result += '\f';
          break;
        case 110:
          result += '\n';
          break;
        case 114:
          result += '\r';
          break;
        case 116:
          result += '\t';
          break;
        case 117: {
          let code = 0;
          for (let i = 0; i < 4; i++) {
            const h = src.charCodeAt(pos + i);
            const d = h >= 48 && h <= 57 ? h - 48 : h >= 97 && h <= 102 ? h - 87 : h >= 65 && h <= 70 ? h - 55 : -1;
            if (d < 0) throw BAIL;
            code = code * 16 + d;
          }
          pos += 4;
          result += String.fromCharCode(code);
          break;
        }
        default:
          throw BAIL;
      }
      start = pos;
      continue;
    }
    pos++;
  }
}

/**
 * Children are gathered on one shared stack and copied out at the end of their
 * object or array, so each `children` array is exactly as long as it needs to
 * be (an array grown by push from empty reserves 17 slots; the tree of a large
 * workflow has tens of thousands of them, and all of it stays alive while the
 * loader reads it, which is what the garbage collector pays for).
 */
const stack: Node[] = [];
function parseObject(parent: Node | undefined): Node {
  const obj = open('object', parent);
  const base = stack.length;
  for (let first = true; another(125, first); first = false) {
    if (src.charCodeAt(pos) !== 34) throw BAIL;
    const keyStart = pos;
    // colonOffset is a constructor field (set once the colon is read), so the node never grows a property store.
    const prop = new PropertyNode(keyStart, -1, NONE, obj, -1);
    const name = scanString();
    const key = new ScalarNode('string', name, keyStart, pos - keyStart, prop);
    skipTrivia();
    if (src.charCodeAt(pos) !== 58) throw BAIL;
    prop.colonOffset = pos;
    pos++;
    skipTrivia();
    if (pos >= len) throw BAIL;
    const value = parseValue(prop);
    prop.children = pairOf(key, value);
    prop.length = pos - keyStart;
    stack.push(prop);
    skipTrivia();
  }
  return close(obj, base);
}

function parseArray(parent: Node | undefined): Node {
  const arr = open('array', parent);
  const base = stack.length;
  for (let first = true; another(93, first); first = false) {
    stack.push(parseValue(arr));
    skipTrivia();
  }
  return close(arr, base);
}

/** An object or array node at its opening bracket; `pos` moves past the bracket and any trivia after it. */
function open(type: 'object' | 'array', parent: Node | undefined): Building {
  const node = new CollectionNode(type, pos, -1, NONE, parent);
  pos++;
  skipTrivia();
  return node;
}

/** Finishes `node` at its closing bracket, with the children pushed since `base`. */
function close(node: Building, base: number): Node {
  pos++;
  node.length = pos - node.offset;
  node.children = takeFrom(base);
  return node;
}

/**
 * At the start of an object's or array's next member (past the comma after
 * the previous one): true if there is one, false at the closing `close`
 * (a trailing comma before it is allowed).
 */
function another(close: number, first: boolean): boolean {
  if (pos >= len) throw BAIL;
  let c = src.charCodeAt(pos);
  if (c === close) return false;
  if (first) return true;
  if (c !== 44) throw BAIL;
  pos++;
  skipTrivia();
  if (pos >= len) throw BAIL;
  c = src.charCodeAt(pos);
  return c !== close;
}

/** The nodes pushed since `base`, removed from the stack. */
function takeFrom(base: number): Node[] {
  const out = stack.slice(base);
  stack.length = base;
  return out;
}
