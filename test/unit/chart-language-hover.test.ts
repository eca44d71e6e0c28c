import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chartHover } from '../../src/engine/language/index.js';
import { at, featureChart } from './helpers/chart-doc.js';

const schema: unknown = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'schemas', 'statechart-schema.json'), 'utf8'));

test('hover: a target shows the resolved path and what the state does; an action its definition; a field its docs', () => {
  const doc = featureChart('yaml');
  const { text } = doc;
  const cases: Array<[what: string, offset: number, parts: string[]]> = [
    ['a dotted target step', at(text, 'implement.coding', 'implement.'.length + 2), ['target `implement.coding` from `review.reading.open` resolves to `implement.coding`', 'Entry: `count_attempt`', '`WRITTEN` → `implement.testing`']],
    ['a compound state key', at(text, 'implement:', 2), ['**compound state** `implement`', 'Children: `coding`, `testing`, `done` (starts in `coding`)', '`onDone` → `review`']],
    ['a region', at(text, 'reading', 2), ['**region** `review.reading`']],
    ['an action name', at(text, 'count_attempt', 2), ['**action** `count_attempt`: `assign`', '`attempts` ← `context.attempts + 1`']],
    ['a context key in an expression', at(text, 'context.attempts <', 10), ['**context** `attempts`: default `0`']],
    ['a field name', at(text, 'onAllDone', 3), ['**onAllDone**']],
  ];
  for (const [what, offset, parts] of cases) {
    const h = chartHover(doc, offset, schema);
    assert.ok(h, what);
    for (const p of parts) assert.ok(h.markdown.includes(p), `${what}: ${p} in ${h.markdown}`);
  }
});
