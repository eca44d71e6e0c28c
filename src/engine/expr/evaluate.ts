/**
 * The tree walker: evaluates a parsed expression against its bindings. No
 * `eval`, no `new Function`, no property read that is not an own property of
 * a plain JSON object or an index of an array.
 *
 * Paths: `context.a.b`, `event.type`, `event.data.x`, `env.NAME`, `x[i]`,
 * `evidence.commands["npm test"].exit_code` (what the host observed).
 * A missing step, or a step into null, reads as null (not an error), so a
 * guard can test `context.reviewer == null` before the key exists. A step
 * into a string, number or boolean is an error, as are an array indexed by
 * anything but a whole number and an object indexed by anything but a string.
 * `event` is `{type, data}` (null when there is no event); `env.NAME` is the
 * variable's value or null.
 *
 * Results may share arrays and objects with the bindings: treat them as
 * read-only (the interpreter copies what it keeps).
 *
 * The tree is at most MAX_NESTING deep (parse.ts), so the recursion is bounded.
 */
import type { JsonObject, JsonValue } from '../model/index.js';
import type { EvalResult, Expr, ExprNode } from './ast.js';
import { ownValue } from '../model/json-value.js';
import { EvalFailure, failAt } from './eval-failure.js';
import { FUNCTIONS } from './functions.js';
import { applyBinary, negate } from './operators.js';
import { describeValue, isPlainObject, isTruthy } from './values.js';
import { REFUSED_NAMES } from './vocabulary.js';

export interface ExprBindings {
  readonly context: JsonObject;
  readonly event?: { readonly type: string; readonly data?: JsonValue };
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The run's clock, ms since the epoch; now() returns it as ISO 8601 (and fails without it). */
  readonly now?: number;
  /** agents.select(role, hint); absent: agents.select() gives null. */
  readonly agents?: (role: string, hint: JsonValue) => string | null;
  /** `evidence`: facts the host observed in the current state (never the agent's data); absent: none observed. */
  readonly evidence?: JsonObject;
}

export function evaluateExpression(expr: Expr, bindings: ExprBindings): EvalResult {
  try {
    return { ok: true, value: evaluateNode(expr.root, bindings) };
  } catch (e) {
    if (e instanceof EvalFailure) return { ok: false, error: e.error };
    // Not reachable on JSON bindings; reported rather than thrown all the same.
    return { ok: false, error: { message: `the expression cannot be evaluated (${String(e)})`, offset: 0, length: expr.text.length } };
  }
}

function evaluateNode(node: ExprNode, bindings: ExprBindings): JsonValue {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'array':
      return node.elements.map((element) => evaluateNode(element, bindings));
    case 'root':
      return readRoot(node, bindings);
    case 'member':
      if (node.object.kind === 'root' && node.object.name === 'env') return readEnv(node, bindings);
      return readMember(node, evaluateNode(node.object, bindings), evaluateNode(node.key, bindings));
    case 'call':
      return call(node, bindings);
    case 'unary': {
      const value = evaluateNode(node.arg, bindings);
      return node.op === 'not' ? !isTruthy(value) : negate(node, value);
    }
    case 'binary': {
      const left = evaluateNode(node.left, bindings);
      if (node.op === 'and') return isTruthy(left) && isTruthy(evaluateNode(node.right, bindings));
      if (node.op === 'or') return isTruthy(left) || isTruthy(evaluateNode(node.right, bindings));
      return applyBinary(node, left, evaluateNode(node.right, bindings));
    }
  }
}

/** What `evidence` reads where the host observed nothing (a chart checked in the editor, a state with no reports yet). */
const NO_EVIDENCE: JsonObject = Object.freeze({ commands: Object.freeze({}), files_written: Object.freeze([]) as unknown as JsonValue[], tools: Object.freeze({}) }) as JsonObject;

function readRoot(node: Extract<ExprNode, { kind: 'root' }>, bindings: ExprBindings): JsonValue {
  if (node.name === 'context') return bindings.context;
  if (node.name === 'evidence') return bindings.evidence ?? NO_EVIDENCE;
  if (node.name === 'event') {
    const event = bindings.event;
    if (!event) return null;
    return event.data === undefined ? { type: event.type } : { type: event.type, data: event.data };
  }
  // parse.ts only lets `env` stand before a key.
  return failAt('read one variable: env.NAME', node);
}

type MemberNode = Extract<ExprNode, { kind: 'member' }>;

function refuse(key: string, node: MemberNode): void {
  if (REFUSED_NAMES.has(key)) failAt(`"${key}" cannot be read: expressions have no access to JavaScript's prototypes`, node.key);
}

function readEnv(node: MemberNode, bindings: ExprBindings): JsonValue {
  const name = evaluateNode(node.key, bindings);
  if (typeof name !== 'string') return failAt(`an environment variable is named by a string, not ${describeValue(name)}`, node.key);
  refuse(name, node);
  const env = bindings.env;
  if (!env || !Object.hasOwn(env, name)) return null;
  const value = env[name];
  return typeof value === 'string' ? value : null;
}

function readMember(node: MemberNode, object: JsonValue, key: JsonValue): JsonValue {
  if (typeof key !== 'string' && typeof key !== 'number') return failAt(`a key is a string or a number, not ${describeValue(key)}`, node.key);
  if (object === null) return null;
  if (Array.isArray(object)) {
    if (typeof key !== 'number') return failAt(`an array is indexed by a number, not by "${key}" (len(x) gives its length)`, node.key);
    if (!Number.isInteger(key)) return failAt(`an array index is a whole number, not ${key}`, node.key);
    return key >= 0 && key < object.length ? (object[key] ?? null) : null;
  }
  if (isPlainObject(object)) {
    if (typeof key !== 'string') return failAt(`an object's keys are strings: write ['${key}']`, node.key);
    refuse(key, node);
    return ownValue(object, key) ?? null;
  }
  return failAt(`${describeValue(object)} has no members (reading ${JSON.stringify(key)})`, node.key);
}

function call(node: Extract<ExprNode, { kind: 'call' }>, bindings: ExprBindings): JsonValue {
  const args = node.args.map((arg) => evaluateNode(arg, bindings));
  const result = FUNCTIONS[node.fn].apply(args, bindings);
  if (result.ok) return result.value;
  const at = result.argument === undefined ? undefined : node.args[result.argument];
  return failAt(result.message, at ?? node);
}
