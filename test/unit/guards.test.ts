import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateGuard, readField } from '../../src/engine/machine/guards.js';
import type { GuardOp, JsonObject, JsonValue } from '../../src/engine/model/index.js';

type Row = [op: GuardOp, value: JsonValue | undefined, context: JsonObject, expected: boolean, why: string];

const F = 'f';
const rows: Row[] = [
  // eq / neq: exact JSON equality
  ['eq', 'pass', { f: 'pass' }, true, 'equal strings'],
  ['eq', 'pass', { f: 'fail' }, false, 'different strings'],
  ['eq', 1, { f: '1' }, false, '"1" is not 1'],
  ['eq', '1', { f: 1 }, false, '1 is not "1"'],
  ['eq', true, { f: 1 }, false, 'true is not 1'],
  ['eq', null, { f: null }, true, 'a present null equals null'],
  ['eq', { a: [1, 2] }, { f: { a: [1, 2] } }, true, 'deep equal objects'],
  ['eq', { a: 1, b: 2 }, { f: { b: 2, a: 1 } }, true, 'key order does not matter'],
  ['eq', [1, 2], { f: [2, 1] }, false, 'array order matters'],
  ['eq', 'x', {}, false, 'missing field'],
  ['neq', 'x', { f: 'y' }, true, 'different'],
  ['neq', 'x', { f: 'x' }, false, 'same'],
  ['neq', 1, { f: '1' }, true, 'type differs'],
  ['neq', 'x', {}, false, 'missing field: neq is false too'],
  // numeric comparisons: both sides numbers
  ['gt', 0, { f: 3 }, true, '3 > 0'],
  ['gt', 0, { f: 0 }, false, '0 > 0'],
  ['gt', 0, { f: '3' }, false, 'string field'],
  ['gt', '0', { f: 3 }, false, 'string value'],
  ['gt', 0, { f: true }, false, 'boolean field'],
  ['gt', 0, {}, false, 'missing field'],
  ['gte', 5, { f: 5 }, true, '5 >= 5'],
  ['gte', 5, { f: 4.9 }, false, '4.9 >= 5'],
  ['gte', 5, { f: null }, false, 'null field'],
  ['lt', 3, { f: 1 }, true, '1 < 3'],
  ['lt', 3, { f: 3 }, false, '3 < 3'],
  ['lt', 3, { f: [1] }, false, 'array field'],
  ['lt', 3, {}, false, 'missing field'],
  ['lte', 3, { f: 3 }, true, '3 <= 3'],
  ['lte', 3, { f: -1 }, true, '-1 <= 3'],
  ['lte', 3, { f: '2' }, false, 'string field'],
  // exists / not_exists
  ['exists', undefined, { f: 'x' }, true, 'present'],
  ['exists', undefined, { f: 0 }, true, 'present zero'],
  ['exists', undefined, { f: false }, true, 'present false'],
  ['exists', undefined, { f: null }, false, 'null counts as absent'],
  ['exists', undefined, {}, false, 'missing'],
  ['not_exists', undefined, {}, true, 'missing'],
  ['not_exists', undefined, { f: null }, true, 'null'],
  ['not_exists', undefined, { f: '' }, false, 'present empty string'],
  // in: needs an array value
  ['in', ['east', 'west'], { f: 'east' }, true, 'member'],
  ['in', ['east', 'west'], { f: 'north' }, false, 'not a member'],
  ['in', [1, 2], { f: '1' }, false, 'membership is exact'],
  ['in', [{ a: 1 }], { f: { a: 1 } }, true, 'object member by JSON equality'],
  ['in', 'east west', { f: 'east' }, false, 'a string value is not an array'],
  ['in', ['x'], {}, false, 'missing field'],
  // contains: substring on strings, membership on arrays
  ['contains', 'timeout', { f: 'connection timeout occurred' }, true, 'substring'],
  ['contains', 'Timeout', { f: 'connection timeout' }, false, 'case sensitive'],
  ['contains', 'a', { f: ['a', 'b'] }, true, 'array membership'],
  ['contains', 1, { f: [1, 2] }, true, 'number membership'],
  ['contains', '1', { f: [1, 2] }, false, 'membership is exact'],
  ['contains', 1, { f: 'a1' }, false, 'number in a string: type mismatch'],
  ['contains', 'a', { f: { a: 1 } }, false, 'objects have no contains'],
  ['contains', 'a', {}, false, 'missing field'],
];

for (const [op, value, context, expected, why] of rows) {
  test(`guard ${op} ${JSON.stringify(value)} on ${JSON.stringify(context)} is ${expected} (${why})`, () => {
    assert.equal(evaluateGuard({ field: F, op, ...(value === undefined ? {} : { value }) }, context), expected);
  });
}

test('an unknown operator fails the guard (fail closed)', () => {
  assert.equal(evaluateGuard({ field: 'f', op: 'matches' as GuardOp, value: 'x' }, { f: 'x' }), false);
});

const paths: [field: string, context: JsonObject, expected: JsonValue | undefined, why: string][] = [
  ['a.b', { a: { b: 1 } }, 1, 'dotted path into objects'],
  ['a.b.c', { a: { b: { c: 'deep' } } }, 'deep', 'three levels'],
  ['a.b', { 'a.b': 2, a: { b: 1 } }, 2, 'a literal dotted key wins (reference compatibility)'],
  ['a.b', { a: 'str' }, undefined, 'a string has no fields'],
  ['a.0', { a: ['x'] }, undefined, 'arrays are not path steps'],
  ['a.b', { a: null }, undefined, 'null has no fields'],
  ['constructor', {}, undefined, 'inherited constructor is not a field'],
  ['toString', {}, undefined, 'inherited toString is not a field'],
  ['__proto__', {}, undefined, '__proto__ is not a field'],
  ['a.constructor', { a: {} }, undefined, 'no inherited keys along a path'],
  ['a.__proto__.polluted', { a: {} }, undefined, 'no prototype walking'],
];

for (const [field, context, expected, why] of paths) {
  test(`field "${field}" reads ${JSON.stringify(expected)} (${why})`, () => {
    assert.deepEqual(readField(context, field), expected);
  });
}

test('an own __proto__ key (from JSON) is readable as data', () => {
  const ctx = JSON.parse('{"__proto__": {"x": 1}}') as JsonObject;
  assert.deepEqual(readField(ctx, '__proto__'), { x: 1 });
  assert.equal(evaluateGuard({ field: '__proto__.x', op: 'eq', value: 1 }, ctx), true);
});

test('exists on an inherited name is false', () => {
  assert.equal(evaluateGuard({ field: 'constructor', op: 'exists' }, {}), false);
  assert.equal(evaluateGuard({ field: 'hasOwnProperty', op: 'not_exists' }, {}), true);
});
