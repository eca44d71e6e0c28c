/**
 * How yaml-tree.ts reads YAML: through the `yaml` package's public API. It is a
 * module of its own so that what never reads YAML (a hook deciding on a JSON
 * workflow) never loads the package (scripts/build.mjs gives the hook this
 * module as a bundle of its own).
 *
 * YAML text -> the same tree jsonc-parser builds for JSON (`JsonNode`: object,
 * array, property, string, number, boolean, null; offsets, lengths, parents),
 * so the Reader, the loaders and the schema mapping work on YAML unchanged and
 * never ask which syntax a document came from. The `yaml` package parses (YAML
 * 1.2 core schema: `on`, `yes` and `no` stay strings) and keeps every node's
 * source range; syntax errors become `yaml-syntax` diagnostics and the
 * document is still converted as far as it parsed, as jsonc-parser does.
 *
 * Ranges: `nodeLoc` gives a JSON string's contents by dropping its two quotes.
 * A YAML scalar may have no quotes (plain) or a header (`|`, `>`), so a string
 * node here is given the offset and length that make `nodeLoc` return exactly
 * its contents: the text between the quotes of a quoted scalar, the whole
 * plain scalar, the body of a block scalar. (So a string node's offset is one
 * before its contents, -1 for a key at the very start of the text.)
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, Scalar, type Alias, type Document, type Node as YamlNode } from 'yaml';
import type { Diagnostic } from '../model/index.js';
import { AliasTargets } from './yaml-anchors.js';
import type { JsonNode } from './jsonc.js';

/**
 * Nodes aliases may expand to, in all, in one document: a "billion laughs"
 * document stops here (the Converter reports it) instead of exhausting memory.
 */
export const ALIAS_BUDGET = 10_000;

/**
 * Syntax errors listed for one document; one more line says how many follow.
 * A broken document can hold thousands (a run of quotes is one per pair), and
 * nobody reads a list past its first screen.
 */
export const MAX_YAML_ERRORS = 100;

type Building = { -readonly [K in keyof JsonNode]: JsonNode[K] };

export interface ParsedYaml {
  readonly root?: JsonNode;
  readonly diagnostics: Diagnostic[];
}

/** The `yaml` package's parse, converted: any YAML, with its syntax errors as diagnostics. */
export function parseWithYaml(text: string): ParsedYaml {
  const diagnostics: Diagnostic[] = [];
  if (flowDepth(text) > MAX_FLOW_DEPTH) {
    diagnostics.push(syntax('The YAML is nested too deeply to read.', 0, 0));
    return { diagnostics };
  }
  let doc: Document.Parsed;
  // Each syntax error is an Error object, and capturing its stack is most of the cost on a broken document
  // with thousands of them (deep unclosed brackets: over 100 ms for 2 KB). Nothing reads their stacks.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    // uniqueKeys off: the Reader reports a repeated key itself, as for JSON (`duplicate-key`, `duplicate-state`).
    doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  } catch (err) {
    // The parser recurses per nesting level: a pathological depth exhausts the stack.
    diagnostics.push(syntax(`The YAML cannot be read: ${(err as Error).message}`, 0, 0));
    return { diagnostics };
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  const listed = Math.min(doc.errors.length, MAX_YAML_ERRORS);
  for (let i = 0; i < listed; i++) diagnostics.push(yamlProblem('error', doc.errors[i]!.message, doc.errors[i]!.pos, text.length));
  const more = doc.errors.length - listed;
  if (more > 0) {
    const last = doc.errors[listed - 1]!.pos;
    diagnostics.push(syntax(`YAML syntax error: ${more} more syntax error${more === 1 ? '' : 's'} after this one (the first ${MAX_YAML_ERRORS} are listed).`, Math.min(last[0], text.length), Math.min(Math.max(last[0], last[1]), text.length)));
  }
  for (const w of doc.warnings) diagnostics.push(yamlProblem('warning', w.message, w.pos, text.length));
  const converter = new Converter(text, doc, diagnostics);
  let root: JsonNode | undefined;
  try {
    root = doc.contents ? converter.convert(doc.contents, undefined) : undefined;
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    diagnostics.push(syntax('The YAML is nested too deeply to read.', 0, 0));
    return { diagnostics };
  }
  if (!root || root.type === 'null') {
    if (!diagnostics.some((d) => d.severity === 'error')) {
      diagnostics.push(syntax('The file is empty: a statechart is `statechart:` with `initial` and `states`.', 0, 0));
    }
    return { diagnostics };
  }
  return { root, diagnostics };
}

