/**
 * A YAML text longer than MAX_YAML_LENGTH (formats/yaml-size.ts) gets one
 * error saying so, in every YAML format and whatever the file is called, and
 * is not handed to the `yaml` package; a text exactly at the limit is read.
 * JSON has no such limit. The long texts are one long comment, so the rows
 * that are read stay fast.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { parseYamlTree } from '../../src/engine/formats/yaml-tree.js';
import { MAX_YAML_LENGTH } from '../../src/engine/formats/yaml-size.js';

const STATECHART = 'statechart:\n  id: c\n  initial: a\n  states:\n    a: {type: final}\n';
const STATEWRIGHT = 'id: w\nname: w\ninitial: a\nstates:\n  a: {type: final}\n';
const FLOW = 'name: f\nstart-at: a\nstates:\n  a: {tool: t}\n';

/** `body` after a comment that makes the whole text `length` characters long. */
function padded(body: string, length: number): string {
  return `#${'x'.repeat(length - body.length - 2)}\n${body}`;
}

interface Row {
  readonly name: string;
  readonly file: string;
  readonly text: string;
  /** Whether the text is over the limit (one error) or not (read: no size error). */
  readonly over: boolean;
}

const ROWS: Row[] = [
  { name: 'a statechart one character over', file: 'big.statechart.yaml', text: padded(STATECHART, MAX_YAML_LENGTH + 1), over: true },
  { name: 'a statechart at the limit', file: 'big.statechart.yaml', text: padded(STATECHART, MAX_YAML_LENGTH), over: false },
  { name: 'a statechart in a plain .yaml name (read by its content)', file: 'big.yaml', text: padded(STATECHART, MAX_YAML_LENGTH + 1), over: true },
  { name: 'a Statewright workflow in a plain .yml name', file: 'big.yml', text: padded(STATEWRIGHT, MAX_YAML_LENGTH + 1), over: true },
  { name: 'a flow', file: 'big.flow.yaml', text: padded(FLOW, MAX_YAML_LENGTH + 1), over: true },
  { name: 'a flow at the limit', file: 'big.flow.yaml', text: padded(FLOW, MAX_YAML_LENGTH), over: false },
  { name: 'a statechart given as text with no file name', file: '', text: padded(STATECHART, MAX_YAML_LENGTH + 1), over: true },
];

const isSizeError = (message: string) => message.includes(`at most ${MAX_YAML_LENGTH.toLocaleString('en-US')} characters`);

for (const row of ROWS) {
  test(`yaml size cap: ${row.name}`, () => {
    const result = checkWorkflowFile(row.text, row.file || undefined as unknown as string, { resolveSrc: false });
    const sized = result.diagnostics.filter((d) => isSizeError(d.message));
    if (row.over) {
      // Exactly one diagnostic: the size, with the length and what to do; nothing about missing fields or the format.
      assert.equal(result.diagnostics.length, 1, JSON.stringify(result.diagnostics.map((d) => d.message)));
      assert.equal(sized.length, 1);
      const d = sized[0]!;
      assert.equal(d.severity, 'error');
      assert.equal(d.code, 'yaml-syntax');
      assert.match(d.message, new RegExp(`${row.text.length.toLocaleString('en-US')} characters long`));
      assert.match(d.message, /JSON/);
      assert.deepEqual([d.loc?.start, d.loc?.end], [0, 1]);
      assert.equal(result.workflow, undefined);
    } else {
      assert.deepEqual(sized, []);
      assert.ok(result.workflow, `read at the limit: ${JSON.stringify(result.diagnostics.map((d) => d.message))}`);
    }
  });
}

test('yaml size cap: parseYamlTree itself gives no tree and the one error past the limit (agents files, registries, the editor read through it)', () => {
  const over = parseYamlTree(padded('a: 1\n', MAX_YAML_LENGTH + 1));
  assert.equal(over.root, undefined);
  assert.deepEqual(over.diagnostics.map((d) => isSizeError(d.message)), [true]);
  const at = parseYamlTree(padded('a: 1\n', MAX_YAML_LENGTH));
  assert.equal(at.root?.type, 'object');
  assert.deepEqual(at.diagnostics, []);
});

test('yaml size cap: JSON of the same length is read (it has no such limit)', () => {
  const json = JSON.stringify({ statechart: { id: 'c', initial: 'a', description: 'x'.repeat(MAX_YAML_LENGTH), states: { a: { type: 'final' } } } });
  const result = checkWorkflowFile(json, 'big.statechart.json', { resolveSrc: false });
  assert.ok(result.workflow, JSON.stringify(result.diagnostics.map((d) => d.message)));
  assert.equal(result.diagnostics.filter((d) => isSizeError(d.message)).length, 0);
});
