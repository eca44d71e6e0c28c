import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentSymbols } from '../../src/engine/language/outline.js';
import { codeLenses } from '../../src/engine/language/lenses.js';
import { load } from '../e2e/fixtures/authoring/fixtures.js';

const { text, wf } = load('full.workflow.json');

test('outline: states with their events, then guards and interrupts', () => {
  const symbols = documentSymbols(wf);
  assert.deepEqual(
    symbols.map((s) => `${s.kind}:${s.name}`),
    [...[...wf.states.values()].map((s) => `${s.kind === 'final' ? 'final-state' : 'state'}:${s.id}`), 'guard:has_plan', 'guard:is_small', 'guard:tests_green', 'interrupt:env_changed'],
  );
  const build = symbols.find((s) => s.name === 'build');
  assert.deepEqual(build?.children.map((c) => `${c.name} ${c.detail}`), ['BUILT → review, build', 'CHECK → review, failed', 'SPLIT → review, failed, write_docs, docs_done, write_tests, tests_done']);
  for (const s of symbols) {
    assert.equal(text.slice(s.selection.start, s.selection.end), s.name);
    assert.ok(s.range.start <= s.selection.start && s.selection.end <= s.range.end, s.name);
    for (const c of s.children) assert.ok(s.range.start <= c.range.start && c.range.end <= s.range.end, c.name);
  }
  assert.equal(symbols[0]?.detail, 'initial');
});

test('code lenses: start run on top, in/out counts per state', () => {
  const lenses = codeLenses(wf);
  assert.equal(lenses[0]?.title, '▶ Start run');
  assert.equal(text.slice(lenses[0]?.loc.start, lenses[0]?.loc.end), 'full');
  const title = (s: string) => lenses.find((l) => l.action.kind === 'references' && l.action.state === s)?.title;
  const cases: Array<[state: string, lens: string]> = [
    ['plan', '↘ 1 in · 3 out'], // safe_next to itself; PLANNED, SKIP, safe_next
    ['review', '↘ 4 in · 2 out'],
    ['fix_env', '↘ 1 in · 0 out'], // interrupt in; $return is not an edge
    ['done', '↘ 1 in · 0 out'],
  ];
  for (const [state, lens] of cases) assert.equal(title(state), lens, state);
  assert.ok(!lenses.some((l) => l.action.kind === 'show-diagram'));
  assert.equal(codeLenses(wf, { diagram: true })[1]?.title, '◈ Show diagram');
});
