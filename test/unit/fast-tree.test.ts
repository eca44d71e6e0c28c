/**
 * The loader's fast JSON path (formats/fast-tree.ts) against jsonc-parser, the
 * library it stands in for: on every text it either declines (undefined, and
 * jsonc-parser parses) or builds exactly jsonc-parser's tree: node kinds,
 * offsets, lengths, values, colon offsets, child order and parent links.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { propertyRuns } from './support/property-runs';
import { parseTree, type Node } from 'jsonc-parser';
import { fastParseTree } from '../../src/engine/formats/fast-tree';
import { generateFlat, generateWorkflow } from '../../bench/generate';
import { plain } from './support/plain-tree';
import { requireShared } from './helpers/shared-material';

const ROOT = path.join(__dirname, '..', '..');

function reference(text: string): Node | undefined {
  return parseTree(text, [], { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
}

/** Same tree as jsonc-parser, or declined. Returns whether the fast path took it. */
function agrees(text: string): boolean {
  const fast = fastParseTree(text);
  if (fast === undefined) return false;
  const ref = reference(text);
  assert.ok(ref, 'the fast path built a tree where jsonc-parser built none');
  assert.deepEqual(plain(fast, undefined), plain(ref, undefined));
  return true;
}

function jsonFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).map((f) => path.join(dir, f));
}

/** Every file has the same tree, and the fast path takes nearly all (they are plain JSON; a fast path that declined everything would agree vacuously). */
function agreesOnFiles(files: readonly string[], atLeast: number): void {
  assert.ok(files.length >= atLeast, `only ${files.length} files found`);
  let taken = 0;
  for (const f of files) if (agrees(fs.readFileSync(f, 'utf8'))) taken++;
  assert.ok(taken >= files.length * 0.8, `the fast path took ${taken} of ${files.length}`);
}

test('every workflow file in the examples and the fixtures: the same tree, and the fast path takes them', () => {
  agreesOnFiles([...jsonFiles(path.join(ROOT, 'examples')), ...jsonFiles(path.join(ROOT, 'test', 'fixtures', 'workflows'))], 20);
});

const corpus = requireShared('corpus');
test('every workflow file in the corpus: the same tree, and the fast path takes them', { skip: corpus.skip }, () => {
  agreesOnFiles(jsonFiles(corpus.dir), 17);
});

test('generated workflows of 10 to 1,000 states: the same tree', () => {
  for (const n of [10, 100, 1000]) {
    assert.ok(agrees(generateWorkflow(n).text), `generateWorkflow(${n}) declined`);
    assert.ok(agrees(generateFlat(n)), `generateFlat(${n}) declined`);
  }
});

const edgeCases: string[] = [
  '{}', '[]', '0', '-0', '1e5', '-1.5E-3', 'true', 'null', '"x"', '  {"a" : 1 }  ',
  '{"a": [1, 2, ], }', '// c\n{"a": /* b */ 1}', '{"a": "\\u00e9\\n\\t\\"\\\\"}', '{"a": "é 漢字 🙂"}',
  '{"a": 1, "a": 2}', '{"": {"": []}}', '\ufeff{"a": 1}', '{"a": 1}\r\n', '{"a"\n:\n1}',
  // Not well formed: declined or the same tree; never a different tree.
  '{"a": }', '{"a" 1}', '{"a": 1,, }', '[1 2]', '{"a": tru}', '{"a": "x\ny"}', '{"a": 01}', '{"a": .5}', '{"a": 1', '', '   ', '/* */', '{"a": "\\x"}', '{"a": NaN}',
];
for (const text of edgeCases) {
  test(`edge case ${JSON.stringify(text)}: the same tree or declined`, () => {
    agrees(text);
  });
}

const anyJson = fc.jsonValue({ maxDepth: 4 });
const layout = fc.record({ indent: fc.constantFrom(undefined, 0, 2, '\t'), comment: fc.boolean(), trailing: fc.boolean() });

test('property: any JSON value in any layout, with comments and trailing commas, gives the same tree', () => {
  fc.assert(
    fc.property(anyJson, layout, (value, { indent, comment, trailing }) => {
      let text = JSON.stringify(value, null, indent);
      if (trailing) text = text.replace(/([\]}"\d])(\s*)([\]}])/g, '$1,$2$3');
      if (comment) text = `// leading\n${text.replace(/\n/g, ' /* c */\n')}`;
      agrees(text);
    }),
    propertyRuns(2000),
  );
});

test('property: a workflow text with one character deleted, replaced or inserted never gives a different tree', () => {
  const base = generateWorkflow(10).text;
  fc.assert(
    fc.property(fc.nat(base.length - 1), fc.constantFrom('', ' ', '"', ',', '}', ']', '{', ':', '\\', '\n', '/', '0', 'e', '\u0001'), fc.boolean(), (at, ch, insert) => {
      agrees(base.slice(0, at) + ch + base.slice(insert ? at : at + 1));
    }),
    propertyRuns(3000),
  );
});
