import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { chartCompletions, chartDefinition, chartFixes, chartHover, chartLenses, chartOutline, chartPrepare, chartReferences, chartRename } from '../../src/engine/language/index.js';
import { featureChart } from './helpers/chart-doc.js';

const schema: unknown = JSON.parse(readFileSync('schemas/statechart-schema.json', 'utf8'));

/** Every service call at a spread of offsets; none may throw, whatever the text. */
function exercise(text: string, file: string): void {
  const { workflow, diagnostics } = checkWorkflowFile(text, file, { resolveSrc: false });
  const doc = workflow ? { text, file, workflow } : { text, file };
  for (const d of diagnostics) chartFixes(doc, d);
  chartOutline(doc);
  chartLenses(doc);
  const step = Math.max(1, Math.floor(text.length / 40));
  for (let offset = 0; offset <= text.length; offset += step) {
    chartCompletions(doc, offset);
    chartHover(doc, offset, schema);
    chartDefinition(doc, offset);
    chartReferences(doc, offset, true);
    chartPrepare(doc, offset);
    chartRename(doc, offset, 'renamed');
  }
}

test('the statechart language service never throws on a chart being typed (every prefix, YAML and JSON)', () => {
  for (const form of ['yaml', 'json'] as const) {
    const { text, file } = featureChart(form);
    const step = form === 'yaml' ? 23 : 41;
    for (let end = 0; end <= text.length; end += step) {
      assert.doesNotThrow(() => exercise(text.slice(0, end), file!), `${form} prefix of ${end}`);
    }
  }
});

test('the statechart language service never throws on odd but loadable charts', () => {
  const odd = [
    { statechart: { id: 'x', initial: 'a', states: { a: { on: { GO: '#a.b.c' } } } } },
    { statechart: { id: 'x', initial: 'a', states: { a: { on: { GO: '.b' }, initial: 'b', states: { b: {} } } } } },
    { statechart: { id: 'x', initial: 'a', states: { a: { type: 'history', target: 'nowhere' } }, interrupts: { env: { trigger: { file_pattern: '*.env' }, target: 'a' } } } },
    { statechart: { id: 'x', initial: 'p', states: { p: { type: 'parallel', regions: [{ id: 'r', states: {} }, { initial: 'q' }] } } } },
  ];
  for (const chart of odd) assert.doesNotThrow(() => exercise(JSON.stringify(chart, null, 1), 'x.statechart.json'), JSON.stringify(chart));
  const yaml = readFileSync('test/e2e/fixtures/statechart-authoring/workspace/broken.statechart.yaml', 'utf8');
  assert.doesNotThrow(() => exercise(yaml, 'broken.statechart.yaml'));
});

test('the statechart language service never throws on charts nested thousands of levels deep (JSON, flow and block YAML)', () => {
  for (const levels of [300, 3000, 20_000]) {
    const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const block = Array.from({ length: Math.min(levels, 3000) }, (_, i) => `${' '.repeat(6 + 2 * i)}n:`).join('\n');
    const rows: Array<[string, string]> = [
      ['x.statechart.json', `{"statechart": {"initial": "a", "states": {"a": {}}, "context": {"x": ${deep}}}}`],
      ['x.statechart.yaml', `statechart:\n  initial: a\n  states: {a: {}}\n  context: {x: ${deep}}\n`],
      ['y.statechart.yaml', `statechart:\n  initial: a\n  states: {a: {}}\n  context:\n    x:\n${block} 1\n`],
    ];
    for (const [file, text] of rows) assert.doesNotThrow(() => exercise(text, file), `${file}, ${levels} levels`);
  }
});
