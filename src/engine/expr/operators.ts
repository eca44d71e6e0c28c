/**
 * What the binary and unary operators do to JSON values (`and`, `or` and
 * `not` are in evaluate.ts, since they short-circuit). A type mismatch throws
 * an EvalFailure pointing at the operand at fault, or at the operator when
 * neither operand alone is.
 *
 * - `==`/`!=`: strict equality of JSON values, deep for arrays and objects
 *   (key order aside): `1 == '1'` is false, `[1, 2] == [1, 2]` is true.
 * - `< <= > >=`: two numbers, or two strings (compared by UTF-16 code units,
 *   as JavaScript does, so ISO 8601 timestamps from now() compare in time order).
 * - `+`: adds numbers; joins a string with a string, number, boolean or null
 *   (written as JavaScript writes them); concatenates two arrays.
 * - `- * / %`: numbers only; `%` keeps the sign of the left side (JavaScript's
 *   remainder); dividing by zero is an error, as is a result too large to be a
 *   JSON number.
 * - `x in y`: y an array (an element equal to x), an object (x a string naming
 *   an own key) or a string (x a substring).
 */
import type { JsonValue } from '../model/index.js';
import type { ExprNode } from './ast.js';
import { jsonEqual } from '../model/json-value.js';
import { failAt } from './eval-failure.js';
import { describeValue, isPlainObject } from './values.js';

type BinaryNode = Extract<ExprNode, { kind: 'binary' }>;

/** The operator's own range, for errors that are neither side's alone. */
function operatorSpan(node: BinaryNode): { start: number; end: number } {
  return { start: node.opStart, end: node.opStart + node.opText.length };
}

function finite(node: BinaryNode, value: number): number {
  if (!Number.isFinite(value)) failAt(`the result of "${node.opText}" is too large for a number`, operatorSpan(node));
  return value;
}

export function applyBinary(node: BinaryNode, left: JsonValue, right: JsonValue): JsonValue {
  switch (node.op) {
    case '==':
      return jsonEqual(left, right);
    case '!=':
      return !jsonEqual(left, right);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(node, left, right);
    case '+':
      return plus(node, left, right);
    case '-':
    case '*':
    case '/':
    case '%':
      return arithmetic(node, left, right);
    case 'in':
      return contains(node, left, right);
    default:
      // and/or never get here (evaluate.ts short-circuits them).
      return failAt(`the operator "${node.opText}" cannot be applied here`, operatorSpan(node));
  }
}

function compare(node: BinaryNode, left: JsonValue, right: JsonValue): boolean {
  const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
  if (!comparable) {
    failAt(`"${node.opText}" compares two numbers or two strings, not ${describeValue(left)} and ${describeValue(right)}`, operatorSpan(node));
  }
  const l = left as number | string;
  const r = right as number | string;
  switch (node.op) {
    case '<':
      return l < r;
    case '<=':
      return l <= r;
    case '>':
      return l > r;
    default:
      return l >= r;
  }
}

function joinable(value: JsonValue): value is string | number | boolean | null {
  return value === null || typeof value !== 'object';
}

function plus(node: BinaryNode, left: JsonValue, right: JsonValue): JsonValue {
  if (typeof left === 'number' && typeof right === 'number') return finite(node, left + right);
  if (typeof left === 'string' || typeof right === 'string') {
    if (!joinable(left)) failAt(`"+" joins a string with a string, number, boolean or null, not ${describeValue(left)}`, node.left);
    if (!joinable(right)) failAt(`"+" joins a string with a string, number, boolean or null, not ${describeValue(right)}`, node.right);
    return String(left) + String(right);
  }
  if (Array.isArray(left) && Array.isArray(right)) return [...left, ...right];
  return failAt(`"+" adds numbers, joins strings or joins arrays, not ${describeValue(left)} and ${describeValue(right)}`, operatorSpan(node));
}

function arithmetic(node: BinaryNode, left: JsonValue, right: JsonValue): number {
  if (typeof left !== 'number') failAt(`"${node.opText}" takes numbers: the left side is ${describeValue(left)}`, node.left);
  if (typeof right !== 'number') failAt(`"${node.opText}" takes numbers: the right side is ${describeValue(right)}`, node.right);
  switch (node.op) {
    case '-':
      return finite(node, left - right);
    case '*':
      return finite(node, left * right);
    default:
      if (right === 0) failAt('division by zero', node.right);
      return finite(node, node.op === '/' ? left / right : left % right);
  }
}

function contains(node: BinaryNode, needle: JsonValue, haystack: JsonValue): boolean {
  if (Array.isArray(haystack)) return haystack.some((item) => jsonEqual(item, needle));
  if (isPlainObject(haystack)) {
    if (typeof needle !== 'string') failAt(`"in" looks for a key (a string) in an object, not ${describeValue(needle)}`, node.left);
    return Object.hasOwn(haystack, needle);
  }
  if (typeof haystack === 'string') {
    if (typeof needle !== 'string') failAt(`"in" looks for a string in a string, not ${describeValue(needle)}`, node.left);
    return haystack.includes(needle);
  }
  return failAt(`"in" looks into an array, an object or a string, not ${describeValue(haystack)}`, node.right);
}

/** Unary minus. */
export function negate(node: Extract<ExprNode, { kind: 'unary' }>, value: JsonValue): number {
  if (typeof value !== 'number') failAt(`"-" takes a number, not ${describeValue(value)}`, node.arg);
  return -value;
}
