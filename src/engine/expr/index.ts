/**
 * The statechart expression language (guards, assigns, inputs, named delays):
 * the surface the loader, the validator, the interpreter and the editor use.
 * docs/statecharts.md "The expression language" is the user's description;
 * each file here says which part of it it implements.
 */
import type { EvalResult } from './ast.js';
import { evaluateExpression, type ExprBindings } from './evaluate.js';
import { parseExpression, type ParseResult } from './parse.js';
import { expressionReferences } from './references.js';

export type { EvalResult, Expr, ExprError } from './ast.js';
export type { ExprBindings } from './evaluate.js';
export type { ParseResult } from './parse.js';
export type { ExprReference } from './references.js';
export { evaluateExpression } from './evaluate.js';
export { parseExpression } from './parse.js';
export { expressionReferences } from './references.js';
export { isTruthy } from './values.js';
export { MAX_EXPRESSION_LENGTH, MAX_NESTING } from './vocabulary.js';

/**
 * Parsed texts, the first parsed dropped first when full. A chart has a few
 * dozen expressions, so this holds those of every loaded chart; a hit does not
 * reorder (that would cost more than most evaluations).
 */
const CACHE_SIZE = 512;
const parsedTexts = new Map<string, ParseResult>();

/** parseExpression with a small cache (parse results are immutable, so they can be shared). */
function parseCached(text: string): ParseResult {
  const hit = parsedTexts.get(text);
  if (hit) return hit;
  const parsed = parseExpression(text);
  if (parsedTexts.size >= CACHE_SIZE) {
    const oldest = parsedTexts.keys().next();
    if (!oldest.done) parsedTexts.delete(oldest.value);
  }
  parsedTexts.set(text, parsed);
  return parsed;
}

/** Parses (through the cache) and evaluates; a parse error is returned like an evaluation error. */
export function evaluateText(text: string, bindings: ExprBindings): EvalResult {
  const parsed = parseCached(text);
  return parsed.ok ? evaluateExpression(parsed.expr, bindings) : parsed;
}

/**
 * Whether `text` is an expression that reads something: it parses and reads
 * context, event or env, or calls a function. Strings in an action's `data`
 * that do not are literals (`"Low risk, high score"`, `"auto_approve"`, `"42"`).
 */
export function readsBinding(text: string): boolean {
  const parsed = parseCached(text);
  return parsed.ok && expressionReferences(parsed.expr).length > 0;
}
