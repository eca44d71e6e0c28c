/**
 * jsep, configured for the expression language and extended to keep where
 * every node is in the text (jsep's own nodes carry no positions) and to stay
 * bounded.
 *
 * jsep's operator tables are process-wide; this module is the one place in
 * stategate that configures and uses jsep. It adds the word operators `and`,
 * `or`, `in` (binary, at the precedence of `&&`, `||` and `<`) and `not`
 * (unary, like `!`). jsep's other operators (`===`, `&`, `**`, ternary `?:`,
 * …) stay in its tables so that parse.ts can refuse them by name, pointing at
 * them, instead of jsep's less helpful "Unexpected".
 *
 * Positions come from a subclass, never from global hooks, so nothing here
 * changes how jsep behaves for anyone else:
 * - identifiers and tokens (literals, unary expressions, whole member/call
 *   chains) record their range as they are read;
 * - groups record their range with the parentheses, so a caller can tell
 *   `not a == b` from `(not a) == b`;
 * - argument lists record where their closing parenthesis ends;
 * - the nodes jsep builds outside those methods (binary expressions, the inner
 *   links of a chain `a.b.c`) get their range from their children
 *   (RangedTree.start/end, iterative so a long chain cannot exhaust the stack).
 */
import jsep from 'jsep';
import type { ExprError } from './ast.js';
import { MAX_NESTING, REFUSED_NAMES } from './vocabulary.js';

export type JsepNode = jsep.Expression;

jsep.addBinaryOp('or', 1);
jsep.addBinaryOp('and', 2);
jsep.addBinaryOp('in', 7);
jsep.addUnaryOp('not');

/** The part of jsep's parser class (exported as `jsep.Jsep`) that its typings leave out. */
interface JsepParser {
  index: number;
  readonly expr: string;
  parse(): JsepNode;
  gobbleSpaces(): void;
  gobbleExpression(): JsepNode | false | undefined;
  gobbleToken(): JsepNode | false | undefined;
  gobbleIdentifier(): JsepNode;
  gobbleStringLiteral(): JsepNode;
  gobbleGroup(): JsepNode | false | undefined;
  gobbleArguments(termination: number): (JsepNode | null)[];
}
type JsepParserClass = new (text: string) => JsepParser;
const JsepParserBase = (jsep as unknown as { Jsep: JsepParserClass }).Jsep;

type Range = readonly [start: number, end: number];

/** An error we raise from inside jsep's recursion; it carries its own range. */
class ParseFailure {
  constructor(readonly error: ExprError) {}
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

class RangedParser extends JsepParserBase {
  readonly ranges = new Map<JsepNode, Range>();
  readonly groups = new Map<JsepNode, Range>();
  readonly argumentEnds = new Map<readonly unknown[], number>();
  private tokenDepth = 0;
  private expressionDepth = 0;

  /** Every level of nesting passes through here or gobbleExpression: count both. */
  override gobbleToken(): JsepNode | false | undefined {
    this.tokenDepth++;
    try {
      this.gobbleSpaces();
      this.checkDepth(this.tokenDepth);
      const start = this.index;
      const node = super.gobbleToken();
      // A group `(x)` hands back x itself, which has its range already.
      if (node && !this.ranges.has(node) && this.groups.get(node)?.[0] !== start) {
        this.ranges.set(node, [start, this.trimmedIndex(start)]);
      }
      return node;
    } finally {
      this.tokenDepth--;
    }
  }

  override gobbleExpression(): JsepNode | false | undefined {
    this.expressionDepth++;
    try {
      this.gobbleSpaces();
      this.checkDepth(this.expressionDepth);
      return super.gobbleExpression();
    } finally {
      this.expressionDepth--;
    }
  }

  override gobbleIdentifier(): JsepNode {
    const start = this.index;
    // jsep would say 'Unexpected ' with nothing after it.
    if (start >= this.expr.length) throw new ParseFailure({ message: 'expected a name after "."', offset: start, length: 0 });
    const node = super.gobbleIdentifier();
    const name = String(node['name']);
    if (REFUSED_NAMES.has(name)) {
      throw new ParseFailure({
        message: `"${name}" cannot be read: expressions have no access to JavaScript's prototypes`,
        offset: start,
        length: name.length,
      });
    }
    this.ranges.set(node, [start, this.index]);
    return node;
  }

  /** jsep reports an unclosed string at the end of the text with all of its contents; point at the quote. */
  override gobbleStringLiteral(): JsepNode {
    const start = this.index;
    try {
      return super.gobbleStringLiteral();
    } catch (e) {
      if (!String((e as { description?: unknown } | null)?.description).startsWith('Unclosed quote')) throw e;
      throw new ParseFailure({ message: 'the string is not closed', offset: start, length: 1 });
    }
  }

  override gobbleGroup(): JsepNode | false | undefined {
    const start = this.index;
    const node = super.gobbleGroup();
    if (node) this.groups.set(node, [start, this.index]);
    return node;
  }

