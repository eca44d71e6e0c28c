/**
 * Documents nested past MAX_TREE_DEPTH are refused right after parsing, with
 * an error on the first container too deep, in every format and syntax; a
 * document at the limit is read. The checks run on this test's main thread,
 * whose stack is the size the CLI, the hook and the extension host have: a
 * Statewright document 1,877 levels deep used to overflow it in the stage
 * loader (the fuzzers ran on a worker's 4 MB stack and never saw it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { MAX_TREE_DEPTH, tooDeep } from '../../src/engine/formats/tree-depth.js';
import { parseJsonc } from '../../src/engine/formats/jsonc.js';
import { parseYamlTree } from '../../src/engine/formats/yaml-tree.js';

/** `levels` arrays, one inside the other, in JSON (also YAML's flow style). */
const arrays = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** `levels` block mappings, one inside the other, under a key indented `indent` spaces. */
function blockMaps(levels: number, indent: number): string {
  let out = '';
  for (let i = 0; i < levels; i++) out += `\n${' '.repeat(indent + 2 * i)}n:`;
  return `${out} 1`;
}

interface Row {
  readonly name: string;
  readonly file: string;
  readonly syntax: 'json-syntax' | 'yaml-syntax';
  /** How many containers enclose the nested value. */
  readonly enclosing: number;
  /** The document with a value nested `levels` deep in it, and where its first container starts. */
  readonly text: (levels: number) => { text: string; at: number };
}

function around(before: string, inner: string, after: string): { text: string; at: number } {
  return { text: before + inner + after, at: before.length };
}

const ROWS: Row[] = [
  {
    name: 'a Statewright workflow (JSON), in meta',
    file: 'deep.workflow.json',
    syntax: 'json-syntax',
    enclosing: 2,
    text: (n) => around('{"id": "x", "initial": "a", "states": {"a": {"type": "final"}}, "meta": {"x": ', arrays(n), '}}'),
  },
  {
    name: 'a Statewright workflow with stages (JSON), in a stage schema',
    file: 'deep-stages.workflow.json',
    syntax: 'json-syntax',
    enclosing: 6,
    text: (n) =>
      around(
        '{"id": "x", "initial": "a", "states": {"a": {"prompt": "p", "completion_tool": "finish", "completion_schema": {"type": "object", "properties": {"p": {"items": ',
        arrays(n),
        '}}}, "on": {"DONE": "done"}}, "done": {"type": "final"}}}',
      ),
  },
  {
    name: 'a statechart (JSON), in context',
    file: 'deep.statechart.json',
    syntax: 'json-syntax',
    enclosing: 3,
    text: (n) => around('{"statechart": {"initial": "a", "states": {"a": {}}, "context": {"x": ', arrays(n), '}}}'),
  },
  {
    name: 'a statechart (YAML, block mappings), in context',
    file: 'deep.statechart.yaml',
    syntax: 'yaml-syntax',
    enclosing: 3,
    text: (n) => {
      // Block mappings start at their first key: the first container too deep begins at its `n`.
      const before = 'statechart:\n  initial: a\n  states: {a: {}}\n  context:\n    x:';
      const inner = blockMaps(n, 6);
      return { text: `${before}${inner}\n`, at: before.length };
    },
  },
  {
    name: 'a flow (JSON), in a state’s arguments',
    file: 'deep.flow.json',
    syntax: 'json-syntax',
    enclosing: 4,
    text: (n) => around('{"start-at": "a", "states": {"a": {"tool": "bash", "arguments": {"command": ', arrays(n), '}}}}'),
  },
];

/** Where the first container too deep starts, for a row whose nested value is `levels` deep. */
function firstTooDeep(row: Row, levels: number): number {
  const { text, at } = row.text(levels);
  const index = MAX_TREE_DEPTH - row.enclosing; // 0-based: the (MAX+1)th container overall
  if (row.syntax === 'yaml-syntax') {
    // The nth nested mapping starts at the nth `n:` key of the value.
    let offset = at;
    for (let i = 0; i <= index; i++) offset = text.indexOf('n:', offset + (i === 0 ? 0 : 1));
    return offset;
  }
  return at + index;
}

