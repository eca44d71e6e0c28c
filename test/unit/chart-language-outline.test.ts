import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartLenses, chartOutline, type OutlineSymbol } from '../../src/engine/language/index.js';
import { featureChart } from './helpers/chart-doc.js';

/** The outline as indented lines: `name [kind]`. */
function tree(symbols: readonly OutlineSymbol[], depth = 0): string[] {
  return symbols.flatMap((s) => [`${'  '.repeat(depth)}${s.name} [${s.kind}]`, ...tree(s.children, depth + 1)]);
}

for (const form of ['yaml', 'json'] as const) {
  const doc = featureChart(form);

  test(`${form}: the outline is the chart's tree, regions under their parallel state, transitions under their state`, () => {
    assert.deepEqual(tree(chartOutline(doc)), [
      'implement [state]',
      '  coding [state]',
      '    WRITTEN [event]',
      '  testing [state]',
      '    PASSED [event]',
      '    FAILED [event]',
      '  done [final-state]',
      '  onDone [event]',
      'review [parallel-state]',
      '  reading [region]',
      '    open [state]',
      '      LGTM [event]',
      '      REWORK [event]',
      '    read [final-state]',
      '  scanning [region]',
      '    running [state]',
      '      CLEAN [event]',
      '    clean [final-state]',
      '  onAllDone [event]',
      'shipped [final-state]',
      'count_attempt [action]',
    ]);
    // Every symbol's name lies inside its range, as editors require.
    const check = (s: OutlineSymbol): void => {
      assert.ok(s.range.start <= s.selection.start && s.selection.end <= s.range.end, s.name);
      s.children.forEach(check);
    };
    chartOutline(doc).forEach(check);
  });

  test(`${form}: lenses: Start run at the chart, in/out counts per state by resolved targets and initials`, () => {
    const lenses = chartLenses(doc);
    assert.equal(lenses[0]?.title, '▶ Start run');
    assert.equal(doc.text.slice(lenses[0]!.loc.start, lenses[0]!.loc.end), 'feature');
    const counts = Object.fromEntries(lenses.slice(1).map((l) => [l.action.kind === 'references' ? l.action.state : '', l.title]));
    const cases: Array<[state: string, title: string]> = [
      ['implement', '↘ 1 in · 1 out'], // initial of the chart; onDone
      ['implement.coding', '↘ 3 in · 1 out'], // initial, FAILED, REWORK; WRITTEN
      ['implement.testing', '↘ 1 in · 2 out'],
      ['review.reading.open', '↘ 1 in · 2 out'],
      ['shipped', '↘ 1 in · 0 out'],
    ];
    for (const [state, title] of cases) assert.equal(counts[state], title, state);
  });
}
