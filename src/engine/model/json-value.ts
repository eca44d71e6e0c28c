/**
 * Small, safe operations on JSON values that the machine and the guards share.
 *
 * Safety rule: context objects come from agents (event data) and from files, so
 * nothing here ever reads through the prototype chain or assigns a key with
 * plain `obj[key] = v` on an object that could turn `__proto__` into a
 * prototype change. Every lookup is an own-property check.
 */
import type { JsonObject, JsonValue } from './json-types.js';

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An own, enumerable property of `obj` (never an inherited one such as `constructor`). */
export function ownValue(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** Exact JSON equality: same types, same values, same keys (order-insensitive). `"1"` ≠ `1`. */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
}

/** Sets an own data property, even for the key `__proto__` (which then stays plain data). */
function defineOwn(obj: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A deep copy of a JSON value; `__proto__` keys are copied as data, never as
 * prototypes. Strings are shared, not copied. Every other key is assigned
 * plainly (the only setter a plain object inherits is `__proto__`'s, so a
 * plain assignment of any other own key defines an own data property), which
 * is several times faster than defining each property.
 */
export function cloneJson<T extends JsonValue>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const n = v.length;
    const arr: JsonValue[] = new Array(n);
    for (let i = 0; i < n; i++) arr[i] = cloneJson(v[i] as JsonValue);
    return arr as T;
  }
  const src = v as JsonObject;
  const out: JsonObject = {};
  for (const k of Object.keys(src)) {
    if (k === '__proto__') defineOwn(out, k, cloneJson(src[k] as JsonValue));
    else out[k] = cloneJson(src[k] as JsonValue);
  }
  return out as T;
}

/**
 * Shallow merge (top-level keys, own properties only) of `patch` into a copy
 * of `base`. A non-object patch (null, an array, a string) merges nothing:
 * event data is only ever a set of named fields.
 */
export function mergeShallow(base: JsonObject, patch: JsonValue | undefined): JsonObject {
  const out = cloneJson(base);
  if (!isJsonObject(patch)) return out;
  for (const k of Object.keys(patch)) defineOwn(out, k, cloneJson(patch[k] as JsonValue));
  return out;
}

/** The top-level keys of `changed` whose values differ from `base` (what a branch or child added). */
export function shallowDiff(base: JsonObject, changed: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(changed)) {
    const v = changed[k] as JsonValue;
    if (!jsonEqual(ownValue(base, k), v)) defineOwn(out, k, cloneJson(v));
  }
  return out;
}

/**
 * The most levels of objects and arrays, one inside the other, that stategate
 * reads: in a workflow file (formats/tree-depth.ts) and in any JSON handed to
 * a run (event data, context, payloads, tool calls: runs/runner.ts). Past it,
 * the recursive walks after parsing (cloning, comparing, the schema check,
 * writing run.json) would overflow a main thread's 1 MB stack, and run.json,
 * written indented, would grow with the square of the depth (3,000 levels of
 * `--data` made an 18 MB file, then the command failed after the run had
 * moved). Statecharts stop at 100 nested states, 200 levels of JSON.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Whether `value` nests objects and arrays more than `max` levels deep
 * (`{"a": []}` is two). Iterative, so any depth is measured without
 * recursion; stops at the first container past the limit.
 */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const pending: object[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const v = pending.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) {
      if (c !== null && typeof c === 'object') {
        pending.push(c);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
