import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import {
  codeLenses,
  completionsAt,
  definitionAt,
  documentSymbols,
  hoverAt,
  prepareRename,
  quickFixes,
  referencesAt,
  renameAt,
  applyEdits,
} from '../../src/engine/language/index.js';
import { fixtureText } from '../e2e/fixtures/authoring/fixtures.js';

const schema: unknown = JSON.parse(readFileSync('schemas/workflow-schema.json', 'utf8'));

/** Every service call at a spread of offsets; none may throw, whatever the text. */
function exercise(text: string): void {
  const { workflow: wf, diagnostics } = checkWorkflowFile(text, 'x.workflow.json', { resolveInvoke: false });
  for (const d of diagnostics) quickFixes(text, wf, d);
  const step = Math.max(1, Math.floor(text.length / 60));
  for (let offset = 0; offset <= text.length; offset += step) {
    completionsAt(text, wf, offset, { tools: [{ name: 'Read' }], workflowIds: ['x'] });
    if (!wf) continue;
    hoverAt(text, wf, offset, { schema, resolve: () => undefined });
    definitionAt(wf, offset, { text });
    referencesAt(wf, offset, true, { text, invocations: () => [] });
    prepareRename(text, wf, offset);
    renameAt(text, wf, offset, 'renamed');
  }
  if (wf) {
    documentSymbols(wf);
    codeLenses(wf, { diagram: true });
  }
}

test('no service call throws on any prefix of a workflow (text as it is being typed)', () => {
  const text = fixtureText('full.workflow.json');
  for (let end = 0; end <= text.length; end += 13) assert.doesNotThrow(() => exercise(text.slice(0, end)), `prefix ${end}`);
});

test('no service call throws on odd documents', () => {
  const odd = [
    '',
    'null',
    '[]',
    '{"definition": {"id": "w", "initial": "a", "states": {"a": {"type": "final"}}}}',
    '{"states": []}',
    '{"id": 1, "initial": {}, "states": {"a": 3, "b": {"on": 7}, "c": {"on": {"X": [1, {"target": 2}], "Y": {"fork": 1}, "Z": {"invoke": 3}}}}, "guards": [], "interrupts": {"i": 1}, "meta": {"failure_states": "x"}}',
    '{"id": "w", "initial": "a", "states": {"a": {"on": {"GO": "$return"}}}, "meta": {"failure_states": ["a", 1]}} // trailing',
    '{"id": "w", "initial": "a", "states": {"a": {"on": {"GO": "a\\"b", "\\u0041": "a"}}}}',
  ];
  for (const text of odd) assert.doesNotThrow(() => exercise(text), text);
});

test('no service call throws on documents nested thousands of levels deep (refused, nothing offered inside)', () => {
  for (const levels of [300, 3000, 20_000]) {
    const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const text = `{"id": "x", "initial": "a", "states": {"a": {"type": "final"}}, "meta": {"x": ${deep}}}`;
    assert.doesNotThrow(() => exercise(text), `${levels} levels`);
    const inside = text.indexOf('[') + levels;
    assert.deepEqual(completionsAt(text, undefined, inside, { tools: [{ name: 'Read' }], workflowIds: ['x'] }), [], `${levels} levels: nothing is offered inside`);
  }
});

test('a gateway-wrapped workflow: completion and rename work below `definition`', () => {
  const text = '{"definition": {"id": "w", "initial": "a", "states": {"a": {"on": {"GO": "b"}}, "b": {"type": "final"}}}, "upstream_servers": []}';
  const { workflow: wf } = checkWorkflowFile(text, 'gw.json', { resolveInvoke: false });
  assert.ok(wf);
  assert.deepEqual(completionsAt(text, wf, text.indexOf('"b"}') + 1).map((c) => c.label), ['a', 'b']);
  const r = renameAt(text, wf, text.indexOf('"b"}') + 1, 'end');
  assert.ok('edits' in r && r.edits.length === 2);

  const nofinal = '{\n  "definition": {\n    "id": "w",\n    "initial": "a",\n    "states": {\n      "a": { "on": { "GO": "b" } },\n      "b": {}\n    }\n  }\n}';
  const checked = checkWorkflowFile(nofinal, 'gw.json', { resolveInvoke: false });
  const d = checked.diagnostics.find((x) => x.code === 'no-final-state');
  assert.ok(d);
  const [fix] = quickFixes(nofinal, checked.workflow, d);
  assert.ok(fix);
  const fixed = applyEdits(nofinal, fix.edits);
  assert.deepEqual(checkWorkflowFile(fixed, 'gw.json', { resolveInvoke: false }).diagnostics, [], fixed);
});
