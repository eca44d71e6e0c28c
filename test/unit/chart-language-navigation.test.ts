import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartDefinition, chartReferences } from '../../src/engine/language/index.js';
import { at, featureChart } from './helpers/chart-doc.js';

for (const form of ['yaml', 'json'] as const) {
  const doc = featureChart(form);
  const { text } = doc;
  const q = form === 'json' ? '"' : '';
  const words = (locs: ReadonlyArray<{ start: number; end: number }>) => locs.map((l) => text.slice(l.start, l.end));

  test(`${form}: definition from a reference lands on the definition`, () => {
    const cases: Array<[what: string, offset: number, definedAt: number]> = [
      ['a step of a dotted target', at(text, 'implement.coding', 'implement.'.length + 1), at(text, form === 'json' ? '"coding": {' : 'coding:', q.length)],
      ['a plain target in a region', at(text, `LGTM${q}: ${q}read`, `LGTM${q}: ${q}`.length + 1), at(text, `${q}read${q}:`, q.length)],
      ['an initial', at(text, `initial${q}: ${q}open`, `initial${q}: ${q}`.length + 1), at(text, `${q}open${q}:`, q.length)],
      ['a named action in entry', at(text, 'count_attempt', 2), at(text, 'count_attempt', 0, 1)],
      ['a context key in an expression', at(text, 'context.attempts', 'context.'.length + 2), at(text, `${q}attempts${q}: 0`, q.length)],
      ['a region id', at(text, `${q}reading`, q.length + 1), at(text, `${q}reading`, q.length)],
    ];
    for (const [what, offset, definedAt] of cases) {
      const found = chartDefinition(doc, offset);
      assert.equal(found.length, 1, what);
      assert.equal(found[0]!.start, definedAt, `${what}: ${JSON.stringify(words(found))}`);
    }
  });

  test(`${form}: references find every use, across dotted paths, initials and expressions`, () => {
    const cases: Array<[what: string, offset: number, uses: string[]]> = [
      ['state coding', at(text, 'implement.coding', 'implement.'.length + 1), ['coding', 'coding', 'coding']],
      ['state implement', at(text, 'implement.coding', 1), ['implement', 'implement']],
      ['action count_attempt', at(text, 'count_attempt', 1), ['count_attempt']],
      ['context attempts', at(text, 'context.attempts', 'context.'.length + 1), ['attempts', 'attempts', 'attempts']],
    ];
    for (const [what, offset, uses] of cases) {
      assert.deepEqual(words(chartReferences(doc, offset, false)), uses, what);
      assert.equal(chartReferences(doc, offset, true).length, uses.length + 1, `${what} with its declaration`);
    }
  });
}
