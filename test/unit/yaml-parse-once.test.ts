/**
 * One check reads a YAML text through the `yaml` package once, though the
 * format is sniffed from the content, matched against the file's name and
 * then loaded (formats/yaml-tree.ts keeps the last parse): the package's
 * parse is most of a check's time. A different text is parsed anew, and the
 * caller's diagnostics list is its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as yaml from 'yaml';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { parseYamlTree } from '../../src/engine/formats/yaml-tree.js';

/** How many times the package's parseDocument runs during `run`. */
function parses(run: () => void): number {
  // The module's own exports object (an ES namespace's bindings cannot be replaced); yaml-package.ts calls through it.
  const api = require('yaml') as { parseDocument: typeof yaml.parseDocument };
  const real = api.parseDocument;
  let count = 0;
  api.parseDocument = ((...args: Parameters<typeof yaml.parseDocument>) => {
    count++;
    return real(...args);
  }) as typeof yaml.parseDocument;
  try {
    run();
  } finally {
    api.parseDocument = real;
  }
  return count;
}

const chart = (id: string) => `statechart:\n  id: ${id}\n  initial: a\n  states:\n    a: {type: final}\n`;

const ROWS = [
  { file: 'once.statechart.yaml', text: chart('typed') },
  { file: 'once.yaml', text: chart('plain') },
  { file: 'once.yml', text: 'id: w\nname: w\ninitial: a\nstates:\n  a: {type: final}\n' },
  { file: 'once.flow.yaml', text: 'name: f\nstart-at: a\nstates:\n  a: {tool: t}\n' },
];

for (const row of ROWS) {
  test(`yaml parse once: checking ${row.file} parses its text once`, () => {
    assert.equal(parses(() => checkWorkflowFile(row.text, row.file, { resolveSrc: false })), 1);
  });
}

test('yaml parse once: another text is parsed anew, and each caller gets a list of its own', () => {
  const a = checkWorkflowFile(chart('first'), 'a.statechart.yaml', { resolveSrc: false });
  const b = checkWorkflowFile(chart('second'), 'a.statechart.yaml', { resolveSrc: false });
  assert.deepEqual([a.workflow?.id, b.workflow?.id], ['first', 'second']);
  const broken = 'a: [1\n';
  const one = parseYamlTree(broken);
  one.diagnostics.push({ severity: 'error', code: 'x', message: 'added by a caller', loc: { pointer: '', start: 0, end: 0 } });
  const two = parseYamlTree(broken);
  assert.ok(two.diagnostics.length > 0 && two.diagnostics.every((d) => d.message !== 'added by a caller'));
});
