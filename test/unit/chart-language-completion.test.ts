import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, chartCompletions } from '../../src/engine/language/index.js';
import { at, chartDoc, featureChart } from './helpers/chart-doc.js';

const labels = (doc: ReturnType<typeof featureChart>, offset: number): string[] => chartCompletions(doc, offset).map((c) => c.label);

for (const form of ['yaml', 'json'] as const) {
  const doc = featureChart(form);
  const { text } = doc;
  const q = form === 'json' ? '"' : '';

  test(`${form}: completion offers what belongs where the cursor is`, () => {
    const cases: Array<[what: string, offset: number, expected: string[]]> = [
      // From review.reading.open: siblings by key, the rest by the shortest name that resolves (nearest-in-scope).
      [
        'a target in a region',
        at(text, `LGTM${q}: ${q}read`, `LGTM${q}: ${q}`.length),
        ['implement', 'review', 'reading', 'open', 'read', 'scanning', 'shipped', 'implement.coding', 'implement.testing', 'implement.done', 'scanning.running', 'scanning.clean'],
      ],
      ['an initial: the node\'s children', at(text, `initial${q}: ${q}open`, `initial${q}: ${q}`.length), ['open', 'read']],
      ['an action in entry', at(text, 'count_attempt', 1), ['count_attempt']],
      ['after context. in an expression', at(text, 'context.attempts <', 'context.'.length), ['attempts', 'reviewer']],
    ];
    for (const [what, offset, expected] of cases) assert.deepEqual(labels(doc, offset), expected, what);
  });
}

test('a target from a nested state: a state shadowed by a nearer one with the same key is named by its path', () => {
  const text = [
    'statechart:',
    '  id: shadow',
    '  initial: outer',
    '  states:',
    '    done: { type: final }',
    '    outer:',
    '      initial: a',
    '      states:',
    '        a: { on: { GO: b } }',
    '        b: { on: { BACK: a } }',
    '        done: { type: final }',
    '',
  ].join('\n');
  const doc = chartDoc(text, 'shadow.statechart.yaml');
  const items = chartCompletions(doc, at(text, 'GO: b', 4));
  // `done` from outer.a is outer.done (the nearest); the top-level one is reachable only by its id.
  assert.deepEqual(items.map((c) => [c.label, c.detail?.split(' · ')[0]]), [['outer', 'outer'], ['a', 'outer.a'], ['b', 'outer.b'], ['done', 'outer.done'], ['#done', 'done']]);
});

test('yaml: field names of the object under the cursor, and event names used elsewhere', () => {
  const base = featureChart('yaml').text;
  const cases: Array<[what: string, edit: [needle: string, insert: string], cursorAfter: string, expectedSome: string[], expectedNone: string[]]> = [
    ['a state field', ['          type: final\n      onDone', '          ty'], '          ty', ['type', 'initial', 'entry', 'on'], ['context', 'actions']],
    ['a transition field', ['              target: coding\n', '              gu\n'], '              gu', ['guard', 'actions'], ['target']],
    ['an event key under on', ['            PASSED: done\n', '            P\n'], '            P', ['LGTM', 'CLEAN', 'WRITTEN'], ['PASSED', 'FAILED']],
  ];
  for (const [what, [needle, insert], cursorAfter, some, none] of cases) {
    const i = at(base, needle, needle.indexOf('\n') + 1);
    const text = base.slice(0, i) + insert + base.slice(i);
    const doc = chartDoc(text, 'feature.statechart.yaml');
    const got = labels(doc, at(text, cursorAfter, cursorAfter.length));
    for (const l of some) assert.ok(got.includes(l), `${what}: ${l} in ${JSON.stringify(got)}`);
    for (const l of none) assert.ok(!got.includes(l), `${what}: no ${l} in ${JSON.stringify(got)}`);
  }
});

test('yaml: a completion applied at an empty target leaves a chart that validates', () => {
  const base = featureChart('yaml').text;
  const text = base.replace('CLEAN: clean', 'CLEAN: ');
  const doc = chartDoc(text, 'feature.statechart.yaml');
  const item = chartCompletions(doc, at(text, 'CLEAN: ', 7)).find((c) => c.label === 'clean');
  assert.ok(item);
  const out = applyEdits(text, [{ ...item.range, newText: item.insertText }]);
  assert.equal(out, base);
});

test('after event.data. in an expression: the data paths the chart reads and the data keys its raise/emit actions send', () => {
  const text = [
    'statechart:',
    '  id: data',
    '  initial: waiting',
    '  context:',
    '    owner: { name: null, team: null }',
    '  states:',
    '    waiting:',
    '      on:',
    '        SCORED:',
    '          target: done',
    '          guard: "event.data.score > 80 && event.data.reviewer.name != null"',
    '          actions: [keep, ping]',
    '        RETRY:',
    '          target: waiting',
    '          guard: "event.data."',
    '    done: { type: final }',
    '  actions:',
    '    keep:',
    '      type: assign',
    '      context_updates:',
    '        owner: "event.data.owner"',
    '    ping:',
    '      type: raise',
    '      event: PINGED',
    '      data: { ticket: 7 }',
    '',
  ].join('\n');
  const doc = chartDoc(text, 'data.statechart.yaml');
  const items = chartCompletions(doc, at(text, '"event.data."', '"event.data.'.length));
  assert.deepEqual(items.map((c) => c.label), ['owner', 'reviewer.name', 'score', 'ticket']);
  assert.ok(items.every((c) => c.detail === 'event data used in this chart'), JSON.stringify(items));
  // Nested context keys are offered by their dotted paths after `context.`.
  const ctx = text.replace('guard: "event.data."', 'guard: "context."');
  assert.deepEqual(chartCompletions(chartDoc(ctx, 'data.statechart.yaml'), at(ctx, '"context."', '"context.'.length)).map((c) => c.label), ['owner', 'owner.name', 'owner.team']);
});
