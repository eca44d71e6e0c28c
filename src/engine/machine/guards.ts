/**
 * Guard evaluation: the ten operators exactly as DESIGN.md ("Guards and
 * context") fixes them.
 *
 * `field` addresses the context:
 * - If the context has an own key spelled exactly like `field` (dots
 *   included), that key is read. This keeps the reference implementation's
 *   behaviour, where `field` is always a top-level key.
 * - Otherwise `field` is a dotted path: `a.b.c` reads `context.a.b.c`, going
 *   through objects only (an array index such as `items.0` is not a path
 *   step). A step that is missing or not an object makes the field missing.
 * Every step is an own-property check, so `__proto__`, `constructor` or
 * `toString` are only found when the context really has such a key.
 *
 * Missing fields: `exists` is false and `not_exists` true; every other
 * operator is false (so `neq` is false on a missing field, as in the
 * reference). A present `null` counts as missing for `exists`/`not_exists`
 * only (the reference's rule); `eq null` on a present null is true.
 */
import type { GuardDef, JsonObject, JsonValue } from '../model/index.js';
import { isJsonObject, jsonEqual, ownValue } from '../model/json-value.js';

/** Reads `field` from `context` as documented above; `undefined` when missing. */
export function readField(context: JsonObject, field: string): JsonValue | undefined {
  const direct = ownValue(context, field);
  if (direct !== undefined || !field.includes('.')) return direct;
  let cur: JsonValue | undefined = context;
  for (const step of field.split('.')) {
    if (!isJsonObject(cur)) return undefined;
    cur = ownValue(cur, step);
    if (cur === undefined) return undefined;
  }
  return cur;
}

type Predicate = (actual: JsonValue, expected: JsonValue | undefined) => boolean;

function numeric(cmp: (a: number, b: number) => boolean): Predicate {
  return (a, b) => typeof a === 'number' && typeof b === 'number' && cmp(a, b);
}

/** Operators other than exists/not_exists; each is only called with a present field. */
const PREDICATES: Record<Exclude<GuardDef['op'], 'exists' | 'not_exists'>, Predicate> = {
  eq: (a, b) => jsonEqual(a, b),
  neq: (a, b) => !jsonEqual(a, b),
  gt: numeric((a, b) => a > b),
  gte: numeric((a, b) => a >= b),
  lt: numeric((a, b) => a < b),
  lte: numeric((a, b) => a <= b),
  in: (a, b) => Array.isArray(b) && b.some((x) => jsonEqual(x, a)),
  contains: (a, b) => {
    if (typeof a === 'string') return typeof b === 'string' && a.includes(b);
    if (Array.isArray(a)) return a.some((x) => jsonEqual(x, b));
    return false;
  },
};

/** True when the guard passes on `context` (the context before the transition). */
export function evaluateGuard(def: Pick<GuardDef, 'field' | 'op' | 'value'>, context: JsonObject): boolean {
  const actual = readField(context, def.field);
  const present = actual !== undefined && actual !== null;
  if (def.op === 'exists') return present;
  if (def.op === 'not_exists') return !present;
  if (actual === undefined) return false;
  const predicate = PREDICATES[def.op];
  // An unknown operator (a loader bug or a hand-built IR) fails the guard: fail closed.
  return predicate !== undefined && predicate(actual, def.value);
}