/**
 * Flow collections (`[`, `{`) nested deeper than this are not given to the
 * `yaml` package. Its time grows with the square of the depth (about 100 ms
 * of CPU for 400 levels, over a second for 2,000), it runs out of stack near
 * 800 levels, and close to the stack limit V8 can fail to compile a regular
 * expression and abort the whole process ("RegExpCompiler Allocation failed",
 * found by the statechart fuzzer at 857 levels, on the first check of the
 * document in a fresh process; the limit was 1,000 then). 128 levels is far
 * beyond any chart (a state nests two flow levels deeper than its parent, so
 * a chart written in flow style reaches it only past 60 levels of states), and
 * the package reads that in a few milliseconds.
 */
const MAX_FLOW_DEPTH = 128;

/**
 * The deepest flow nesting in the text, brackets in quoted strings and comments aside (a cheap upper bound).
 * A quote opens a string only where a YAML scalar can start (at the start of a line, after a space or
 * one of `[{,:`): `d_example"` is a plain scalar holding a quote, and pairing that quote with the next
 * one put everything after it inside or outside a string the wrong way round (a fuzzed one-line
 * document 2,867 levels deep was measured at under 128, handed to the package, and aborted the process).
 */
function flowDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) {
      if (++depth > max) max = depth;
    } else if (c === 93 || c === 125) {
      if (depth > 0) depth--;
    } else if ((c === 34 || c === 39) && scalarMayStart(text, i)) {
      // To the closing quote (a double-quoted string's escapes skipped); an unclosed quote ends the line.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === c || d === 10) break;
        if (d === 92 && c === 34) i++;
      }
    } else if (c === 35 && (i === 0 || text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 10)) {
      while (i < text.length && text.charCodeAt(i) !== 10) i++;
    }
  }
  return max;
}

/** Whether a scalar can start at `i`: the text's start, or after a line break, a space or tab, or one of `[{,:`. */
function scalarMayStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const p = text.charCodeAt(i - 1);
  return p === 10 || p === 13 || p === 32 || p === 9 || p === 91 || p === 123 || p === 44 || p === 58;
}

function syntax(message: string, start: number, end: number): Diagnostic {
  return { severity: 'error', code: 'yaml-syntax', message, loc: { pointer: '', start, end } };
}

