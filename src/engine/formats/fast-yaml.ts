/**
 * A fast path for yaml-tree.ts's `parseYamlTree` on plain block YAML: one
 * pass over char codes that builds the same tree (node kinds, offsets,
 * lengths, values, colon offsets, parents) for the subset that charts are
 * written in and that the `yaml` package's `stringify` writes: block
 * mappings and sequences (compact `- key: value` too), plain (`?x` and `:x`
 * too), single- and double-quoted one-line scalars (a double-quoted one with
 * the escapes of double-quoted-escapes.ts), literal block scalars (`|`, `|-`, `|+`),
 * empty flow collections (`[]`, `{}`), comments, and anchors on values with
 * their aliases (fast-yaml-anchors.ts). On anything else
 * (anchors on keys or empty values, an alias the package reports, tags, folded block scalars,
 * non-empty flow collections, multi-line scalars, other escapes, tabs, CR, document
 * markers, a plain scalar that may be a number in octal, hex, `.inf` or `.nan`,
 * any syntax error) it returns undefined and the caller parses with `yaml`,
 * which reports and recovers exactly as before.
 *
 * Why: the `yaml` package builds a CST, then a document, then we convert it;
 * on a 200 KB chart that is 100+ ms (its lexer alone is over 10 ms), against
 * the 20 ms the editor has for a whole validation (issue 13).
 *
 * Ranges follow the `yaml` package (yaml-tree.ts explains the string node
 * convention): a block collection runs from its first key or `-` to the end
 * of its last value, where a non-empty scalar or flow collection ends after
 * its line (trailing comment and line break included), an empty value (null)
 * ends where it is, and a nested block collection ends where it ends.
 */
import type { JsonNode } from './jsonc.js';
import { aliasTarget, expand, nameEnd, openAnchor, resetAnchors } from './fast-yaml-anchors.js';
import { readEscape } from './double-quoted-escapes.js';
import { SHORT, shortString } from './short-strings.js';
import { CollectionNode, pairOf, PropertyNode, ScalarNode } from './tree-node.js';

type Building = { -readonly [K in keyof JsonNode]: JsonNode[K] };

/** Thrown (and caught below) to leave the fast path. */
const BAIL = { bail: true };

/** Characters the fast path does not take anywhere: tabs, CR, other controls, BOM, line separators, non-characters. */
const UNSUPPORTED_CHARS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;
/** A line whose first non-space character starts a comment. */
const COMMENT_LINE = /^ *#/m;
/** Longest implicit key the `yaml` package accepts. */
const MAX_KEY = 1024;

let src = '';
let pos = 0;
let len = 0;
/** Offset of the first character of the line `pos` is on. */
let lineStart = 0;

/** The tree parseYamlTree would build, or undefined when `text` is not plainly in the subset. */
export function fastYamlTree(text: string): JsonNode | undefined {
  if (UNSUPPORTED_CHARS.test(text)) return undefined;
  src = text;
  pos = 0;
  len = text.length;
  lineStart = 0;
  try {
    const indent = nextContentLine();
    if (pos >= len || indent !== 0) return undefined;
    const root = block(0, undefined);
    if (nextContentLine() >= 0) return undefined; // anything after the root
    return root;
  } catch (e) {
    if (e === BAIL || e instanceof RangeError) return undefined; // RangeError: nesting too deep for the stack
    throw e;
  } finally {
    src = '';
    stack.length = 0;
    resetAnchors();
  }
}

/**
 * From the start of a line: skips blank and comment lines; leaves `pos` at
 * the first character of the next content line and returns its indent, or -1
 * at the end of the text. A document marker (`---`, `...`) or directive bails.
 */
