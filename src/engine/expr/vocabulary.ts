/**
 * The fixed words and bounds of the expression language, shared by the parser,
 * the evaluator and the references walker.
 */
import type { RootName } from './ast.js';

/** Longer expressions are refused before parsing (a guard is a line, not a program). */
export const MAX_EXPRESSION_LENGTH = 4096;

/**
 * Deeper nesting (parentheses, brackets, unary operators, chained operators or
 * path steps) is refused with an error, so neither the parser nor the tree
 * walker can run out of stack.
 */
export const MAX_NESTING = 64;

export const ROOT_NAMES: ReadonlySet<string> = new Set<RootName>(['context', 'event', 'env', 'evidence']);

/**
 * Names that lead to JavaScript's prototype machinery. They are refused as
 * identifiers and as literal keys at parse time, and as computed keys at
 * evaluation, even though only own properties are ever read: defence in depth.
 */
export const REFUSED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The word operators, which read as names where they stand alone (`x in`). */
export const WORD_OPERATORS: ReadonlySet<string> = new Set(['and', 'or', 'not', 'in']);
