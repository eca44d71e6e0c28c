/**
 * The loader's fast YAML path (formats/fast-yaml.ts) against the `yaml`
 * package's parse converted by yaml-tree.ts, which it stands in for: on every
 * text it either declines (undefined) or builds exactly the same tree: node
 * kinds, offsets, lengths, values, colon offsets, child order and parent links.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { propertyRuns } from './support/property-runs';
import { stringify } from 'yaml';
import { fastYamlTree } from '../../src/engine/formats/fast-yaml';
import { parseWithYaml } from '../../src/engine/formats/yaml-tree';
import { generateChartText } from '../../bench/generate-statechart';
import { plain } from './support/plain-tree';
import { applyTextMutation, textMutation } from './support/fuzz-harness';

const ROOT = path.join(__dirname, '..', '..');

/** Same tree as the `yaml` package's, without diagnostics, or declined. Returns whether the fast path took it. */
function agrees(text: string): boolean {
  const fast = fastYamlTree(text);
  if (fast === undefined) return false;
  const ref = parseWithYaml(text);
  assert.deepEqual(ref.diagnostics, [], `the fast path took a text the yaml package reports problems in: ${JSON.stringify(text.slice(0, 200))}`);
  assert.ok(ref.root);
  assert.deepEqual(plain(fast, undefined), plain(ref.root, undefined), JSON.stringify(text.slice(0, 300)));
  return true;
}

function yamlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => path.join(dir, f));
}

test('every statechart fixture and example: the same tree, and the fast path takes most', () => {
  const files = [...yamlFiles(path.join(ROOT, 'test', 'fixtures', 'statecharts')), ...yamlFiles(path.join(ROOT, 'examples'))];
  assert.ok(files.length >= 40, `only ${files.length} files found`);
  let taken = 0;
  for (const f of files) if (agrees(fs.readFileSync(f, 'utf8'))) taken++;
  assert.ok(taken >= files.length * 0.6, `the fast path took ${taken} of ${files.length}`);
});

test('generated charts of 10 to 1,000 nodes: taken, the same tree', () => {
  for (const n of [10, 100, 1000]) assert.ok(agrees(generateChartText(n).text), `generateChartText(${n}) declined`);
});

test('hand-picked corners: the same tree or declined', () => {
  const cases = [
    'a: 1',
    'a: 1\n',
    'a:\n',
    'a:',
    'a:  # c\nb: 2',
    // Comment lines after an empty value, less indented than it (found by the random documents below).
    '_a_aa___: null\na_a___:\n  "*_ A_A":\n#     []\n',
    'a:\n  b:\n# c\nd: 1\n',
    'a:\n  b:\n#c\n#d\n',
    'a:\n  b:\n \n# c\n',
    // A comment after an empty value, then spaces to the end of the text (failed CI on f202d6f, about 1 in 40,000).
    'a____a: #\n ',
    'x:\n  a: #\n  \n',
    '- #\n   ',
    'a: #\n\n',
    '_aa: false\n_ab: null\naaaa_:  ##\n\n',
    // ... or then a line indented less, but not at 0 (1 in 240,000 random documents).
    'x:\n  y:\n    a: # c\n  b: 1\n',
    'x:\n  - a: # c\n  - b\n',
    'x:\n  - - a\n    - # c\n  - b\n',
    'x:\n  y:\n    - # c\n  b: 1\n',
    'x:\n  a: # c\n  b: 1\n',
    // An indented comment line, then spaces ending the text (1 in 300,000 random documents).
    'a:\n  b:\n    c: 1\n  # x\n  ',
    'a:\n  b: 1\n  # x\n  ',
    'a:\n  b: 1\n# x\n  ',
    'a:\n- x\n- y\nb: 1\n',
    'a:\n  - x\n  -\n  - - y\n    - z\n  - k: v\n    j:\n      - 1\n',
    '- a\n- b',
    '- k:\n  - x\n- j: 1\n',
    'a: "q"\nb: \'it\'\'s\'\nc: "x" # c\n"d": 1\n\'e\': 2\n',
    'a: x # c\nb: x#y\nc: x:y\nd: -1\ne: -x\nf: 1.5\ng: 0x1F\nh: 0o7\ni: .inf\nj: 1e3\nk: 007\nl: +3\nm: 99999999999999999999\n',
    'a: -0\nb: 1.\nc: .5\nd: -1.5e-3\ne: 2.400314201747882e+269\nf: 1E5\ng: 1e\nh: 1.2.3\ni: 0b1\n',
    'a: true\nb: False\nc: NULL\nd: ~\ne: yes\nf: on\ng: null\n',
    'a: []\nb: {}\nc: [ ]\nd: { }  # c\ne: [1]\n',
    'a:\n  b: 1\n\n\n  # c\n  c: 2\n# d\n\n',
    'a:\n  b: 1\n # c\nd: 2\n',
    '# head\n\nstatechart:\n  id: x\n',
    '---\na: 1\n',
    'a: 1\n...\n',
    'a: &x 1\nb: *x\n',
    'a: !!str 1\n',
    'a: |\n  text\n',
    'a: >\n  text\n',
    'a:\n  b: |+\n    \n\n\nc: 1',
    'a:\n  b: |+\n    \n\n\n    x\n\n',
    'a:\n  b: |\n    \n\n\n    x\n\n\nc: 1',
    'a: |-\n  x\n\n  y\n\nb: 1',
    'a: |\n  x',
    'a: |2\n  x\n',
    'a: | # c\n  x\n',
    'a: |\n  x\n      \nb: 1\n',
    'a: |\n      \n  x\n',
    'a: |\n    x\n  y\n',
    'a: |\n  # x\n  y\n',
    '- |\n x\n-  |-\n   y\n\n   z\n  \n- 1',
    'a: b\n  c\n',
    'a: b: c\n',
    'a:\n  b: 1\n c: 2\n',
    'a:\n  b: 1\n   c: 2\n',
    ' a: 1\n',
    'a: 1\r\nb: 2\r\n',
    'a:\t1\n',
    '? a\n: 1\n',
    'a : 1\n',
    '"a" : 1\n',
    'a: "x\\ny"\n',
    'a: "x\n  y"\n',
    'a: -\n',
    'a: - x\n',
    '-\n- -\n-  - x\n',
    'a: 1\nb\n',
    'a: 1\n- b\n',
    `${'k'.repeat(1100)}: 1\n`,
    'a: "unterminated\n',
    '',
    '# only a comment\n',
    'x',
  ];
  let taken = 0;
  for (const text of cases) if (agrees(text)) taken++;
  assert.ok(taken >= 20, `the fast path took only ${taken} of ${cases.length}`);
});