function nextContentLine(): number {
  // A comment line indented more than the next content (or than 0 at the end) may belong to the value
  // before it (the `yaml` package sometimes counts it in that value's range): left to the package.
  let deepestComment = -1;
  while (pos < len) {
    lineStart = pos;
    while (pos < len && src.charCodeAt(pos) === 32) pos++;
    if (pos >= len) break; // spaces ending the text: the end, as below (`# x\n  ` found by the random documents)
    const c = src.charCodeAt(pos);
    if (c === 10) {
      pos++;
      continue;
    }
    if (c === 35) {
      deepestComment = Math.max(deepestComment, pos - lineStart);
      skipLine();
      continue;
    }
    const indent = pos - lineStart;
    if (deepestComment > indent) throw BAIL;
    if (indent === 0 && (c === 37 || src.startsWith('---', pos) || src.startsWith('...', pos))) throw BAIL;
    return indent;
  }
  if (deepestComment > 0) throw BAIL;
  return -1;
}

/** Past the end of the current line (its line break included). */
function skipLine(): void {
  const nl = src.indexOf('\n', pos);
  pos = nl < 0 ? len : nl + 1;
}

/**
 * Where the value just read ends for its parent's range (see the top of the
 * file). Each reading function returns its node and sets this (rather than
 * returning a `{node, end}` pair: one object less per value, and a large
 * chart has tens of thousands of values).
 */
let valueEnd = 0;

/** A block collection starting at `pos` (column `col`): a sequence at `-`, else a mapping. */
function block(col: number, parent: JsonNode | undefined): Building {
  return isSeqItem(pos) ? sequence(col, parent) : mapping(col, parent);
}

function isSeqItem(at: number): boolean {
  if (src.charCodeAt(at) !== 45) return false;
  const next = at + 1 < len ? src.charCodeAt(at + 1) : 10;
  return next === 32 || next === 10;
}

/**
 * Children are gathered on one shared stack and copied out when their
 * collection ends, so each `children` array is exactly as long as it needs to
 * be (as in fast-tree.ts: an array grown by push from empty reserves 17 slots,
 * and the whole tree stays alive while the loader reads it, which is what the
 * garbage collector pays for). `NONE` holds the place until then.
 */
const stack: JsonNode[] = [];
const NONE: JsonNode[] = [];

function container(type: 'object' | 'array', parent: JsonNode | undefined): Building {
  return new CollectionNode(type, pos, 0, NONE, parent);
}

/** The nodes pushed since `base`, removed from the stack. */
function takeFrom(base: number): JsonNode[] {
  const out = stack.slice(base);
  stack.length = base;
  return out;
}

function sequence(col: number, parent: JsonNode | undefined): Building {
  const seq = container('array', parent);
  const base = stack.length;
  let end = pos;
  for (;;) {
    pos++; // the '-'
    const item = inlineOrBelow(col, seq, false);
    stack.push(item);
    end = valueEnd;
    const indent = nextContentLine();
    // Done at a line less indented, or at a key at the same indent (a mapping's value may be a sequence at the key's indent).
    if (indent < col || (indent === col && !isSeqItem(pos))) {
      if (indent >= 0) pos = lineStart; // the enclosing collection reads this line again
      break;
    }
    if (indent > col) throw BAIL;
  }
  seq.length = end - seq.offset;
  seq.children = takeFrom(base);
  valueEnd = end;
  return seq;
}

function mapping(col: number, parent: JsonNode | undefined): Building {
  const map = container('object', parent);
  const base = stack.length;
  let end = pos;
  for (;;) {
    const prop = new PropertyNode(pos, 0, NONE, map, 0);
    const key = scalar(prop, true);
    if (key.type !== 'string' || src.charCodeAt(pos) !== 58) throw BAIL; // a key is followed by its ':'
    prop.colonOffset = key.offset + key.length;
    pos++;
    const value = inlineOrBelow(col, prop, true);
    prop.children = pairOf(key, value);
    prop.length = Math.max(value.offset + value.length, prop.colonOffset) - prop.offset;
    stack.push(prop);
    end = valueEnd;
    const indent = nextContentLine();
    if (indent < col) {
      if (indent >= 0) pos = lineStart; // the enclosing collection reads this line again
      break;
    }
    if (indent > col || isSeqItem(pos)) throw BAIL;
  }
  map.length = end - map.offset;
  map.children = takeFrom(base);
  valueEnd = end;
  return map;
}

/**
 * The value after a `-` or a key's `:` (at `pos`): on the same line, or a
 * block collection on the lines below (indented more than `col`, or a
 * sequence at `col` for a mapping's value), or else empty (null).
 */
