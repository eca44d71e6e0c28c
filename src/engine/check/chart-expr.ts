/**
 * The expressions of a chart parsed once per validation (rules 6 and 10 both
 * read them), and ranges inside an expression's string.
 */
import { parseExpression, type ParseResult } from '../expr/index.js';
import type { ExprSource, SourceLoc } from '../model/index.js';

export type ExprParser = (text: string) => ParseResult;

export function memoParser(): ExprParser {
  const memo = new Map<string, ParseResult>();
  return (text) => {
    let parsed = memo.get(text);
    if (!parsed) memo.set(text, (parsed = parseExpression(text)));
    return parsed;
  };
}

/**
 * The range of `offset`/`length` inside the expression's string in the file.
 * Exact when the string is written as its text (no escapes, no folded lines:
 * the written range is as long as the text); otherwise the whole string.
 */
export function insideLoc(expr: ExprSource, offset: number, length: number): SourceLoc {
  const { loc } = expr;
  if (loc.end - loc.start !== expr.text.length) return loc;
  const start = loc.start + Math.min(Math.max(0, offset), expr.text.length);
  return { pointer: loc.pointer, start, end: Math.min(start + Math.max(0, length), loc.end) };
}
