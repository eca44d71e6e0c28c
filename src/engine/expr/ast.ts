/**
 * The expression language's own syntax tree: what parse.ts builds from the
 * parser library's tree and what evaluate.ts and references.ts walk. Only the
 * constructs the language has exist here, so a walker never meets a JavaScript
 * construct the language refused (a ternary, `this`, a method call).
 *
 * Every node keeps its range in the expression text (`start`/`end`, UTF-16
 * offsets, end exclusive, without enclosing parentheses), so an evaluation
 * error can point at the token that caused it.
 */
import type { JsonValue } from '../model/index.js';

/** A diagnostic inside the expression text: `offset`/`length` in UTF-16 code units. */
export interface ExprError {
  readonly message: string;
  readonly offset: number;
  readonly length: number;
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** The names a path can start from. */
/** `evidence`: what stategate observed in the current state (machine/evidence.ts), never the agent's data. */
export type RootName = 'context' | 'event' | 'env' | 'evidence';

/** The callable functions, spelled as written. */
export type FunctionName = 'now' | 'len' | 'agents.select';

export type BinaryOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%' | 'in' | 'and' | 'or';

export type UnaryOp = 'not' | '-';

export type ExprNode =
  | (Span & { readonly kind: 'literal'; readonly value: string | number | boolean | null })
  | (Span & { readonly kind: 'array'; readonly elements: readonly ExprNode[] })
  | (Span & { readonly kind: 'root'; readonly name: RootName })
  /** `object.key` (key: a string literal spanning the name) or `object[key]`. */
  | (Span & { readonly kind: 'member'; readonly object: ExprNode; readonly key: ExprNode })
  /** `nameStart`/`nameEnd` span the function's name as written (`agents.select`). */
  | (Span & {
      readonly kind: 'call';
      readonly fn: FunctionName;
      readonly args: readonly ExprNode[];
      readonly nameStart: number;
      readonly nameEnd: number;
    })
  /** `opText` is the operator as written (`!` or `not` both mean `not`). */
  | (Span & { readonly kind: 'unary'; readonly op: UnaryOp; readonly opText: string; readonly arg: ExprNode })
  /** `opStart`/`opText`: the operator as written (`&&` means `and`), for error ranges. */
  | (Span & {
      readonly kind: 'binary';
      readonly op: BinaryOp;
      readonly opText: string;
      readonly opStart: number;
      readonly left: ExprNode;
      readonly right: ExprNode;
    });

/**
 * A parsed expression. Callers treat it as opaque: they get one from
 * parseExpression and hand it to evaluateExpression / expressionReferences.
 */
export interface Expr {
  readonly text: string;
  readonly root: ExprNode;
}

/** What evaluation gives: a JSON value, or an error inside the expression text. */
export type EvalResult = { ok: true; value: JsonValue } | { ok: false; error: ExprError };
