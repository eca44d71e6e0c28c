/**
 * An expression reading `env.NAME` where the chart's root `env:` does not name
 * NAME: an error. A run captures only the variables its chart names (nothing
 * else of the environment enters the run), so such a read would be null every
 * time (docs/statecharts.md, "Environment variables"). The range is the name
 * inside the expression, with the closest declared name for a quick fix.
 */
import { expressionReferences } from '../expr/index.js';
import type { Diagnostic, Workflow } from '../model/index.js';
import { closestName, didYouMean } from '../util/suggest.js';
import type { ExprParser } from './chart-expr.js';
import { insideLoc } from './chart-expr.js';
import type { ChartIndex } from './chart-walk.js';
import { expressions } from './chart-walk.js';

export const CHART_ENV_UNDECLARED = 'chart-env-undeclared';

export function envRule(wf: Workflow, index: ChartIndex, parse: ExprParser, out: Diagnostic[]): void {
  const declared = (wf.chart?.env ?? []).map((v) => v.name);
  for (const site of expressions(index)) {
    const parsed = parse(site.expr.text);
    if (!parsed.ok) continue; // rule 6's
    for (const ref of expressionReferences(parsed.expr)) {
      if (ref.kind !== 'env') continue;
      const name = ref.path[0];
      if (name === undefined || declared.includes(name)) continue;
      // The name itself, where the text ends with it (`env.NAME`): what the quick fix replaces.
      const nameAt = ref.offset + ref.length - name.length;
      const named = site.expr.text.slice(nameAt, ref.offset + ref.length) === name;
      const loc = named ? insideLoc(site.expr, nameAt, name.length) : insideLoc(site.expr, ref.offset, ref.length);
      // The closest name is offered for the fix only where the range is the name itself (not a whole string written with escapes).
      const closest = closestName(name, declared);
      const fixable = named && loc.end - loc.start === name.length;
      out.push({
        severity: 'error',
        code: CHART_ENV_UNDECLARED,
        message: `\`env.${name}\` reads a variable the chart does not declare: a run captures only the variables named under the chart's root \`env:\`, so this is null every time. Add \`${name}\` to \`env:\` (a list of names, or a map of name to default).${didYouMean(closest)}`,
        loc,
        data: { name, ...(closest !== undefined && fixable ? { closest } : {}) },
      });
    }
  }
}
