import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, chartPrepare, chartRename } from '../../src/engine/language/index.js';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { at, chartDoc, featureChart } from './helpers/chart-doc.js';

for (const form of ['yaml', 'json'] as const) {
  const doc = featureChart(form);
  const { text } = doc;
  const q = form === 'json' ? '"' : '';

  test(`${form}: rename updates the definition and every reference, from any of them`, () => {
    const cases: Array<[what: string, offset: number, to: string, replaced: Array<[from: string, to: string]>]> = [
      [
        'a nested state from a dotted target',
        at(text, 'implement.coding', 'implement.'.length + 1),
        'writing',
        [[`initial${q}: ${q}coding`, `initial${q}: ${q}writing`], [`${q}coding${q}:`, `${q}writing${q}:`], [`target${q}: ${q}coding`, `target${q}: ${q}writing`], ['implement.coding', 'implement.writing']],
      ],
      ['a top-level state from its key', at(text, `${q}implement${q}:`, q.length + 1), 'build', [[`initial${q}: ${q}implement`, `initial${q}: ${q}build`], [`${q}implement${q}:`, `${q}build${q}:`], ['implement.coding', 'build.coding']]],
      ['a region id', at(text, `${q}reading${q}`, q.length + 1), 'readers', [[`${q}reading${q}`, `${q}readers${q}`]]],
      ['a named action', at(text, 'count_attempt', 1), 'bump', [['count_attempt', 'bump'], ['count_attempt', 'bump']]],
    ];
    for (const [what, offset, to, replaced] of cases) {
      const r = chartRename(doc, offset, to);
      assert.ok('edits' in r, `${what}: ${'error' in r ? r.error : ''}`);
      let expected = text;
      for (const [a, b] of replaced) expected = expected.replace(a, b);
      const out = applyEdits(text, r.edits);
      assert.equal(out, expected, what);
      assert.deepEqual(checkWorkflowFile(out, doc.file!, { resolveSrc: false }).diagnostics, [], `${what} leaves a valid chart`);
    }
  });

  test(`${form}: rename is refused where it would clash or change what a target means`, () => {
    const cases: Array<[what: string, offset: number, to: string, message: RegExp]> = [
      ['a sibling has the name', at(text, 'implement.coding', 'implement.'.length + 1), 'testing', /`implement` already has a state `testing`/],
      // open -> implement: `implement.coding` from open would find review.reading.implement first.
      ['a nearer state would capture a target', at(text, `${q}open${q}:`, q.length + 1), 'implement', /would change what target `implement\.coding`.*reach no state/],
      ['not a name YAML and JSON read alike', at(text, `${q}open${q}:`, q.length + 1), 'two words', /letters, digits/],
      ['an existing action', at(text, 'count_attempt', 1), 'count_attempt2', /^$/],
    ];
    for (const [what, offset, to, message] of cases) {
      const r = chartRename(doc, offset, to);
      if (message.source === '^$') assert.ok('edits' in r, what);
      else assert.match('error' in r ? r.error : 'no error', message, what);
    }
  });
}

test('prepare rename gives the key (not the path) and refuses context keys', () => {
  const doc = featureChart('yaml');
  const r = chartPrepare(doc, at(doc.text, 'implement.coding', 'implement.'.length + 1));
  assert.ok('placeholder' in r);
  assert.equal(r.placeholder, 'coding');
  assert.deepEqual(doc.text.slice(r.loc.start, r.loc.end), 'coding');
  assert.ok('error' in chartPrepare(doc, at(doc.text, 'attempts: 0', 1)));
});

test('renaming a state that a nearer one would shadow from another target is refused', () => {
  const text = ['statechart:', '  id: s', '  initial: a', '  states:', '    a:', '      initial: x', '      states:', '        x: { on: { GO: done } }', '        y: { type: final }', '    done: { type: final }', ''].join('\n');
  const doc = chartDoc(text, 's.statechart.yaml');
  const r = chartRename(doc, at(text, 'y:', 0), 'done');
  assert.match('error' in r ? r.error : 'no error', /target `done` of `GO` of `a\.x`.*reaches `done` now and would reach `a\.done`/);
});
