/**
 * Reader.entries (formats/reader.ts) fills an exactly sized array instead of
 * pushing, and moves entries up itself when a key repeats. Held equal here to
 * the plain version it replaced (push, and splice out the earlier occurrence):
 * the same entries in the same order, the same duplicate reports, for objects
 * with few keys (found by a scan) and many (found with a Map).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { propertyRuns } from './support/property-runs';
import { parseJsonc } from '../../src/engine/formats/jsonc.js';
import { Reader } from '../../src/engine/formats/reader.js';

/** The plain version: each key in order; a repeated key drops its earlier occurrence and goes last. */
function plainEntries(keys: readonly string[]): { order: string[]; repeats: Array<{ key: string; at: number; first: number }> } {
  const out: Array<{ key: string; at: number }> = [];
  const repeats: Array<{ key: string; at: number; first: number }> = [];
  keys.forEach((key, at) => {
    const earlier = out.find((e) => e.key === key);
    if (earlier) {
      repeats.push({ key, at, first: earlier.at });
      out.splice(out.indexOf(earlier), 1);
    }
    out.push({ key, at });
  });
  return { order: out.map((e) => `${e.key}@${e.at}`), repeats };
}

function check(keys: readonly string[]): void {
  const text = `{${keys.map((k, i) => `${JSON.stringify(k)}: ${i}`).join(', ')}}`;
  const root = parseJsonc(text).root;
  assert.ok(root);
  const r = new Reader();
  const list = r.entries(root, '', 'the object');
  const expected = plainEntries(keys);
  assert.deepEqual(
    list.map((e) => `${e.key}@${e.node.value as number}`),
    expected.order,
    text,
  );
  assert.equal(list.length, expected.order.length);
  const keyStart = (at: number): number => (root.children?.[at]?.children?.[0]?.offset ?? -1) + 1;
  assert.deepEqual(
    r.diagnostics.map((d) => ({ key: d.message.slice(1, d.message.indexOf('`', 1)), start: d.loc.start, first: d.related?.[0]?.loc.start })),
    expected.repeats.map((x) => ({ key: x.key, start: keyStart(x.at), first: keyStart(x.first) })),
    text,
  );
}

test('a key written three times, among few keys and among many', () => {
  check(['a', 'b', 'a', 'c', 'a']);
  check(['a', 'a', 'a']);
  const many = Array.from({ length: 20 }, (_, i) => `k${i}`);
  check([...many, 'k3', 'k7', 'k3']);
});

test('random keys with repeats: the same entries and reports as the plain version', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', '~x', 'a/b'), { maxLength: 30 }), (keys) => check(keys)),
    propertyRuns(500),
  );
});
