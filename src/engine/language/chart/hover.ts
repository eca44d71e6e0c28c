/**
 * Hover on a statechart: on a state (its key or any target step naming it)
 * its path and what it does, with where a target was resolved from; on an
 * action name its definition; on a context key its default and who assigns
 * it; on a field name the schema's documentation of that field.
 */
import type { Hover } from '../hover.js';
import { fieldDoc, type SchemaRefs } from '../schema-docs.js';
import { chartCursorAt } from './cursor.js';
import { chartActionSummary, chartStateSummary } from './describe.js';
import { chartOccurrenceAt, sameChartSymbol, type ChartModel, type ChartOccurrence } from './occurrences.js';

const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

/** `refs`: the schema files the statechart schema refers to (the state rules and stage fields are the workflow schema's). */
export function chartHoverAt(m: ChartModel, text: string, json: boolean, offset: number, schema?: unknown, refs?: SchemaRefs): Hover | undefined {
  const hit = chartOccurrenceAt(m, offset);
  if (hit) return { markdown: describe(m, hit), loc: hit.loc };
  const cursor = chartCursorAt(text, offset, json);
  if (!cursor.atKey || !cursor.string) return undefined;
  const doc = fieldDoc(schema, cursor.path, refs);
  const key = cursor.path[cursor.path.length - 1];
  return doc ? { markdown: `**${String(key)}**\n\n${doc}`, loc: { pointer: '', start: cursor.string.start, end: cursor.string.end } } : undefined;
}

function describe(m: ChartModel, o: ChartOccurrence): string {
  const { wf } = m;
  switch (o.kind) {
    case 'state': {
      const summary = chartStateSummary(wf, o.name);
      if (o.role === 'definition') return summary;
      const from = o.from === '' || o.from === undefined ? 'the chart' : code(o.from);
      const how = o.slot === 'initial' ? `\`initial\` of ${from}` : `target ${code(o.ref?.name ?? o.name)} from ${from} resolves to ${code(o.name)}`;
      return `${how}\n\n${summary}`;
    }
    case 'action': {
      const a = wf.chart?.actions.get(o.name);
      return a ? chartActionSummary(a.name, a.action) : `**action** ${code(o.name)}: not defined under the chart's \`actions\`.`;
    }
    case 'context': {
      const declared = Object.prototype.hasOwnProperty.call(wf.context, o.name);
      const assigned = sameChartSymbol(m, o).filter((x) => x.role === 'reference').length;
      const value = declared ? `default ${code(JSON.stringify(wf.context[o.name]))}` : 'not declared in `context` (reads null)';
      return `**context** ${code(o.name)}: ${value}; ${assigned} use${assigned === 1 ? '' : 's'} in the chart.`;
    }
  }
}
