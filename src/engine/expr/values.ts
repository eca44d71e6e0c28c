/**
 * How the expression language sees JSON values: truthiness, their kind in
 * messages, and what counts as a readable object.
 */
import type { JsonObject, JsonValue } from '../model/index.js';

/**
 * How a guard's value counts as true: JavaScript's rule on JSON values, as a
 * guard written for XState would see it. `false`, `null`, `0` and `''` are
 * false; everything else is true, empty arrays and objects included (test
 * emptiness with `len(x) > 0`).
 */
export function isTruthy(value: JsonValue): boolean {
  return value !== false && value !== null && value !== 0 && value !== '' && !Number.isNaN(value);
}

/**
 * An object whose own properties may be read: one made by JSON or YAML
 * parsing or an object literal (prototype Object.prototype or null). Class
 * instances (a Date, a Map) are not JSON and are never looked into.
 */
export function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const PRIMITIVE_KINDS: Readonly<Record<string, string>> = { string: 'a string', number: 'a number', boolean: 'a boolean' };

/** The kind of a value with its article, for messages: "a string", "null". */
export function describeValue(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return PRIMITIVE_KINDS[typeof value] ?? (isPlainObject(value) ? 'an object' : 'a value that is not JSON');
}
