import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { hoverAt } from '../../src/engine/language/hover.js';
import { guardInWords } from '../../src/engine/language/describe.js';
import { fieldDoc } from '../../src/engine/language/schema-docs.js';
import { load, offsetOf } from '../e2e/fixtures/authoring/fixtures.js';

const { text, wf } = load('full.workflow.json');
const schema: unknown = JSON.parse(readFileSync('schemas/workflow-schema.json', 'utf8'));

test('hover on a state summarises it: instructions, tools, out, in', () => {
  const h = hoverAt(text, wf, offsetOf(text, '"review", "guard"'));
  assert.ok(h);
  assert.equal(text.slice(h.loc.start, h.loc.end), 'review');
  for (const part of ['**state** `review`', 'Review the change.', 'Allowed tools: `Read`', '**Out**', '`APPROVED` → `done`', '**In**', '`plan` on `SKIP`', '`build` on `CHECK` (on_complete)']) {
    assert.ok(h.markdown.includes(part), `${part} in:\n${h.markdown}`);
  }
});

test('hover on a guarded transition target shows guards; on a handler shows its interrupt', () => {
  const plan = hoverAt(text, wf, offsetOf(text, '"plan": {'))?.markdown ?? '';
  assert.match(plan, /`SKIP` → `review` if `has_plan` and `is_small`/);
  assert.match(plan, /\(initial\)/);
  const fix = hoverAt(text, wf, offsetOf(text, '"fix_env": {'))?.markdown ?? '';
  assert.match(fix, /handler of interrupt `env_changed` \(`\*\*\/\*\.env\*`\)/);
});

test('guard predicates in words', () => {
  const cases: Array<[op: string, value: unknown, words: RegExp]> = [
    ['eq', true, /^`f` equals `true`$/],
    ['neq', 'x', /does not equal `"x"` \(false when the field is missing\)/],
    ['gt', 3, /is a number greater than `3`/],
    ['lte', 3, /less than or equal to `3`/],
    ['exists', undefined, /is set/],
    ['not_exists', undefined, /missing or null/],
    ['in', ['a', 'b'], /is one of `\["a","b"\]`/],
    ['contains', 'x', /contains `"x"`/],
  ];
  for (const [op, value, words] of cases) {
    assert.match(guardInWords({ field: 'f', op: op as never, ...(value === undefined ? {} : { value: value as never }) }), words, op);
  }
  const h = hoverAt(text, wf, offsetOf(text, '"tests_green"'));
  assert.match(h?.markdown ?? '', /passes when `tests_passed` equals `true`\.\n\nUsed by `build` on `BUILT`/);
});

test('hover on a field shows the schema description', () => {
  const h = hoverAt(text, wf, offsetOf(text, '"disallowed_tools"'), { schema });
  assert.match(h?.markdown ?? '', /^\*\*disallowed_tools\*\*\n\n/);
  assert.equal(hoverAt(text, wf, offsetOf(text, '"disallowed_tools"')), undefined, 'no schema, no doc');
  const cases: Array<[path: (string | number)[], doc: RegExp]> = [
    [['initial'], /state a run starts in/i],
    [['states', 'x', 'allowed_tools'], /Tools the agent may use/],
    [['states', 'x', 'allowed_tools', 0], /tool name/i],
    [['guards', 'g', 'op'], /./],
    [['interrupts', 'i', 'trigger', 'file_pattern'], /./],
  ];
  for (const [path, doc] of cases) assert.match(fieldDoc(schema, path) ?? '', doc, path.join('/'));
  assert.equal(fieldDoc(schema, ['nope']), undefined);
  assert.equal(fieldDoc(undefined, ['initial']), undefined);
});

test('hover on events, invokes and interrupts', () => {
  assert.match(hoverAt(text, wf, offsetOf(text, '"CHECK"'))?.markdown ?? '', /runs `checks`, then `review`, on failure `failed`/);
  assert.match(hoverAt(text, wf, offsetOf(text, '"checks"'))?.markdown ?? '', /no workflow with this id/);
  const resolved = hoverAt(text, wf, offsetOf(text, '"checks"'), { resolve: () => ({ workflow: { ...wf, name: 'Checks' }, file: 'checks.workflow.json' }) });
  assert.match(resolved?.markdown ?? '', /\*\*invokes\*\* `checks`: Checks[\s\S]*Defined in `checks.workflow.json`/);
  assert.match(hoverAt(text, wf, offsetOf(text, '"env_changed"'))?.markdown ?? '', /matching `\*\*\/\*\.env\*` is written, moves to `fix_env`/);
  assert.match(hoverAt(text, wf, offsetOf(text, '"$return"', 0, 3))?.markdown ?? '', /goes back to the state the active interrupt fired in/);
});
