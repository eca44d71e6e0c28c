/**
 * Rule 6: guard expressions parse. The range is inside the guard's string, at
 * the parse error. Named delays and assign updates are expressions too: their
 * parse errors have their own code (chart-expression-syntax).
 */
import type { Diagnostic } from '../model/index.js';
import type { ExprParser } from './chart-expr.js';
import { insideLoc } from './chart-expr.js';
import type { ChartIndex } from './chart-walk.js';
import { expressions } from './chart-walk.js';

export const CHART_GUARD_SYNTAX = 'chart-guard-syntax';
export const CHART_EXPRESSION_SYNTAX = 'chart-expression-syntax';

const WHAT = { guard: 'guard', delay: 'delay expression', assign: 'assign expression', data: 'data expression' } as const;

export function guardSyntaxRule(index: ChartIndex, parse: ExprParser, out: Diagnostic[]): void {
  for (const site of expressions(index)) {
    const parsed = parse(site.expr.text);
    if (parsed.ok) continue;
    const { message, offset, length } = parsed.error;
    out.push({
      severity: 'error',
      code: site.what === 'guard' ? CHART_GUARD_SYNTAX : CHART_EXPRESSION_SYNTAX,
      message: `This ${WHAT[site.what]} does not parse: ${message}`,
      loc: insideLoc(site.expr, offset, length),
      data: { offset, length },
    });
  }
}
