import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareRename, renameAt } from '../../src/engine/language/rename.js';
import { applyEdits } from '../../src/engine/language/edits.js';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { load, offsetOf } from '../e2e/fixtures/authoring/fixtures.js';

const { text, wf } = load('full.workflow.json');
const count = (t: string, s: string) => t.split(s).length - 1;

function renamed(offset: number, newName: string): string {
  const r = renameAt(text, wf, offset, newName);
  assert.ok('edits' in r, 'error' in r ? r.error : '');
  return applyEdits(text, r.edits);
}

test('renaming a state updates every reference, from any of them', () => {
  const cases: Array<[needle: string, nth: number, from: string, to: string, uses: number]> = [
    ['"review", "guard"', 0, 'review', 'inspect', 5],
    ['"failed"', 2, 'failed', 'broken', 4], // on_fail x2, definition, failure_states
    ['"docs_done"', 0, 'docs_done', 'docs_finished', 3], // terminal, DOCS_WRITTEN, definition
    ['"fix_env": {', 0, 'fix_env', 'repair_env', 2], // definition, interrupt target
    ['"plan"', 0, 'plan', 'design', 3], // initial, definition, safe_next
    ['"write_tests"', 0, 'write_tests', 'tests "quoted"', 2],
  ];
  for (const [needle, nth, from, to, uses] of cases) {
    const out = renamed(offsetOf(text, needle, nth), to);
    const quoted = JSON.stringify(to);
    assert.equal(count(out, quoted), uses, `${from} -> ${to}`);
    assert.equal(count(out, `"${from}"`), count(text, `"${from}"`) - uses, `${from} left behind`);
    const check = checkWorkflowFile(out, 'x.workflow.json', { resolveInvoke: false });
    assert.deepEqual(check.diagnostics.map((d) => d.code), [], `${from} -> ${to} leaves a valid file`);
  }
});

test('renaming a guard updates its definition and every use', () => {
  const out = renamed(offsetOf(text, '"is_small"'), 'small_change');
  assert.equal(count(out, '"small_change"'), 2);
  assert.equal(count(out, '"is_small"'), 0);
  assert.deepEqual(checkWorkflowFile(out, 'x.workflow.json', { resolveInvoke: false }).diagnostics, []);
});

test('rename refuses names that exist or are invalid', () => {
  const at = offsetOf(text, '"review", "guard"');
  const cases: Array<[name: string, error: RegExp]> = [
    ['build', /already exists/],
    ['', /empty/],
    [' x', /spaces/],
    ['$return', /reserved/],
    ['a.b', /cannot contain `\.`/],
  ];
  for (const [name, error] of cases) {
    const r = renameAt(text, wf, at, name);
    assert.ok('error' in r && error.test(r.error), name);
  }
  const g = renameAt(text, wf, offsetOf(text, '"is_small"'), 'tests_green');
  assert.ok('error' in g && /already exists/.test(g.error));
  assert.deepEqual(renameAt(text, wf, at, 'review'), { edits: [] });
});

test('prepareRename: states and guards only, defined ones', () => {
  const p = prepareRename(text, wf, offsetOf(text, '"review", "guard"'));
  assert.ok('loc' in p && p.placeholder === 'review' && text.slice(p.loc.start, p.loc.end) === 'review');
  for (const needle of ['"PLANNED"', '"checks"', '"env_changed"', 'Read the code', '"$return"']) {
    assert.ok('error' in prepareRename(text, wf, offsetOf(text, needle)), needle);
  }
  const broken = load(text.replace('"PLANNED": "build"', '"PLANNED": "buld"'));
  assert.ok('error' in prepareRename(broken.text, broken.wf, offsetOf(broken.text, '"buld"')));
});