for (const row of ROWS) {
  test(`tree depth: ${row.name}: ${MAX_TREE_DEPTH} levels are read, one more is refused where it starts`, () => {
    const atLimit = row.text(MAX_TREE_DEPTH - row.enclosing).text;
    const read = checkWorkflowFile(atLimit, row.file, { resolveInvoke: false });
    assert.deepEqual(
      read.diagnostics.filter((d) => /nests objects and arrays/.test(d.message)),
      [],
      'a document at the limit is read',
    );
    const over = MAX_TREE_DEPTH - row.enclosing + 1;
    const { text } = row.text(over);
    const refused = checkWorkflowFile(text, row.file, { resolveInvoke: false });
    assert.equal(refused.workflow, undefined, 'nothing is loaded');
    const deep = refused.diagnostics.filter((d) => /nests objects and arrays/.test(d.message));
    assert.equal(deep.length, 1, JSON.stringify(refused.diagnostics));
    assert.equal(deep[0]!.code, row.syntax);
    assert.equal(deep[0]!.severity, 'error');
    assert.equal(deep[0]!.loc.start, firstTooDeep(row, over), 'on the first container too deep');
    assert.equal(deep[0]!.loc.end, deep[0]!.loc.start + 1);
  });

  test(`tree depth: ${row.name}: thousands of levels, checked on a main thread's stack, give an error, never a throw`, () => {
    for (const levels of [1877, 3000, 20_000]) {
      const { text } = row.text(levels);
      let result: ReturnType<typeof checkWorkflowFile> | undefined;
      assert.doesNotThrow(() => {
        result = checkWorkflowFile(text, row.file, { resolveInvoke: false });
      }, `${levels} levels`);
      assert.equal(result!.workflow, undefined);
      assert.ok(
        result!.diagnostics.some((d) => d.code === row.syntax && d.severity === 'error'),
        `${levels} levels: ${JSON.stringify(result!.diagnostics.slice(0, 3))}`,
      );
    }
  });
}

test('tree depth: a property is not a level, every object and array is one', () => {
  assert.equal(tooDeep(parseJsonc(arrays(MAX_TREE_DEPTH)).root!), undefined);
  const objects = (n: number) => `${'{"a": '.repeat(n)}1${'}'.repeat(n)}`;
  assert.equal(parseJsonc(objects(MAX_TREE_DEPTH)).diagnostics.length, 0);
  assert.equal(parseJsonc(objects(MAX_TREE_DEPTH + 1)).diagnostics.length, 1);
  assert.equal(parseJsonc(objects(MAX_TREE_DEPTH + 1)).root, undefined);
  // Scalars at the deepest level do not count.
  assert.equal(parseJsonc(`${'['.repeat(MAX_TREE_DEPTH)}1, "x", null${']'.repeat(MAX_TREE_DEPTH)}`).diagnostics.length, 0);
});

test('tree depth: the first container too deep in document order is the one named', () => {
  // Two deep branches; the first one in the text is reported.
  const branch = (n: number) => arrays(n);
  const text = `{"a": ${branch(MAX_TREE_DEPTH + 5)}, "b": ${branch(MAX_TREE_DEPTH + 50)}}`;
  const d = parseJsonc(text).diagnostics;
  assert.equal(d.length, 1);
  assert.equal(d[0]!.loc.start, '{"a": '.length + MAX_TREE_DEPTH - 1);
});

test('tree depth: broken JSON is measured too (the slow parser’s tree)', () => {
  const text = `{"a": ${'['.repeat(MAX_TREE_DEPTH + 3)}`; // never closed
  const d = parseJsonc(text).diagnostics;
  assert.ok(d.some((x) => /nests objects and arrays/.test(x.message)), JSON.stringify(d.slice(0, 3)));
  assert.ok(d.some((x) => /closing bracket/.test(x.message)));
});

test('tree depth: YAML read by the yaml package (an anchor makes it leave the fast path) is measured too', () => {
  const text = `statechart:\n  initial: a\n  states: {a: {}}\n  context: &c\n    x:${blockMaps(MAX_TREE_DEPTH, 6)}\n`;
  const parsed = parseYamlTree(text);
  assert.equal(parsed.root, undefined);
  assert.ok(parsed.diagnostics.some((d) => d.code === 'yaml-syntax' && /nests objects and arrays/.test(d.message)));
});
