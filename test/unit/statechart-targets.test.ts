// How a transition's target name finds its state (docs/statecharts.md,
// Transitions): the loader, the validator and the
// interpreter all use resolveTarget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildChart } from './helpers/chart-builder.js';
import { ROOT_ID, resolveTarget } from '../../src/engine/statechart/index.js';
import { resolvePath } from '../../src/engine/statechart/targets.js';

const chart = buildChart({
  initial: 'review',
  states: {
    review: {
      type: 'parallel',
      states: {
        code: { initial: 'reading', states: { reading: {}, done: { type: 'final' } } },
        security: { initial: 'scan', states: { scan: { initial: 'deps', states: { deps: {}, done: {} } }, done: {} } },
      },
    },
    done: {},
    failed: { initial: 'retry', states: { retry: {}, h: { type: 'history' } } },
  },
});

const cases: [source: string, ref: string, expected: string | undefined, why: string][] = [
  ['review.code.reading', 'done', 'review.code.done', 'a sibling first'],
  ['review.security.scan.deps', 'done', 'review.security.scan.done', 'the nearest: the sibling, not the parent’s sibling'],
  ['review.security.scan', 'done', 'review.security.done', 'the source’s own siblings'],
  ['review.code', 'done', 'done', 'a region looks beside its parallel state (the root’s children)'],
  ['review.code.reading', 'failed', 'failed', 'an ancestor’s sibling'],
  ['review.code.reading', 'reading', 'review.code.reading', 'the source itself is among its siblings'],
  ['review.code.reading', 'security.scan.done', 'review.security.scan.done', 'a.b.c: a found outward, then down'],
  ['review.code.reading', 'failed.h', 'failed.h', 'a history node by path'],
  ['review.code.reading', 'security.nothing', undefined, 'a path that does not go on'],
  ['review.code.reading', 'nowhere', undefined, 'no state of that name'],
  ['review.code.reading', '.done', undefined, 'a relative path below an atomic state'],
  ['review.security', '.scan.done', 'review.security.scan.done', 'XState’s relative form: below the source'],
  ['done', '#review.code.done', 'review.code.done', 'an absolute id'],
  ['done', '#review.code.nope', undefined, 'an absolute id that is no state'],
  [ROOT_ID, 'failed', 'failed', 'the root looks among the top-level states'],
  [ROOT_ID, 'review.code', 'review.code', 'the root, then down'],
  [ROOT_ID, 'reading', undefined, 'the root does not look deeper'],
  ['missing.state', 'done', undefined, 'an unknown source resolves nothing'],
  ['review.code.reading', '', undefined, 'an empty name'],
  ['review.code.reading', 'security..done', undefined, 'an empty step'],
];

for (const [source, ref, expected, why] of cases) {
  test(`resolveTarget from "${source || '(root)'}" "${ref}": ${why}`, () => {
    assert.equal(resolveTarget(chart, source, ref), expected);
  });
}

// resolveTarget reads a plain name (no dot) on a fast path that does not split it; held equal to the general
// path (resolvePath) for every source and every key of the chart, and names that are no key.
test('a plain name resolves as the general path resolves it, from every source', () => {
  const keys = new Set<string>(['nowhere', 'h', '*']);
  for (const state of chart.states.values()) keys.add(state.key);
  let resolved = 0;
  for (const source of [ROOT_ID, ...chart.states.keys()]) {
    for (const key of keys) {
      const fast = resolveTarget(chart, source, key);
      assert.equal(fast, resolvePath(chart, source, key), `from "${source}" "${key}"`);
      if (fast !== undefined) resolved++;
    }
  }
  assert.ok(resolved > 50, `only ${resolved} names resolved`);
});
