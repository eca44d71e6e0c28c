import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { flowCompletions, flowDefinition, flowFixes, flowHover, flowLenses, flowOutline, flowPrepare, flowReferences, flowRename, subFlowLoader } from '../../src/engine/language/index.js';
import { releaseFlow } from './helpers/flow-doc.js';

const schema: unknown = JSON.parse(readFileSync('schemas/flow-schema.json', 'utf8'));

/** Every service call at a spread of offsets; none may throw, whatever the text. */
function exercise(text: string, file: string): void {
  const { workflow, diagnostics } = checkWorkflowFile(text, file);
  const doc = workflow ? { text, file, workflow } : { text, file };
  for (const d of diagnostics) flowFixes(doc, d);
  flowOutline(doc);
  flowLenses(doc);
  const load = subFlowLoader(file);
  const step = Math.max(1, Math.floor(text.length / 40));
  for (let offset = 0; offset <= text.length; offset += step) {
    flowCompletions(doc, offset, load);
    flowHover(doc, offset, schema);
    flowDefinition(doc, offset);
    flowReferences(doc, offset, true);
    flowPrepare(doc, offset);
    flowRename(doc, offset, 'renamed');
  }
}

test('the flow language service never throws on a flow being typed (every prefix, YAML and JSON)', () => {
  for (const form of ['yaml', 'json'] as const) {
    const { text, file } = releaseFlow(form);
    const step = form === 'yaml' ? 53 : 89;
    for (let end = 0; end <= text.length; end += step) assert.doesNotThrow(() => exercise(text.slice(0, end), file!), `${form} prefix of ${end}`);
  }
});

test('the flow language service never throws on odd but loadable flows', () => {
  const odd = [
    'start-at: a\nstates:\n  a:\n    tool: parallel\n    arguments:\n      tasks: nope\n',
    'start-at: a\nstates:\n  a:\n    tool: sub-flow\n    arguments:\n      workflow: "{{ which }}"\n    output: var()\n',
    'start-at: a\nstates:\n  a:\n    tool: bash\n    arguments:\n      command: [ "{{ x::y }}", { deep: "{{ }}" } ]\n    on-error: { nope: a, 1: b }\n',
    '{"start-at": "a", "states": {"a": {"tool": 3, "arguments": {"command": "\\u007b{ x }}"}}}}',
  ];
  for (const text of odd) assert.doesNotThrow(() => exercise(text, text.startsWith('{') ? 'odd.flow.json' : 'odd.flow.yaml'), text);
});

test('the flow language service never throws on flows nested thousands of levels deep (JSON and flow YAML)', () => {
  for (const levels of [300, 3000, 20_000]) {
    const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const rows: Array<[string, string]> = [
      ['x.flow.json', `{"start-at": "a", "states": {"a": {"tool": "bash", "arguments": {"command": ${deep}}}}}`],
      ['x.flow.yaml', `start-at: a\nstates:\n  a:\n    tool: bash\n    arguments: {command: ${deep}}\n`],
    ];
    for (const [file, text] of rows) assert.doesNotThrow(() => exercise(text, file), `${file}, ${levels} levels`);
  }
});