function inlineOrBelow(col: number, parent: JsonNode, inMapping: boolean): Building {
  const c = pos < len ? src.charCodeAt(pos) : 10;
  if (c !== 32 && c !== 10) throw BAIL;
  while (pos < len && src.charCodeAt(pos) === 32) pos++;
  const a = pos < len ? src.charCodeAt(pos) : 10;
  if (a === 42) return alias(parent);
  if (a === 38) return anchored(col, parent, inMapping);
  return valueAt(col, parent, inMapping);
}

/** The value at `pos` (past the spaces after its `-` or `:`), as inlineOrBelow describes. */
function valueAt(col: number, parent: JsonNode, inMapping: boolean): Building {
  const here = pos;
  const d = pos < len ? src.charCodeAt(pos) : 10;
  if (d !== 10 && d !== 35) {
    if (!inMapping && isSeqItem(pos)) return sequence(pos - lineStart, parent); // `- - x`
    if (!inMapping && keyAhead()) return mapping(pos - lineStart, parent); // `- key: value`: a mapping at the key's column
    if (d === 124) return literalBlock(col, parent);
    const value = scalarOrFlow(parent);
    valueEnd = endOfLine();
    return value;
  }
  // Nothing more on this line: a block below, or null here (whose range takes in a comment after it).
  skipLine();
  const nullEnd = d === 35 ? pos : here;
  const save = pos;
  const saveLine = lineStart;
  const indent = nextContentLine();
  if (indent > col || (inMapping && indent === col && isSeqItem(pos))) return block(indent, parent);
  // Comment lines after an empty value: the `yaml` package's ranges of the collections around it
  // sometimes take them in (found by fast-yaml.test.ts's random documents): left to the package.
  if (COMMENT_LINE.test(src.slice(save, indent < 0 ? len : lineStart))) throw BAIL;
  // A comment on the empty value's own line, then only blank lines to the end of the text: the package's
  // collections take in some of them (`a: #\n ` and `a: #\n\n` are 6 long there); left to it (found the same way).
  if (d === 35 && indent < 0 && save < len) throw BAIL;
  // Such a value closing its collection, the next line indented less but not at 0: the package's collection
  // takes in that line's indentation (`x:\n  y:\n    a: # c\n  b: 1`); left to it (found the same way).
  if (d === 35 && indent > 0 && indent < col) throw BAIL;
  // ... or closing its collection after blank lines: the package's collection takes in the blank lines
  // (`a:\n  b: # c\n\nd: 1`, `a:\n- # c\n\nb: 1`; found by `npm run test:hunt`).
  if (d === 35 && indent >= 0 && lineStart > save && (indent < col || (!inMapping && !isSeqItem(pos)))) throw BAIL;
  pos = save;
  lineStart = saveLine;
  valueEnd = nullEnd;
  return new ScalarNode('null', null, here, 0, parent);
}

/**
 * `*name` at `pos`: a copy of the anchored node (fast-yaml-anchors.ts), whose
 * range in its parent's ends after the alias's line, as a scalar's does.
 * An alias as a key, followed by more on its line, naming no anchor before it
 * or one around it, or past the expansion budget: left to the `yaml` package,
 * which reports it. (An alias as a key never gets here: `scalar` declines a key at `*`.)
 */
function alias(parent: JsonNode): Building {
  const end = nameEnd(src, pos + 1);
  if (end < 0) throw BAIL;
  // `<<: *x` is a plain key under the YAML 1.2 core schema, but a merge under YAML 1.1 and the package's
  // `merge` option: left to the package, whichever way it reads it.
  if (parent.type === 'property' && src.startsWith('<<:', parent.offset)) throw BAIL;
  const target = aliasTarget(src.slice(pos + 1, end));
  if (target === undefined) throw BAIL;
  const copy = expand(target, parent);
  if (copy === undefined) throw BAIL;
  pos = end;
  valueEnd = endOfLine();
  return copy as Building;
}

