/**
 * AliasTargets (formats/yaml-anchors.ts) finds every alias's node in one walk
 * instead of the `yaml` package's `Alias.resolve(doc)`, which walks the whole
 * document per alias. Held equal here to `Alias.resolve`: the same node (by
 * identity) for every alias, on hand-written
 * corner cases (redefined anchors, an alias before its anchor, inside its own
 * anchor, anchors on keys and on pairs in flow sequences) and on generated
 * documents mixing anchors and aliases at random.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { propertyRuns } from './support/property-runs';
import { parseDocument, visit, type Alias } from 'yaml';
import { AliasTargets } from '../../src/engine/formats/yaml-anchors.js';
import { parseWithYaml } from '../../src/engine/formats/yaml-package';

const options = { uniqueKeys: false, prettyErrors: false };

/** Every alias of `text` resolves to the node the package's own resolve gives; returns how many aliases there were. */
function check(text: string): number {
  const doc = parseDocument(text, options);
  const aliases: Alias[] = [];
  visit(doc, { Alias: (_key, node) => void aliases.push(node) });
  const targets = new AliasTargets(doc);
  for (const alias of aliases) assert.equal(targets.resolve(alias), alias.resolve(doc), `alias *${alias.source} in ${JSON.stringify(text)}`);
  return aliases.length;
}

test('AliasTargets: corner cases resolve as Alias.resolve does', () => {
  const cases = [
    'a: &x 1\nb: *x\n',
    'a: *x\nb: &x 1\n',
    'a: &x 1\nb: &x 2\nc: *x\n',
    'a: &x\n  b: *x\n',
    '&k key: v\nother: *k\n',
    '? &k [a, b]\n: *k\n',
    '[&p a: b, *p, {&q c: *p}, *q]\n',
    '- &x a\n- [&x b, *x]\n- *x\n- *y\n',
    '{a: &x [*x, &y {b: *y}], c: *y}\n',
    'statechart:\n  id: &id c\n  initial: *id\n  states: {c: {type: final}}\n',
  ];
  let total = 0;
  for (const text of cases) total += check(text);
  assert.equal(total, 16); // every case has aliases to compare
});

test('AliasTargets: generated documents with anchors and aliases resolve as Alias.resolve does', () => {
  const name = fc.constantFrom('a', 'b', 'c');
  const anchor = fc.option(name.map((n) => `&${n} `), { nil: '' });
  const value: fc.Arbitrary<string> = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.tuple(anchor, fc.constantFrom('x', '1', 'null')).map(([a, s]) => a + s),
      name.map((n) => `*${n}`),
      fc.tuple(anchor, fc.array(tie('node'), { maxLength: 4 })).map(([a, items]) => `${a}[${items.join(', ')}]`),
      fc.tuple(anchor, fc.array(fc.tuple(anchor, name, tie('node')), { maxLength: 4 })).map(
        ([a, pairs]) => `${a}{${pairs.map(([ka, k, v]) => `${ka}${k}: ${v}`).join(', ')}}`,
      ),
    ),
  })).node;
  fc.assert(fc.property(value, (text) => void check(text)), propertyRuns(500));
});

test('parseWithYaml reads aliases as before: a value, an unknown anchor, an alias inside its own anchor', () => {
  const parsed = parseWithYaml('a: &x [1]\nb: *x\nc: *nope\nd: &y [*y]\n');
  assert.deepEqual(
    parsed.diagnostics.map((d) => d.message),
    ['This alias names no anchor; it is read as null.', 'This alias refers to a node that contains it; it is read as null.'],
  );
  const b = parsed.root?.children?.[1]?.children?.[1];
  assert.equal(b?.type, 'array');
  assert.equal(b?.children?.[0]?.value, 1);
});
