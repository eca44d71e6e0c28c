/**
 * Rule 10: the context is consistent with what the chart does with it
 * (docs/statecharts.md): an `assign` writes only keys the `context` declares (an
 * error), and a constant it writes has the type of the key's declared default
 * (an error; a default of null takes anything, and null may be written to any
 * key). An expression reading a context key the chart never declares reads
 * null every time: a warning, inside the expression.
 */
import { evaluateExpression, expressionReferences } from '../expr/index.js';
import type { AssignUpdate, Diagnostic, JsonValue, Workflow } from '../model/index.js';
import { closestName, didYouMean } from '../util/suggest.js';
import type { ExprParser } from './chart-expr.js';
import { insideLoc } from './chart-expr.js';
import type { ChartIndex } from './chart-walk.js';
import { expressions } from './chart-walk.js';

export const CHART_CONTEXT_MISMATCH = 'chart-context-mismatch';

export function contextRule(wf: Workflow, index: ChartIndex, parse: ExprParser, out: Diagnostic[]): void {
  const declared = (key: string) => Object.prototype.hasOwnProperty.call(wf.context, key);
  const keys = Object.keys(wf.context);
  for (const action of index.actions) {
    if (action.type !== 'assign') continue;
    for (const u of action.updates) {
      if (!declared(u.key)) {
        const closest = closestName(u.key, keys);
        out.push({
          severity: 'error',
          code: CHART_CONTEXT_MISMATCH,
          message: `\`assign\` writes \`${u.key}\`, which the chart's \`context\` does not declare. Declare it with its default (\`${u.key}: null\` if it has none).${didYouMean(closest)}`,
          loc: u.keyLoc,
          data: { key: u.key, ...(closest !== undefined ? { closest } : {}) },
        });
        continue;
      }
      typeRule(u, wf.context[u.key] as JsonValue, parse, out);
    }
  }
  // The same expression is often written many times (a guard on every step): its references are found once.
  const undeclared = new Map<string, ReturnType<typeof expressionReferences>>();
  for (const site of expressions(index)) {
    let refs = undeclared.get(site.expr.text);
    if (!refs) {
      const parsed = parse(site.expr.text);
      refs = parsed.ok ? expressionReferences(parsed.expr).filter((r) => r.kind === 'context' && r.path[0] !== undefined && !declared(r.path[0])) : []; // not parsed: rule 6's
      undeclared.set(site.expr.text, refs);
    }
    for (const ref of refs) {
      const key = ref.path[0] as string;
      const closest = closestName(key, keys);
      out.push({
        severity: 'warning',
        code: CHART_CONTEXT_MISMATCH,
        message: `\`context.${key}\` is not declared in the chart's \`context\`, so it reads null until something assigns it.${didYouMean(closest)}`,
        loc: insideLoc(site.expr, ref.offset, ref.length),
        data: { key, ...(closest !== undefined ? { closest } : {}) },
      });
    }
  }
}

/** A constant written to a key whose default has another type. */
function typeRule(u: AssignUpdate, fallback: JsonValue, parse: ExprParser, out: Diagnostic[]): void {
  if (fallback === null) return;
  const parsed = parse(u.expr.text);
  if (!parsed.ok || expressionReferences(parsed.expr).length > 0) return; // not a constant
  const value = evaluateExpression(parsed.expr, { context: {} });
  if (!value.ok || value.value === null) return;
  const written = typeName(value.value);
  const expected = typeName(fallback);
  if (written === expected) return;
  out.push({
    severity: 'error',
    code: CHART_CONTEXT_MISMATCH,
    message: `\`assign\` writes ${written} to \`${u.key}\`, whose default in \`context\` is ${expected}.`,
    loc: u.expr.loc,
    data: { key: u.key, expected, found: written },
  });
}

function typeName(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}