/**
 * `&name` at `pos`, then the value it anchors: on the same line (a scalar, an
 * empty flow collection, a literal block) or a block collection below, whose
 * ranges are the same as without the anchor (the `yaml` package starts an
 * anchored collection below at its first key or `-`, and a scalar at its first
 * character, not at the `&`). An anchor on a key (`- &a key: v`), on an empty
 * value, or followed by a comment: left to the package.
 */
function anchored(col: number, parent: JsonNode, inMapping: boolean): Building {
  const end = nameEnd(src, pos + 1);
  if (end < 0) throw BAIL;
  const anchor = openAnchor(src.slice(pos + 1, end));
  pos = end;
  while (pos < len && src.charCodeAt(pos) === 32) pos++;
  const d = pos < len ? src.charCodeAt(pos) : 10;
  if (d === 35 || (d !== 10 && (isSeqItem(pos) || keyAhead()))) throw BAIL;
  const value = valueAt(col, parent, inMapping);
  if (d === 10 && value.type !== 'object' && value.type !== 'array') throw BAIL;
  anchor.node = value;
  return value;
}

/** After a value on its line: spaces, an optional comment, the line break. Returns where the value's range ends. */
function endOfLine(): number {
  const start = pos;
  while (pos < len && src.charCodeAt(pos) === 32) pos++;
  if (pos >= len) return pos;
  const c = src.charCodeAt(pos);
  if (c === 35 && pos > start) {
    skipLine();
    return pos;
  }
  if (c !== 10) throw BAIL;
  pos++;
  return pos;
}

/**
 * A literal block scalar (`|`, `|-`, `|+`) at `pos`, whose lines are indented
 * more than `col`; leaves `pos` at the start of the line after it. Its value
 * and range are the `yaml` package's (compose/resolve-block-scalar.js);
 * the cases where those take more rules than this (an indentation
 * indicator, a comment after the header, whitespace-only lines longer than
 * the indentation, no content but with clip or strip chomping) are left to it.
 * Why here at all: the package splits a block scalar's lines with a regular
 * expression that takes over 100 ms on a scalar of 100,000 empty lines.
 */
function literalBlock(col: number, parent: JsonNode): Building {
  const start = pos;
  pos++;
  const chomp = src.charCodeAt(pos);
  if (chomp === 45 || chomp === 43) pos++;
  if (pos < len && src.charCodeAt(pos) !== 10) throw BAIL;
  const body = pos + 1;
  if (body > len) throw BAIL;
  pos = body;
  // The lines: blank ones (spaces only) until the first with content, whose indent is the scalar's.
  let indent = -1;
  let value = '';
  /** Blank lines before the first content line, and the longest of them. */
  let leading = 0;
  let leadingSpaces = 0;
  /** Blank lines since the last content line. */
  let pendingBlank = 0;
  /** After the last content line's line break (or the end), and the line breaks since its content. */
  let contentEnd = -1;
  let breaks = 0;
  while (pos < len) {
    const lineAt = pos;
    while (pos < len && src.charCodeAt(pos) === 32) pos++;
    const spaces = pos - lineAt;
    const blank = pos >= len || src.charCodeAt(pos) === 10;
    if (blank) {
      if (indent >= 0 && spaces > indent) throw BAIL; // a whitespace line longer than the indent is content
      if (pos >= len && spaces > 0) throw BAIL; // spaces ending the text: not counted the same way
      if (indent < 0) {
        leading++;
        leadingSpaces = Math.max(leadingSpaces, spaces);
      } else {
        pendingBlank++;
      }
      if (pos < len) {
        pos++;
        breaks++;
      }
      continue;
    }
    if (spaces < indent || spaces <= col) {
      // Back to the collection (a line indented between the two is an error; a comment here, a question of ranges).
      if (spaces > col || src.charCodeAt(pos) === 35) throw BAIL;
      pos = lineAt;
      break;
    }
    if (indent < 0) {
      if (leadingSpaces > spaces) throw BAIL; // leading blank lines longer than the first content line: an error
      indent = spaces;
      value = '\n'.repeat(leading);
    } else {
      value += '\n'.repeat(pendingBlank + 1);
    }
    pendingBlank = 0;
    const nl = src.indexOf('\n', pos);
    value += src.slice(lineAt + indent, nl < 0 ? len : nl);
    pos = nl < 0 ? len : nl + 1;
    contentEnd = pos;
    breaks = nl < 0 ? 0 : 1;
  }
  let end: number;
  if (indent < 0) {
    // No content: only keep chomping is taken (a line break per line).
    if (chomp !== 43 || leading === 0) throw BAIL;
    value = '\n'.repeat(Math.max(1, breaks));
    end = pos;
  } else if (chomp === 43) {
    value += '\n'.repeat(Math.max(1, breaks));
    end = pos;
  } else {
    if (chomp !== 45) value += '\n';
    end = contentEnd;
  }
  const contentStart = body < end ? body : start;
  valueEnd = end;
  return stringNode(value, contentStart, end, parent);
}

