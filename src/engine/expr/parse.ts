/**
 * parseExpression: text → the language's own tree (ast.ts), or an error with
 * its range inside the text.
 *
 * jsep (jsep-ranged.ts) does the parsing; this file decides what of jsep's
 * JavaScript-shaped tree the language accepts, and refuses the rest at parse
 * time with an error pointing at it, so that a guard with a mistake is a
 * validation diagnostic (rule 6), not a surprise at run time:
 * - names: paths start with `context`, `event` or `env.NAME`; the only calls
 *   are now(), len(x) and agents.select(role, hint), with their argument
 *   counts; no method calls, no `this`;
 * - operators: `== != < <= > >= + - * / % in and or not && || !` and unary
 *   `-`; jsep's other operators and the ternary are refused by name;
 * - `not a == b`: in Python (where `and`/`or`/`not` come from) this means
 *   `not (a == b)`, in jsep's grammar `(not a) == b`. Rather than pick one
 *   silently, it is an error asking for parentheses (`!` keeps JavaScript's
 *   meaning: `!a == b` is `(!a) == b`);
 * - bounds: at most MAX_EXPRESSION_LENGTH characters and MAX_NESTING levels.
 */
import type { BinaryOp, Expr, ExprError, ExprNode, FunctionName } from './ast.js';
import { FUNCTIONS, isFunctionName } from './functions.js';
import { parseRanged, type JsepNode, type RangedTree } from './jsep-ranged.js';
import { closestName } from '../util/suggest.js';
import { MAX_EXPRESSION_LENGTH, MAX_NESTING, REFUSED_NAMES, ROOT_NAMES, WORD_OPERATORS } from './vocabulary.js';

export type ParseResult = { ok: true; expr: Expr } | { ok: false; error: ExprError };

const BINARY_OPS: Readonly<Record<string, BinaryOp>> = {
  '==': '==',
  '!=': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  '+': '+',
  '-': '-',
  '*': '*',
  '/': '/',
  '%': '%',
  in: 'in',
  and: 'and',
  '&&': 'and',
  or: 'or',
  '||': 'or',
};

/** jsep operators the language leaves out, with the way forward. */
const REFUSED_OPERATORS: Readonly<Record<string, string>> = {
  '===': 'use ==, which is already strict',
  '!==': 'use !=, which is already strict',
  '&': 'use and',
  '|': 'use or',
};

const KNOWN_NAMES = ['context', 'event', 'evidence', 'env', 'now', 'len', 'agents'];

class ConvertFailure {
  constructor(readonly error: ExprError) {}
}

export function parseExpression(text: string): ParseResult {
  if (typeof text !== 'string') return { ok: false, error: { message: 'an expression is a string', offset: 0, length: 0 } };
  if (text.length > MAX_EXPRESSION_LENGTH) {
    return {
      ok: false,
      error: {
        message: `the expression is longer than ${MAX_EXPRESSION_LENGTH.toLocaleString('en-US')} characters`,
        offset: MAX_EXPRESSION_LENGTH,
        length: text.length - MAX_EXPRESSION_LENGTH,
      },
    };
  }
  const parsed = parseRanged(text);
  if (!parsed.ok) return parsed;
  try {
    const root = new Converter(parsed.tree).convert(parsed.tree.root, 1);
    return { ok: true, expr: Object.freeze({ text, root }) };
  } catch (e) {
    if (e instanceof ConvertFailure) return { ok: false, error: e.error };
    return { ok: false, error: { message: `the expression cannot be parsed (${String(e)})`, offset: 0, length: text.length } };
  }
}

function str(node: JsepNode, key: string): string {
  return String(node[key]);
}

function child(node: JsepNode, key: string): JsepNode {
  return node[key] as JsepNode;
}

class Converter {
  constructor(private readonly tree: RangedTree) {}

  private fail(message: string, offset: number, end: number): never {
    throw new ConvertFailure({ message, offset, length: Math.max(0, end - offset) });
  }

  private failAt(message: string, node: JsepNode): never {
    return this.fail(message, this.tree.start(node), this.tree.end(node));
  }

  private span(node: JsepNode): { start: number; end: number } {
    return { start: this.tree.start(node), end: this.tree.end(node) };
  }

