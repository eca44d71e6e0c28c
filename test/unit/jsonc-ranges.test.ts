/**
 * jsonc-parser ends an unterminated block comment one character past the end
 * of the text, and the nodes it closes there take that end. Every range the
 * loader, the checks and the language services hand out must stay inside the
 * text all the same (the fuzzer found an `invalid-type` on 142..165 in a
 * 164-character document, seed 899881064).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTree, type Node } from 'jsonc-parser';
import { parseJsoncTree } from '../../src/engine/formats/jsonc.js';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { failureStateRefs } from '../../src/engine/language/text-refs.js';
import { setValue } from '../../src/engine/language/edits.js';

function nodes(root: Node | undefined): Node[] {
  const out: Node[] = [];
  const walk = (n: Node): void => {
    out.push(n);
    for (const c of n.children ?? []) walk(c);
  };
  if (root) walk(root);
  return out;
}

function assertInside(text: string, start: number, end: number, what: string): void {
  assert.ok(0 <= start && start <= end && end <= text.length, `${what}: ${start}..${end} outside a text of ${text.length}`);
}

const CASES: Array<{ name: string; text: string }> = [
  { name: 'a comment opened after a key', text: '{"a": {"b":/*' },
  { name: 'a comment opened in an array', text: '{"a": [1, /*' },
  { name: 'a comment holding text, never closed', text: '{"a": {"b": 1 /* still open\n' },
  { name: 'the whole text a comment', text: '/*' },
  {
    name: "the fuzzer's document (seed 899881064)",
    text:
      '{\n  "id": "adr-record",\n  "initial": "record",\n  "states": {\n    "record": {\n      "allowed_tools":     "Bash"\n      ],\n' +
      '      "instructions": {\n        "=8\\",]w":/*',
  },
  {
    name: 'a workflow whose failure_states list is cut by a comment',
    text: '{"id": "w", "initial": "a", "states": {"a": {"type": "final"}}, "meta": {"failure_states": ["a" /*',
  },
];

for (const { name, text } of CASES) {
  test(`jsonc ranges: ${name}`, () => {
    for (const n of nodes(parseJsoncTree(text))) assertInside(text, n.offset, n.offset + n.length, `${n.type} node`);
    const { diagnostics } = checkWorkflowFile(text, 'x.workflow.json', { resolveInvoke: false });
    assert.ok(diagnostics.length > 0, 'an unterminated comment is an error');
    for (const d of diagnostics) assertInside(text, d.loc.start, d.loc.end, `${d.code} "${d.message}"`);
  });
}

test('jsonc ranges: the package itself still runs past the end (when it stops, the clamp can go)', () => {
  const text = '{"a": {"b":/*';
  const raw = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  assert.ok(nodes(raw).some((n) => n.offset + n.length > text.length));
});

test('jsonc ranges: an object closed at the cut comment keeps its start and ends at the end of the text', () => {
  const text = '{"a": {"b":/*';
  const inner = nodes(parseJsoncTree(text)).find((n) => n.type === 'object' && n.offset === 6);
  assert.ok(inner);
  assert.equal(inner.offset + inner.length, text.length);
});

test('jsonc ranges: the instructions diagnostic of the fuzzed document ends at the end of the text', () => {
  const text = CASES[4]!.text;
  const d = checkWorkflowFile(text, 'x.workflow.json').diagnostics.find((x) => x.loc.pointer === '/states/record/instructions');
  assert.ok(d, 'the object-valued instructions are reported');
  assert.equal(d.code, 'invalid-type');
  assert.equal(d.loc.start, text.indexOf('{', text.indexOf('"instructions"')));
  assert.equal(d.loc.end, text.length);
});

test('jsonc ranges: language edits and references on a text ending in an open comment stay inside it', () => {
  const text = CASES[5]!.text;
  const { workflow } = checkWorkflowFile(text, 'x.workflow.json', { resolveInvoke: false });
  if (workflow) for (const r of failureStateRefs(text, workflow)) assertInside(text, r.loc.start, r.loc.end, `reference ${r.name}`);
  for (const e of setValue(text, workflow, ['meta', 'failure_states'], ['a'])) assertInside(text, e.start, e.end, 'edit');
  for (const e of setValue(text, workflow, ['meta'], undefined)) assertInside(text, e.start, e.end, 'removal');
});