function scalarOrFlow(parent: JsonNode): Building {
  const c = src.charCodeAt(pos);
  if (c === 91 || c === 123) {
    // Only an empty flow collection: `[]`, `{ }`.
    const node = container(c === 91 ? 'array' : 'object', parent);
    pos++;
    while (pos < len && src.charCodeAt(pos) === 32) pos++;
    if (src.charCodeAt(pos) !== c + 2) throw BAIL;
    pos++;
    node.length = pos - node.offset;
    node.children = [];
    valueEnd = pos;
    return node;
  }
  return scalar(parent, false);
}

/**
 * A one-line scalar at `pos`; leaves `pos` after it (before a key's ':').
 * Keys are strings as written; values are resolved as YAML 1.2's core schema does.
 */
function scalar(parent: JsonNode, isKey: boolean): Building {
  const start = pos;
  const c = src.charCodeAt(pos);
  if (c === 34 || c === 39) {
    const value = quoted(c);
    if (isKey && pos - start > MAX_KEY) throw BAIL;
    const after = pos;
    while (pos < len && src.charCodeAt(pos) === 32) pos++;
    const d = pos < len ? src.charCodeAt(pos) : 10;
    if (d === 58) {
      if (after !== pos || !isKey) throw BAIL; // `"k" : v`, or a mapping where a value is
      if (!endsIndicator(pos + 1)) throw BAIL;
    } else {
      if (isKey) throw BAIL;
      pos = after;
    }
    valueEnd = after;
    return stringNode(value, start + 1, after - 1, parent);
  }
  // A plain scalar may not start with an indicator; `-`, `?` and `:` may, before a non-space (`?x`, `:x`, `-x`).
  if (c === 45 && isSeqItem(pos)) throw BAIL;
  if ((c === 63 || c === 58) && !plainSafeAfter(pos + 1)) throw BAIL;
  if (c === 44 || c === 91 || c === 93 || c === 123 || c === 125 || c === 35 || c === 38 || c === 42 || c === 33 || c === 124 || c === 62 || c === 37 || c === 64 || c === 96) {
    throw BAIL;
  }
  let end = pos;
  while (pos < len) {
    const d = src.charCodeAt(pos);
    if (d === 10) break;
    if (d === 58 && endsIndicator(pos + 1)) break;
    if (d === 35 && src.charCodeAt(pos - 1) === 32) break;
    pos++;
    if (d !== 32) end = pos;
  }
  if (end === start) throw BAIL;
  if (isKey) {
    if (end !== pos || src.charCodeAt(pos) !== 58 || end - start > MAX_KEY) throw BAIL;
  } else {
    if (pos < len && src.charCodeAt(pos) === 58) throw BAIL; // `key: a: b`
    pos = end;
  }
  const text = end - start <= SHORT ? shortString(src, start, end) : src.slice(start, end);
  valueEnd = end;
  return isKey ? stringNode(text, start, end, parent) : plainValue(text, start, parent);
}

/** Whether a key and its ':' come next on this line (a quoted or plain scalar, then ': '). */
function keyAhead(): boolean {
  const c = src.charCodeAt(pos);
  if (c === 34 || c === 39) {
    const close = closingQuote(c);
    return close > 0 && src.charCodeAt(close + 1) === 58 && endsIndicator(close + 2);
  }
  for (let i = pos; i < len; i++) {
    const d = src.charCodeAt(i);
    if (d === 10 || (d === 35 && src.charCodeAt(i - 1) === 32)) return false;
    if (d === 58 && endsIndicator(i + 1)) return true;
  }
  return false;
}

