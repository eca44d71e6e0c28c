import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quickFixes } from '../../src/engine/language/quickfix.js';
import { applyEdits } from '../../src/engine/language/edits.js';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { fixtureText } from '../e2e/fixtures/authoring/fixtures.js';

const base = fixtureText('full.workflow.json');
const check = (text: string) => checkWorkflowFile(text, 'x.workflow.json', { resolveInvoke: false });

/** Applies the fix titled like `title` to the first diagnostic with `code`, and checks what is left. */
function fix(text: string, code: string, title: RegExp): string {
  const { workflow, diagnostics } = check(text);
  const d = diagnostics.find((x) => x.code === code);
  assert.ok(d, `${code} in ${diagnostics.map((x) => x.code).join()}`);
  const fixes = quickFixes(text, workflow, d);
  const chosen = fixes.find((f) => title.test(f.title));
  assert.ok(chosen, `${title} among ${fixes.map((f) => f.title).join(' | ')}`);
  return applyEdits(text, chosen.edits);
}

test('each quick fix leaves a valid file', () => {
  const cases: Array<[what: string, broken: string, code: string, title: RegExp, expect: RegExp]> = [
    ['rename target', base.replace('"PLANNED": "build"', '"PLANNED": "biuld"'), 'unknown-target', /^Change to `build`$/, /"PLANNED": "build"/],
    ['create state', base.replace('"REJECTED": "build"', '"REJECTED": "rework"'), 'unknown-target', /^Create state `rework`$/, /"rework": \{/],
    ['create terminal state (final)', base.replace('"terminal": "tests_done"', '"terminal": "tests_end"'), 'unknown-target', /^Create state `tests_end`$/, /"tests_end": \{\s*"type": "final"/],
    ['rename initial', base.replace('"initial": "plan"', '"initial": "Plan"'), 'unknown-initial', /^Change to `plan`$/, /"initial": "plan"/],
    ['define guard', base.replace('"guard": "has_plan"', '"guard": "ready"'), 'unknown-guard', /^Define guard `ready`$/, /"ready": \{\s*"field": "tests_passed",\s*"op": "exists"/],
    ['rename guard', base.replace('"guard": "has_plan"', '"guard": "has_plans"'), 'unknown-guard', /^Change to `has_plan`$/, /"guard": "has_plan"/],
    ['unknown field', base.replace('"safe_next"', '"safe_nxt"'), 'unknown-field', /^Change to `safe_next`$/, /"safe_next"/],
    ['make terminal final', base.replace('"tests_done": { "type": "final" }', '"tests_done": {}'), 'fork-terminal-not-final', /^Make `tests_done` a final state$/, /"tests_done": \{ "type": "final" \}/],
    ['make terminal final (replacing a type)', base.replace('"tests_done": { "type": "final" }', '"tests_done": { "type": "normal" }'), 'fork-terminal-not-final', /^Make `tests_done` a final state$/, /"tests_done": \{ "type": "final" \}/],
  ];
  for (const [what, broken, code, title, expect] of cases) {
    const fixed = fix(broken, code, title);
    assert.match(fixed, expect, what);
    assert.deepEqual(check(fixed).diagnostics.map((d) => `${d.code}: ${d.message}`), [], what);
  }
});

test('add a final state to a workflow without one, reachable from a dead end', () => {
  const broken = JSON.stringify({ id: 'w', initial: 'a', states: { a: { on: { GO: 'b' } }, b: { instructions: 'x' } } }, null, 2);
  const fixed = fix(broken, 'no-final-state', /^Add final state `done` \(reached from `b` on `DONE`\)$/);
  assert.deepEqual(check(fixed).diagnostics, []);
  const looped = JSON.stringify({ id: 'w', initial: 'a', states: { a: { on: { DONE: 'a' } }, done: 'x' } }, null, 2);
  const fixedLoop = fix(looped, 'no-final-state', /^Add final state `done_2` \(reached from `a` on `DONE_2`\)$/);
  assert.ok(!check(fixedLoop).diagnostics.some((d) => d.code === 'no-final-state' || d.code === 'unreachable-state'));
  // An unreachable dead end is passed over: the new state would be unreachable too.
  const orphaned = JSON.stringify({ id: 'w', initial: 'a', states: { a: { on: { GO: 'b' } }, b: { on: { BACK: 'a' } }, orphan: {} } }, null, 2);
  const fixedOrphan = fix(orphaned, 'no-final-state', /reached from `b` on `DONE`/);
  assert.deepEqual(check(fixedOrphan).diagnostics.map((d) => d.code), ['unreachable-state']);
});

test('remove an unreachable state (and its failure_states entry)', () => {
  const broken = base.replace('"meta": { "failure_states": ["failed"] }', '"meta": { "failure_states": ["failed", "orphan"] }').replace('"done": { "type": "final" },', '"done": { "type": "final" },\n    "orphan": { "type": "final" },');
  const fixed = fix(broken, 'unreachable-state', /^Remove unreachable state `orphan`$/);
  assert.equal(fixed, base);
});

test('no remove fix when another state still leads to it; no throw without an IR', () => {
  const broken = base.replace('"done": { "type": "final" },', '"done": { "type": "final" },\n    "x1": { "on": { "GO": "x2" } },\n    "x2": { "type": "final" },');
  const { workflow, diagnostics } = check(broken);
  const x2 = diagnostics.find((d) => d.code === 'unreachable-state' && d.data?.['state'] === 'x2');
  assert.ok(x2);
  assert.deepEqual(quickFixes(broken, workflow, x2), []);
  assert.deepEqual(quickFixes('{', undefined, { severity: 'error', code: 'no-final-state', message: '', loc: { pointer: '', start: 0, end: 1 } }), []);
});