/** The yaml package's message without its position suffix (the range says where) and code excerpt. */
function yamlProblem(severity: 'error' | 'warning', message: string, pos: [number, number], length: number): Diagnostic {
  const first = (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
  const start = Math.min(Math.max(0, pos[0]), length);
  const end = Math.min(Math.max(start, pos[1]), length);
  return { severity, code: 'yaml-syntax', message: `YAML syntax error: ${first}`, loc: { pointer: '', start, end } };
}

class Converter {
  /** Anchored nodes being expanded through aliases right now (an alias inside its own anchor would never end). */
  private readonly expanding = new Set<YamlNode>();
  private aliasNodes = 0;
  /** What each alias refers to, found once for the document (yaml-anchors.ts). */
  private readonly aliasTargets: AliasTargets;

  constructor(
    private readonly text: string,
    doc: Document.Parsed,
    private readonly diagnostics: Diagnostic[],
  ) {
    this.aliasTargets = new AliasTargets(doc);
  }

  /** [start, end] of a node's range, in the text. */
  private span(range: readonly number[] | null | undefined): [number, number] {
    return span(range, this.text.length);
  }

  convert(node: unknown, parent: JsonNode | undefined): JsonNode {
    if (isAlias(node)) return this.alias(node, parent);
    if (this.expanding.size > 0 && ++this.aliasNodes > ALIAS_BUDGET) throw new AliasOverflow();
    if (isMap(node)) {
      const out = this.container('object', node.range, parent);
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const property = this.property(pair.key, pair.value, out);
        if (property) (out.children as JsonNode[]).push(property);
      }
      return out;
    }
    if (isSeq(node)) {
      const out = this.container('array', node.range, parent);
      for (const item of node.items) (out.children as JsonNode[]).push(this.convert(item ?? null, out));
      return out;
    }
    if (isScalar(node)) return this.scalar(node, parent);
    // `- ` with nothing after it: null at no particular place (the parent's start).
    return { type: 'null', value: null, offset: parent?.offset ?? 0, length: 0, ...(parent ? { parent } : {}) };
  }

  private container(type: 'object' | 'array', range: readonly number[] | null | undefined, parent: JsonNode | undefined): Building {
    const [start, end] = this.span(range);
    return { type, offset: start, length: end - start, children: [], ...(parent ? { parent } : {}) };
  }

  private property(key: unknown, value: unknown, parent: JsonNode): JsonNode | undefined {
    if (!isScalar(key)) {
      // `? [a, b]: x` or a key-less `: x`: JSON has no such keys.
      const at = isMap(key) || isSeq(key) ? this.span(key.range) : this.span((value as YamlNode | null)?.range);
      this.diagnostics.push({
        severity: 'error',
        code: 'invalid-type',
        message: 'A key must be a plain name (a string); this entry is ignored.',
        loc: { pointer: '', start: at[0], end: at[1] },
      });
      return undefined;
    }
    const [start] = this.span(key.range);
    const prop: Building = { type: 'property', offset: start, length: 0, children: [], parent };
    const keyNode = this.stringNode(keyName(key), key, prop);
    const valueNode = this.convert(value ?? null, prop);
    prop.colonOffset = keyNode.offset + keyNode.length;
    prop.length = Math.max(valueNode.offset + valueNode.length, keyNode.offset + keyNode.length) - start;
    (prop.children as JsonNode[]).push(keyNode, valueNode);
    return prop;
  }

  private scalar(node: Scalar, parent: JsonNode | undefined): JsonNode {
    const v = node.value;
    const [start, end] = this.span(node.range);
    const at = { offset: start, length: end - start, ...(parent ? { parent } : {}) };
    if (typeof v === 'number') return { type: 'number', value: v, ...at };
    if (typeof v === 'boolean') return { type: 'boolean', value: v, ...at };
    if (v === null || v === undefined) return { type: 'null', value: null, ...at };
    // Strings, and anything another schema would make of a tagged scalar (kept as the text written).
    return this.stringNode(typeof v === 'string' ? v : String(node.source ?? v), node, parent);
  }

  /** A string node whose `nodeLoc` is the scalar's contents (see the top of the file). */
  private stringNode(value: string, node: Scalar, parent: JsonNode | undefined): Building {
    const [start, end] = contents(node.type, this.span(node.range), this.text);
    // nodeLoc drops one character each side (a JSON string's quotes). At the very start of the text
    // (the first key) the offset is -1: nothing reads a string node's offset but nodeLoc.
    return { type: 'string', value, offset: start - 1, length: end - start + 2, ...(parent ? { parent } : {}) };
  }

  private alias(node: Alias, parent: JsonNode | undefined): JsonNode {
    const target = this.aliasTargets.resolve(node);
    const [start, end] = this.span(node.range);
    if (!target || this.expanding.has(target)) {
      this.diagnostics.push({
        severity: 'error',
        code: 'yaml-syntax',
        message: target ? 'This alias refers to a node that contains it; it is read as null.' : 'This alias names no anchor; it is read as null.',
        loc: { pointer: '', start, end },
      });
      return { type: 'null', value: null, offset: start, length: end - start, ...(parent ? { parent } : {}) };
    }
    this.expanding.add(target);
    try {
      return this.convert(target, parent);
    } catch (err) {
      if (!(err instanceof AliasOverflow)) throw err;
      if (this.expanding.size === 1) {
        this.diagnostics.push({
          severity: 'error',
          code: 'yaml-syntax',
          message: `Aliases here expand to more than ${ALIAS_BUDGET} nodes; this one is read as null.`,
          loc: { pointer: '', start, end },
        });
        return { type: 'null', value: null, offset: start, length: end - start, ...(parent ? { parent } : {}) };
      }
      throw err; // reported once, by the outermost alias
    } finally {
      this.expanding.delete(target);
    }
  }
}

class AliasOverflow extends Error {}

/** A key as JSON would have it: strings as they are, numbers and other plain scalars as written (`86400000`). */
function keyName(key: Scalar): string {
  if (typeof key.value === 'string') return key.value;
  if (key.type === Scalar.PLAIN && typeof key.source === 'string') return key.source;
  return String(key.value);
}

/** [start, end] of a range, inside the text. */
function span(range: readonly number[] | null | undefined, length: number): [number, number] {
  const start = Math.min(Math.max(0, range?.[0] ?? 0), length);
  const end = Math.min(Math.max(start, range?.[1] ?? start), length);
  return [start, end];
}

/** The scalar's contents: inside the quotes, the plain text, or a block scalar's body after its header line. */
function contents(type: Scalar['type'], [start, end]: [number, number], text: string): [number, number] {
  if (type === Scalar.QUOTE_DOUBLE || type === Scalar.QUOTE_SINGLE) {
    return end - start >= 2 ? [start + 1, end - 1] : [start, end];
  }
  if (type === Scalar.BLOCK_LITERAL || type === Scalar.BLOCK_FOLDED) {
    const body = text.indexOf('\n', start);
    return body >= 0 && body < end ? [body + 1, end] : [start, end];
  }
  return [start, end];
}
