/**
 * The one exception evaluation throws internally: an error with its range in
 * the expression text. evaluate.ts catches it at the top and returns it as an
 * ExprError, so nothing escapes to the caller.
 */
import type { ExprError } from './ast.js';

export class EvalFailure {
  readonly error: ExprError;

  constructor(message: string, start: number, end: number) {
    this.error = { message, offset: start, length: Math.max(0, end - start) };
  }
}

/** Throws an EvalFailure over the range of `at` (a node or any span). */
export function failAt(message: string, at: { readonly start: number; readonly end: number }): never {
  throw new EvalFailure(message, at.start, at.end);
}
