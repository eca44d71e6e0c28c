import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completionsAt } from '../../src/engine/language/completion.js';
import { toolCompletions } from '../../src/engine/language/tool-names.js';
import { loadStatewright } from '../../src/engine/formats/statewright.js';
import { applyEdits } from '../../src/engine/language/edits.js';
import { load, offsetOf } from '../e2e/fixtures/authoring/fixtures.js';

const { text, wf } = load('full.workflow.json');
const STATES = [...wf.states.keys()];
const labels = (t: string, offset: number, opts = {}) => completionsAt(t, loadStatewright(t).workflow, offset, opts).map((c) => c.label);

test('state names wherever a state is expected', () => {
  const cases: Array<[needle: string, nth: number, withReturn: boolean]> = [
    ['"initial": "plan"', 0, false],
    ['"PLANNED": "build"', 0, false],
    ['"target": "review", "guard"', 0, false],
    ['"target": "build" }', 0, false],
    ['"safe_next": "plan"', 0, false],
    ['"on_complete": "review", "on_fail"', 0, false],
    ['"on_fail": "failed"', 0, false],
    ['"initial": "write_docs"', 0, false],
    ['"terminal": "docs_done"', 0, false],
    ['"on_complete": "review",\n', 0, false],
    ['"target": "fix_env"', 0, false],
    ['"failure_states": ["failed"]', 0, false],
    ['"FIXED": "$return"', 0, true],
    ['"safe_next": "plan"', 0, false],
  ];
  for (const [needle, nth, withReturn] of cases) {
    // Just inside the value's string: past the opening quote after the colon.
    const offset = offsetOf(text, needle, nth, needle.indexOf('"', needle.indexOf(':')) + 1);
    const got = labels(text, offset);
    assert.deepEqual(got, withReturn ? [...STATES, '$return'] : STATES, needle);
  }
});

test('$return only in states an interrupt handler can reach, where an event moves the machine', () => {
  const withSafeNext = text.replace('"FIXED": "$return" }', '"FIXED": "$return" }, "safe_next": ""');
  assert.ok(labels(withSafeNext, offsetOf(withSafeNext, '"safe_next": ""', 0, 14)).includes('$return'));
  const t = text.replace('"APPROVED": "done"', '"APPROVED": ""');
  assert.ok(!labels(t, offsetOf(t, '"APPROVED": ""', 0, 13)).includes('$return'));
});

test('a completion replaces the string contents, or inserts a literal where none is typed', () => {
  const t = text.replace('"PLANNED": "build"', '"PLANNED": "bu"');
  const offset = offsetOf(t, '"PLANNED": "bu"', 0, 14);
  const item = completionsAt(t, wf, offset).find((c) => c.label === 'build');
  assert.ok(item);
  assert.equal(applyEdits(t, [{ start: item.range.start, end: item.range.end, newText: item.insertText }]), text);

  const bare = '{"id": "x", "initial": , "states": {"a": {"type": "final"}}}';
  const at = bare.indexOf(': ,') + 2;
  const a = completionsAt(bare, loadStatewright(bare).workflow, at).find((c) => c.label === 'a');
  assert.deepEqual([a?.insertText, a?.range], ['"a"', { start: at, end: at }]);

  const open = '{"id": "x", "states": {"a": {"type": "final"}}, "initial": "';
  const o = completionsAt(open, loadStatewright(open).workflow, open.length).find((c) => c.label === 'a');
  assert.equal(o?.insertText, 'a"', 'closes an unterminated string');
});

test('guard names in guard / guards, also inside branches', () => {
  const guards = [...wf.guards.keys()];
  assert.deepEqual(labels(text, offsetOf(text, '"guard": "has_plan"', 0, 10)), guards);
  assert.deepEqual(labels(text, offsetOf(text, '"guards": ["is_small"]', 0, 12)), guards);
  assert.deepEqual(labels(text, offsetOf(text, '"guard": "tests_green"', 0, 10)), guards);
});

test('guard field from the context keys, nested paths included', () => {
  assert.deepEqual(labels(text, offsetOf(text, '"field": "plan"', 0, 10)), ['tests_passed', 'review', 'review.score']);
});

test('tool names from the options in allowed_tools and disallowed_tools', () => {
  const tools = [{ name: 'Read' }, { name: 'copilot_readFile', detail: 'alias of Read' }];
  assert.deepEqual(labels(text, offsetOf(text, '"Grep"'), { tools }), ['Read', 'copilot_readFile']);
  assert.deepEqual(labels(text, offsetOf(text, '"WebFetch"'), { tools }), ['Read', 'copilot_readFile']);
});

test('event names used elsewhere, at a new key under `on`', () => {
  const t = text.replace('"on": { "FIXED": "$return" }', '"on": { "FIXED": "$return", "" }');
  const got = labels(t, offsetOf(t, '"$return", ""', 0, 12));
  assert.ok(got.includes('APPROVED') && got.includes('PLANNED'), got.join());
  assert.ok(!got.includes('FIXED'), 'already defined here');
});

test('workflow ids for invoke; nothing where no name belongs; no throw on broken text', () => {
  assert.deepEqual(labels(text, offsetOf(text, '"checks"'), { workflowIds: ['checks', 'lint', 'full'] }), ['checks', 'lint']);
  assert.deepEqual(labels(text, offsetOf(text, 'Read the code', 0, 2)), []);
  assert.deepEqual(labels(text, offsetOf(text, '"PLANNED": "build"', 0, 18)), [], 'right after a complete value');
  for (const broken of ['', '{', '{"states": {"a": {"on": {"GO": "', '[1,2', '{"initial": 3}']) {
    for (let i = 0; i <= broken.length; i++) assert.doesNotThrow(() => labels(broken, i));
  }
});

test('offered tool names: canonical ones first, aliases described by the tool table', () => {
  const tools = toolCompletions();
  assert.deepEqual(tools.slice(0, 3).map((t) => t.name), ['Read', 'Edit', 'MultiEdit']);
  assert.equal(tools.find((t) => t.name === 'copilot_replaceString')?.detail, 'alias of Edit');
  assert.equal(tools.find((t) => t.name === 'run_in_terminal')?.detail, 'alias of Bash');
  assert.equal(new Set(tools.map((t) => t.name)).size, tools.length);
});
