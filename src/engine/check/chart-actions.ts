/**
 * Rule 7: an action named in `entry`, `exit` or a transition's `actions` is
 * defined under the chart's `actions`. (An inline action of an unknown `type`
 * never reaches the IR: the loader reports it with the same code.)
 */
import { UNKNOWN_ACTION } from '../formats/statechart-actions.js';
import type { Diagnostic, Workflow } from '../model/index.js';
import { ACTION_TYPES } from '../model/index.js';
import { closestName, didYouMean } from '../util/suggest.js';
import type { ChartIndex } from './chart-walk.js';

export const CHART_UNKNOWN_ACTION = UNKNOWN_ACTION;

export function actionRule(wf: Workflow, index: ChartIndex, out: Diagnostic[]): void {
  const defined = wf.chart?.actions ?? new Map();
  const skipped = wf.chart?.skippedActions;
  for (const ref of index.refs) {
    if (ref.kind !== 'named') continue;
    const { name } = ref;
    if (defined.has(name.name) || skipped?.has(name.name)) continue;
    const builtIn = (ACTION_TYPES as readonly string[]).includes(name.name);
    const closest = builtIn ? undefined : closestName(name.name, defined.keys());
    out.push({
      severity: 'error',
      code: CHART_UNKNOWN_ACTION,
      message: builtIn
        ? `\`${name.name}\` is a built-in action type, not a defined action: write it inline with its parameters (\`{type: ${name.name}, ...}\`) or define it under \`actions\`.`
        : `Action \`${name.name}\` is not defined under the chart's \`actions\`.${didYouMean(closest)}`,
      loc: name.loc,
      ...(closest !== undefined ? { data: { closest } } : {}),
    });
  }
}