  override gobbleArguments(termination: number): (JsepNode | null)[] {
    const args = super.gobbleArguments(termination);
    this.argumentEnds.set(args, this.index);
    return args;
  }

  /** The top level counts as one; MAX_NESTING levels may follow it. */
  private checkDepth(depth: number): void {
    if (depth <= MAX_NESTING + 1) return;
    throw new ParseFailure({
      message: `the expression nests deeper than ${MAX_NESTING} levels`,
      offset: this.index,
      length: this.index < this.expr.length ? 1 : 0,
    });
  }

  /** The current index without the whitespace jsep has already skipped after a token. */
  private trimmedIndex(start: number): number {
    let i = this.index;
    while (i > start && isSpace(this.expr.charCodeAt(i - 1))) i--;
    return i;
  }
}

/** jsep's tree with a range for every node. */
export class RangedTree {
  constructor(
    readonly text: string,
    readonly root: JsepNode,
    private readonly parser: RangedParser,
  ) {}

  /** Whether the node was written inside parentheses of its own. */
  parenthesized(node: JsepNode): boolean {
    return this.parser.groups.has(node);
  }

  /** Where the node starts, without enclosing parentheses. */
  start(node: JsepNode): number {
    let cur = node;
    for (;;) {
      const known = this.parser.ranges.get(cur);
      if (known) return known[0];
      const first = firstChild(cur);
      if (!first) return 0;
      const group = this.parser.groups.get(first);
      if (group) return group[0];
      cur = first;
    }
  }

  /** Where the node ends (exclusive), without enclosing parentheses. */
  end(node: JsepNode): number {
    let cur = node;
    for (;;) {
      const known = this.parser.ranges.get(cur);
      if (known) return known[1];
      if (cur.type === 'CallExpression') return this.parser.argumentEnds.get(cur['arguments'] as unknown[]) ?? this.text.length;
      if (cur.type === 'MemberExpression' && cur['computed']) {
        const close = this.text.indexOf(']', this.outerEnd(cur['property'] as JsepNode));
        return close < 0 ? this.text.length : close + 1;
      }
      const last = lastChild(cur);
      if (!last) return this.text.length;
      const group = this.parser.groups.get(last);
      if (group) return group[1];
      cur = last;
    }
  }

  /** Where the node starts, including its own parentheses. */
  outerStart(node: JsepNode): number {
    return this.parser.groups.get(node)?.[0] ?? this.start(node);
  }

  /** Where the node ends, including its own parentheses. */
  outerEnd(node: JsepNode): number {
    return this.parser.groups.get(node)?.[1] ?? this.end(node);
  }

  /** The first non-space offset at or after `from` (where an operator after an operand starts). */
  skipSpaces(from: number): number {
    let i = from;
    while (i < this.text.length && isSpace(this.text.charCodeAt(i))) i++;
    return i;
  }
}

/**
 * For the nodes jsep builds without a recorded range: the keys of the child
 * their text starts with and of the child it ends with (calls and computed
 * members end with a bracket instead, see RangedTree.end).
 */
const EDGE_CHILDREN: Readonly<Record<string, readonly [first: string, last: string | undefined]>> = {
  BinaryExpression: ['left', 'right'],
  MemberExpression: ['object', 'property'],
  CallExpression: ['callee', undefined],
  ConditionalExpression: ['test', 'alternate'],
  Compound: ['body', 'body'],
};

function edgeChild(node: JsepNode, which: 0 | 1): JsepNode | undefined {
  const key = Object.hasOwn(EDGE_CHILDREN, node.type) ? EDGE_CHILDREN[node.type]?.[which] : undefined;
  if (!key) return undefined;
  const value = node[key];
  if (!Array.isArray(value)) return value as JsepNode;
  return (which === 0 ? value[0] : value[value.length - 1]) as JsepNode | undefined;
}

function firstChild(node: JsepNode): JsepNode | undefined {
  return edgeChild(node, 0);
}

function lastChild(node: JsepNode): JsepNode | undefined {
  return edgeChild(node, 1);
}

export type RangedParse = { ok: true; tree: RangedTree } | { ok: false; error: ExprError };

/** Parses with jsep; never throws (jsep's errors become an ExprError at jsep's index). */
export function parseRanged(text: string): RangedParse {
  const parser = new RangedParser(text);
  try {
    return { ok: true, tree: new RangedTree(text, parser.parse(), parser) };
  } catch (e) {
    return { ok: false, error: toExprError(e, text) };
  }
}

function toExprError(e: unknown, text: string): ExprError {
  if (e instanceof ParseFailure) return e.error;
  const index = (e as { index?: unknown } | null)?.index;
  const description = (e as { description?: unknown } | null)?.description;
  if (typeof index === 'number' && typeof description === 'string') {
    const offset = Math.max(0, Math.min(index, text.length));
    return { message: description, offset, length: offset < text.length ? 1 : 0 };
  }
  // Not reachable within the bounds above; reported rather than thrown all the same.
  return { message: `the expression cannot be parsed (${String(e)})`, offset: 0, length: text.length };
}