  convert(node: JsepNode, depth: number): ExprNode {
    if (depth > MAX_NESTING + 1) this.failAt(`the expression nests deeper than ${MAX_NESTING} levels`, node);
    switch (node.type) {
      case 'Literal':
        return this.literal(node);
      case 'ArrayExpression':
        return this.array(node, depth);
      case 'Identifier':
        return this.identifier(node);
      case 'MemberExpression':
        return this.member(node, depth);
      case 'CallExpression':
        return this.call(node, depth);
      case 'UnaryExpression':
        return this.unary(node, depth);
      case 'BinaryExpression':
        return this.binary(node, depth);
      case 'Compound':
        return this.compound(node, depth);
      case 'SequenceExpression':
        return this.failAt('a comma only separates function arguments and array elements', (node['expressions'] as JsepNode[])[1] ?? node);
      case 'ConditionalExpression': {
        const at = this.tree.skipSpaces(this.tree.outerEnd(child(node, 'test')));
        return this.fail('the conditional operator "?:" is not supported: write two guarded transitions', at, at + 1);
      }
      case 'ThisExpression':
        return this.failAt('unknown name "this": a path starts with context., event., evidence. or env.', node);
      default:
        return this.failAt(`unsupported syntax (${node.type})`, node);
    }
  }

  private literal(node: JsepNode): ExprNode {
    const value = node['value'];
    if (typeof value === 'number' && !Number.isFinite(value)) this.failAt('the number is too large', node);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean' && value !== null) {
      this.failAt('unsupported literal', node);
    }
    return Object.freeze({ kind: 'literal', value, ...this.span(node) });
  }

  private array(node: JsepNode, depth: number): ExprNode {
    const elements = (node['elements'] as (JsepNode | null)[]).map((element) => {
      if (!element) return this.failAt('an array element is missing between two commas', node);
      return this.convert(element, depth + 1);
    });
    return Object.freeze({ kind: 'array', elements: Object.freeze(elements), ...this.span(node) });
  }

  /** A name standing alone (not after a dot, not called). */
  private identifier(node: JsepNode): ExprNode {
    const name = str(node, 'name');
    if (name === 'context' || name === 'event' || name === 'evidence') return Object.freeze({ kind: 'root', name, ...this.span(node) });
    if (name === 'env') this.failAt('read one variable: env.NAME', node);
    if (name === 'agents') this.failAt('agents is only used as agents.select(role, hint)', node);
    if (isFunctionName(name)) this.failAt(`${name} is a function: call it as ${FUNCTIONS[name].signature}`, node);
    if (WORD_OPERATORS.has(name)) this.failAt(`"${name}" needs an expression ${name === 'not' ? 'after it' : 'on each side'}`, node);
    const suggestion = closestName(name, KNOWN_NAMES);
    const hint = suggestion ? ` (did you mean "${suggestion}"?)` : '';
    return this.failAt(`unknown name "${name}"${hint}: a path starts with context., event. or env.`, node);
  }

  private member(node: JsepNode, depth: number): ExprNode {
    const objectNode = child(node, 'object');
    if (node['optional']) {
      const text = this.tree.text;
      let at = this.tree.skipSpaces(this.tree.outerEnd(objectNode));
      if (text.slice(at, at + 2) !== '?.') {
        // Not every node jsep builds has a known end (a literal `null`, an array `[]`): the `?.` after where the object starts.
        const found = text.indexOf('?.', this.tree.outerStart(objectNode));
        at = found >= 0 ? found : Math.max(0, text.length - 2);
      }
      this.fail('"?." is not supported: a missing path already reads as null', at, Math.min(text.length, at + 2));
    }
    const object = this.memberObject(objectNode, depth);
    const keyNode = child(node, 'property');
    let key: ExprNode;
    if (node['computed']) {
      key = this.convert(keyNode, depth + 1);
      if (key.kind === 'literal' && typeof key.value === 'string' && REFUSED_NAMES.has(key.value)) {
        this.failAt(`"${key.value}" cannot be read: expressions have no access to JavaScript's prototypes`, keyNode);
      }
      if (key.kind === 'literal' && typeof key.value !== 'string' && typeof key.value !== 'number') {
        this.failAt(`a key is a string or a number, not ${String(key.value)}`, keyNode);
      }
    } else {
      key = Object.freeze({ kind: 'literal', value: str(keyNode, 'name'), ...this.span(keyNode) });
    }
    return Object.freeze({ kind: 'member', object, key, ...this.span(node) });
  }

  /** `env` and `agents` are only names before a dot; everything else converts as usual. */
  private memberObject(node: JsepNode, depth: number): ExprNode {
    if (node.type === 'Identifier' && !this.tree.parenthesized(node)) {
      const name = str(node, 'name');
      if (name === 'env') return Object.freeze({ kind: 'root', name, ...this.span(node) });
      if (name === 'agents') this.failAt('agents is only used as agents.select(role, hint)', node);
    }
    return this.convert(node, depth + 1);
  }

  private call(node: JsepNode, depth: number): ExprNode {
    const callee = child(node, 'callee');
    const fn = this.functionName(callee);
    const args = node['arguments'] as JsepNode[];
    const def = FUNCTIONS[fn];
    if (args.length < def.minArgs || args.length > def.maxArgs) {
      const count = def.minArgs === def.maxArgs ? `${def.minArgs}` : `${def.minArgs} or ${def.maxArgs}`;
      this.failAt(`${def.signature} takes ${count} argument${def.maxArgs === 1 ? '' : 's'}, not ${args.length}`, node);
    }
    return Object.freeze({
      kind: 'call',
      fn,
      args: Object.freeze(args.map((arg) => this.convert(arg, depth + 1))),
      nameStart: this.tree.start(callee),
      nameEnd: this.tree.end(callee),
      ...this.span(node),
    });
  }

  private functionName(callee: JsepNode): FunctionName {
    const only = 'only now(), len(x) and agents.select(role, hint) can be called';
    if (callee.type === 'Identifier') {
      const name = str(callee, 'name');
      if (isFunctionName(name) && name !== 'agents.select') return name;
      return this.failAt(`unknown function "${name}": ${only}`, callee);
    }
    if (callee.type === 'MemberExpression' && !callee['computed'] && !callee['optional']) {
      const object = child(callee, 'object');
      const property = child(callee, 'property');
      if (object.type === 'Identifier' && str(object, 'name') === 'agents' && str(property, 'name') === 'select') return 'agents.select';
      return this.failAt(`values have no methods: ${only}`, property);
    }
    return this.failAt(only, callee);
  }

  private unary(node: JsepNode, depth: number): ExprNode {
    const opText = str(node, 'operator');
    const op = opText === '-' ? '-' : opText === '!' || opText === 'not' ? 'not' : undefined;
    const start = this.tree.start(node);
    if (!op) this.fail(`the operator "${opText}" is not supported`, start, start + opText.length);
    const arg = this.convert(child(node, 'argument'), depth + 1);
    return Object.freeze({ kind: 'unary', op, opText, arg, ...this.span(node) });
  }

  private binary(node: JsepNode, depth: number): ExprNode {
    const opText = str(node, 'operator');
    const leftNode = child(node, 'left');
    const opStart = this.tree.skipSpaces(this.tree.outerEnd(leftNode));
    const op = Object.hasOwn(BINARY_OPS, opText) ? BINARY_OPS[opText] : undefined;
    if (!op) {
      const forward = Object.hasOwn(REFUSED_OPERATORS, opText) ? `: ${REFUSED_OPERATORS[opText]}` : '';
      this.fail(`the operator "${opText}" is not supported${forward}`, opStart, opStart + opText.length);
    }
    if (op !== 'and' && op !== 'or' && leftNode.type === 'UnaryExpression' && str(leftNode, 'operator') === 'not' && !this.tree.parenthesized(leftNode)) {
      const at = this.tree.start(leftNode);
      this.fail(`"not" applies to the operand right after it: write not (… ${opText} …) or (not …) ${opText} …`, at, at + 3);
    }
    const left = this.convert(leftNode, depth + 1);
    const right = this.convert(child(node, 'right'), depth + 1);
    return Object.freeze({ kind: 'binary', op, opText, opStart, left, right, ...this.span(node) });
  }

  /** jsep reads `a b`, `a, b` and `a; b` as a list of expressions; the language has one. */
  private compound(node: JsepNode, depth: number): ExprNode {
    const body = node['body'] as JsepNode[];
    const [first, second] = body;
    const text = this.tree.text;
    if (!first) return this.fail(text.trim() === '' ? 'the expression is empty' : 'expected an expression', 0, text.length);
    this.convert(first, depth);
    if (!second) return this.failAt('expected an expression', first);
    if (second.type === 'Identifier' && WORD_OPERATORS.has(str(second, 'name'))) return this.identifier(second);
    const between = text.slice(this.tree.outerEnd(first), this.tree.outerStart(second));
    if (/[,;]/.test(between)) return this.failAt('a comma only separates function arguments and array elements', second);
    return this.failAt('expected an operator (such as ==, and, +) before this', second);
  }
}
