/**
 * Guard evaluation: the ten operators exactly as docs/format.md fixes them
 * (its guards section).
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
 * - A step may be written in brackets with a quoted key, `a["b.c"].d`, for a
 *   key with dots or spaces in it (a command such as `npm run test:unit`).
 * - `evidence` and the paths under it (`evidence.commands["npm test"].exit_code`)
 *   read what stategate observed in this state (evidence.ts), never the
 *   context: the agent sets the context with the data it sends, so a context
 *   key named `evidence` is not evidence.
 *
 * Missing fields: `exists` is false and `not_exists` true; every other
 * operator is false (so `neq` is false on a missing field, as in the
 * reference). A present `null` counts as missing for `exists`/`not_exists`
 * only (the reference's rule); `eq null` on a present null is true.
 */
import type { GuardDef, JsonObject, JsonValue } from '../model/index.js';
import { isJsonObject, jsonEqual, ownValue } from '../model/json-value.js';
import { EVIDENCE_KEY, evidenceView } from './evidence.js';

/** Reads `field` from `context` (or `evidence`) as documented above; `undefined` when missing. */
export function readField(context: JsonObject, field: string, evidence?: JsonObject): JsonValue | undefined {
  const steps = fieldSteps(field);
  if (steps?.[0] === EVIDENCE_KEY) return walk(evidenceView(evidence), steps.slice(1));
  const direct = ownValue(context, field);
  if (direct !== undefined || !steps || steps.length < 2) return direct;
  return walk(context, steps);
}

function walk(root: JsonValue, steps: readonly string[]): JsonValue | undefined {
  let cur: JsonValue | undefined = root;
  for (const step of steps) {
    if (!isJsonObject(cur)) return undefined;
    cur = ownValue(cur, step);
    if (cur === undefined) return undefined;
  }
  return cur;
}

/**
 * The steps of a field path: split at dots, with `["key"]` or `['key']` as one
 * step whatever it holds. Undefined when a bracket is not closed as that
 * (the field is then only ever a key of its own).
 */
export function fieldSteps(field: string): string[] | undefined {
  if (!field.includes('[')) return field.split('.');
  const steps: string[] = [];
  let i = 0;
  let part = '';
  while (i < field.length) {
    const ch = field[i]!;
    if (ch === '.') {
      if (part !== '' || field[i - 1] !== ']') steps.push(part);
      part = '';
      i++;
    } else if (ch === '[') {
      const quote = field[i + 1];
      if (quote !== '"' && quote !== "'") return undefined;
      const end = field.indexOf(`${quote}]`, i + 2);
      if (end < 0) return undefined;
      if (part !== '') steps.push(part);
      steps.push(field.slice(i + 2, end));
      part = '';
      i = end + 2;
      if (i < field.length && field[i] !== '.' && field[i] !== '[') return undefined;
    } else {
      part += ch;
      i++;
    }
  }
  if (part !== '' || !field.endsWith(']')) steps.push(part);
  return steps;
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

/** True when the guard passes on `context` (the context before the transition) and this state's `evidence`. */
export function evaluateGuard(def: Pick<GuardDef, 'field' | 'op' | 'value'>, context: JsonObject, evidence?: JsonObject): boolean {
  const actual = readField(context, def.field, evidence);
  const present = actual !== undefined && actual !== null;
  if (def.op === 'exists') return present;
  if (def.op === 'not_exists') return !present;
  if (actual === undefined) return false;
  const predicate = PREDICATES[def.op];
  // An unknown operator (a loader bug or a hand-built IR) fails the guard: fail closed.
  return predicate !== undefined && predicate(actual, def.value);
}