const YAML_FRAGMENTS = [':', ': ', '- ', '  ', ' ', '\n', '\n  ', '#', ' #', '"', "'", '[]', '{}', '[', '{', '~', '-1', '0x1', '1.5', 'null', 'true', '*a', '&a ', '---\n', '...\n', '? ', '|', '\t'];

/** Values shaped like charts: short names and expressions, small integers, booleans, nulls, nesting. */
const chartLike: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'yaml-value' },
    fc.stringMatching(/^[a-z_][a-z_0-9.]{0,8}$/),
    fc.stringMatching(/^[a-z .>=<()'"#:\n-]{0,16}$/),
    fc.integer({ min: 1, max: 300 }).map((n) => '\n'.repeat(n)),
    fc.integer({ min: -1000, max: 100000 }),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4, depthIdentifier: 'yaml-value' }),
    fc.dictionary(fc.stringMatching(/^[a-zA-Z_*][a-zA-Z_0-9 ]{0,6}$/), tie('value'), { maxKeys: 4, depthIdentifier: 'yaml-value' }),
  ),
})).value;

test('random documents as the yaml package writes them, often broken as text: the same tree or declined', () => {
  let taken = 0;
  let runs = 0;
  fc.assert(
    fc.property(fc.oneof({ weight: 3, arbitrary: fc.dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), chartLike, { minKeys: 1, maxKeys: 5 }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) }), fc.array(textMutation(YAML_FRAGMENTS), { maxLength: 3 }), fc.boolean(), (value, mutations, blockOnly) => {
      let text = stringify(value, { lineWidth: 0, ...(blockOnly ? { collectionStyle: 'block' as const } : {}) });
      for (const m of mutations) text = applyTextMutation(text, m);
      runs++;
      if (agrees(text)) taken++;
    }),
    propertyRuns(4000),
  );
  assert.ok(taken >= runs * 0.2, `the fast path took only ${taken} of ${runs}`);
});

test('flow collections nested past 128 levels: a syntax error, without handing them to the yaml package', () => {
  // Found by the statechart fuzzer: the yaml package takes over a second on 2,000 levels, and close to the
  // stack limit (857 levels) V8 aborted the process compiling a regular expression inside it. 300 levels
  // took 60-100 ms there, over the 50 ms a check may take. A shallower document is still the package's to read.
  for (const depth of [2000, 300, 129]) {
    for (const deep of [`statechart: ${'['.repeat(depth)}${']'.repeat(depth)}\n`, `statechart:\n  context: ${'{"a": '.repeat(depth)}1${'}'.repeat(depth)}\n`]) {
      for (let i = 0; i < 2; i++) {
        const parsed = parseWithYaml(deep);
        assert.equal(parsed.root, undefined, `${depth} levels`);
        assert.deepEqual(
          parsed.diagnostics.map((d) => [d.code, d.message]),
          [['yaml-syntax', 'The YAML is nested too deeply to read.']],
        );
      }
    }
  }
  // A quote inside a plain scalar (`a"`) opens no string: counted as one, it paired with the next quote and
  // hid every bracket after it on the line (a fuzzed one-line document 2,867 levels deep aborted the process).
  const strayQuote = `{"statechart": a", "states": ${'{"a": '.repeat(300)}1${'}'.repeat(300)}}\n`;
  assert.deepEqual(
    parseWithYaml(strayQuote).diagnostics.map((d) => [d.code, d.message]),
    [['yaml-syntax', 'The YAML is nested too deeply to read.']],
  );
  const shallow = parseWithYaml(`statechart: ${'['.repeat(128)}${']'.repeat(128)}\n# ${'['.repeat(2000)}\nx: "${'{'.repeat(2000)}"\n`);
  assert.deepEqual(shallow.diagnostics, []);
  assert.equal(shallow.root?.type, 'object');
});