/** Where the quoted scalar at `pos` closes on its line (an escaped `\\"` or a doubled `''` does not close it), or -1. */
function closingQuote(q: number): number {
  for (let i = pos + 1; i < len; i++) {
    const c = src.charCodeAt(i);
    if (c === 10) return -1;
    if (c === 92 && q === 34) i++;
    else if (c === q) {
      if (q === 39 && src.charCodeAt(i + 1) === 39) i++;
      else return i;
    }
  }
  return -1;
}

/** Whether the character at `at` lets a `?` or `:` before it start a plain scalar: any but a space, a line break or the end. */
function plainSafeAfter(at: number): boolean {
  if (at >= len) return false;
  const c = src.charCodeAt(at);
  return c !== 32 && c !== 10;
}

/** Whether the ':' before `at` is a mapping indicator (followed by a space, a line break or the end). */
function endsIndicator(at: number): boolean {
  if (at >= len) return true;
  const c = src.charCodeAt(at);
  return c === 32 || c === 10;
}

/**
 * A quoted scalar on one line; `pos` moves past its closing quote. A
 * double-quoted one may hold the escapes `stringify` writes and people type
 * (double-quoted-escapes.ts); any other escape, or a line break, leaves the
 * document to the package.
 */
function quoted(q: number): string {
  const start = pos + 1;
  let out = '';
  let from = start;
  for (let i = start; i < len; i++) {
    const c = src.charCodeAt(i);
    if (c === 10) throw BAIL;
    if (c === 92 && q === 34) {
      const escape = readEscape(src, i);
      if (!escape) throw BAIL;
      out += src.slice(from, i) + escape.text;
      i = escape.end - 1;
      from = escape.end;
      continue;
    }
    if (c === q) {
      if (q === 39 && src.charCodeAt(i + 1) === 39) {
        out += src.slice(from, i + 1);
        from = i + 2;
        i++;
        continue;
      }
      pos = i + 1;
      if (out === '' && i - from <= SHORT) return shortString(src, from, i);
      return out + src.slice(from, i);
    }
  }
  throw BAIL;
}

function stringNode(value: string, start: number, end: number, parent: JsonNode): Building {
  return new ScalarNode('string', value, start - 1, end - start + 2, parent);
}

const NULLS = new Set(['~', 'null', 'Null', 'NULL']);
const TRUES = new Set(['true', 'True', 'TRUE']);
const FALSES = new Set(['false', 'False', 'FALSE']);
/** YAML 1.2 core schema numbers, read as the `yaml` package reads them (parseInt, parseFloat). */
const DECIMAL = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** Numbers in other forms (octal, hex, infinities, NaN): left to the `yaml` package. */
const OTHER_NUMBER = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

function plainValue(text: string, start: number, parent: JsonNode): Building {
  const c = text.charCodeAt(0);
  // Only these first characters can start a null, a boolean or a number.
  if (c === 126 || c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70 || c === 46 || c === 43 || c === 45 || (c >= 48 && c <= 57)) {
    if (NULLS.has(text)) return scalarNode('null', null, start, text.length, parent);
    if (TRUES.has(text)) return scalarNode('boolean', true, start, text.length, parent);
    if (FALSES.has(text)) return scalarNode('boolean', false, start, text.length, parent);
    if (DECIMAL.test(text)) return scalarNode('number', parseInt(text, 10), start, text.length, parent);
    if (FLOAT.test(text)) return scalarNode('number', parseFloat(text), start, text.length, parent);
    if (OTHER_NUMBER.test(text)) throw BAIL;
  }
  return stringNode(text, start, start + text.length, parent);
}

/** A null, boolean or number node, its keys in the order yaml-tree.ts makes them. */
function scalarNode(type: 'null' | 'boolean' | 'number', value: null | boolean | number, offset: number, length: number, parent: JsonNode): Building {
  return new ScalarNode(type, value, offset, length, parent);
}
