import { test } from 'node:test';
import assert from 'node:assert/strict';
import { definitionAt, referencesAt } from '../../src/engine/language/navigation.js';
import { symbolAt } from '../../src/engine/language/symbols.js';
import { occurrences, symbolOccurrences } from '../../src/engine/language/occurrences.js';
import { load, offsetOf } from '../e2e/fixtures/authoring/fixtures.js';

const { text, wf } = load('full.workflow.json');
const slice = (loc: { start: number; end: number }) => text.slice(loc.start, loc.end);

test('symbolAt names what is under the cursor', () => {
  const cases: Array<[needle: string, nth: number, kind: string, name: string, role?: string]> = [
    ['"plan"', 0, 'state', 'plan', 'reference'],
    ['"plan": {', 0, 'state', 'plan', 'definition'],
    ['"review", "guard"', 0, 'state', 'review', 'reference'],
    ['"has_plan"', 0, 'guard', 'has_plan', 'reference'],
    ['"is_small"', 1, 'guard', 'is_small', 'definition'],
    ['"PLANNED"', 0, 'event', 'PLANNED'],
    ['"checks"', 0, 'workflow', 'checks', 'reference'],
    ['"full"', 0, 'workflow', 'full', 'definition'],
    ['"env_changed"', 0, 'interrupt', 'env_changed'],
    ['"docs":', 0, 'fork-branch', 'docs'],
    ['"failed"]', 0, 'state', 'failed', 'reference'],
    ['"allowed_tools"', 0, 'field', 'allowed_tools'],
  ];
  for (const [needle, nth, kind, name, role] of cases) {
    const sym = symbolAt(wf, offsetOf(text, needle, nth), text);
    assert.equal(sym?.kind, kind, needle);
    assert.equal(sym?.name, name, needle);
    if (role) assert.equal('role' in sym ? sym.role : undefined, role, needle);
  }
});

test('symbolAt: the quotes and the position after the closing quote count', () => {
  for (const delta of [0, 1, 6, 7]) assert.equal(symbolAt(wf, offsetOf(text, '"build",', 0, delta), text)?.name, 'build', String(delta));
  assert.equal(symbolAt(wf, offsetOf(text, '"build",', 0, 8), text), undefined);
});

test('symbolAt: nothing on punctuation or inside instructions', () => {
  assert.equal(symbolAt(wf, offsetOf(text, 'Read the code', 0, 3), text), undefined);
  assert.equal(symbolAt(wf, offsetOf(text, '{', 0, 0), text), undefined);
});

test('occurrences cover every reference kind of a state', () => {
  const slots = [...wf.states.keys()].flatMap((name) => symbolOccurrences(wf, { kind: 'state', name }, text)).filter((o) => o.role === 'reference').map((o) => o.slot);
  for (const slot of ['initial', 'target', 'branch-target', 'safe_next', 'on_complete', 'on_fail', 'fork-initial', 'fork-terminal', 'interrupt-target', 'failure_states']) {
    assert.ok(slots.includes(slot as never), slot);
  }
  assert.ok(!occurrences(wf).some((o) => o.name === '$return'), '$return is not a state');
  assert.equal(symbolOccurrences(wf, { kind: 'state', name: 'failed' }).length, 3, 'without the text, failure_states is not searched');
});

test('definitionAt jumps from a reference to the definition', () => {
  const cases: Array<[needle: string, nth: number, def: string]> = [
    ['"review", "guard"', 0, '"review": {\n'],
    ['"failed"', 0, '"failed": {'],
    ['"tests_green"', 0, '"tests_green": {'],
    ['"fix_env"', 1, '"fix_env": {'],
    ['"docs_done"', 0, '"docs_done": {'],
  ];
  for (const [needle, nth, def] of cases) {
    const targets = definitionAt(wf, offsetOf(text, needle, nth), { text });
    assert.equal(targets.length, 1, needle);
    assert.equal(targets[0]?.loc.start, offsetOf(text, def), needle);
    assert.equal(targets[0]?.file, undefined);
  }
});

test('definitionAt on an invoke asks the resolver and points into the other file', () => {
  const other = load('{"id": "checks", "initial": "a", "states": {"a": {"type": "final"}}}').wf;
  const targets = definitionAt(wf, offsetOf(text, '"checks"'), {
    text,
    file: '/w/full.workflow.json',
    resolve: (name, from) => (name === 'checks' && from === '/w/full.workflow.json' ? { workflow: other, file: '/w/checks.workflow.json' } : undefined),
  });
  assert.deepEqual(targets, [{ file: '/w/checks.workflow.json', loc: other.idLoc }]);
  assert.deepEqual(definitionAt(wf, offsetOf(text, '"checks"'), { text }), []);
});

test('referencesAt lists every use, with or without the declaration', () => {
  const review = referencesAt(wf, offsetOf(text, '"review": {\n'), true, { text });
  assert.deepEqual(review.map((t) => slice(t.loc)), Array(5).fill('review'));
  assert.equal(referencesAt(wf, offsetOf(text, '"review": {\n'), false, { text }).length, 4);
  assert.equal(referencesAt(wf, offsetOf(text, '"failed"'), false, { text }).length, 3, 'on_fail twice + failure_states');
  assert.equal(referencesAt(wf, offsetOf(text, '"is_small"'), true, { text }).length, 2);
});

test('referencesAt on a workflow id adds invocations from other files', () => {
  const refs = referencesAt(wf, offsetOf(text, '"full"'), true, {
    text,
    file: '/w/full.workflow.json',
    invocations: () => [{ file: '/w/parent.workflow.json', loc: { pointer: '', start: 5, end: 9 } }],
  });
  assert.deepEqual(refs.map((r) => r.file), [undefined, '/w/parent.workflow.json']);
});
