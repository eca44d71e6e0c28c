/**
 * The interpreter's one door to the expression language: guards, values
 * (assign updates, delays) and action data, evaluated with the run's
 * bindings (context, the current event, env, the clock, agents).
 */
import type { JsonObject, JsonValue } from '../model/index.js';
import { evaluateText, isTruthy, readsBinding } from '../expr/index.js';
import type { EventBinding, RunState } from './run-state.js';

export type Evaluated = { ok: true; value: JsonValue } | { ok: false; message: string };

/** Evaluates `text` against the run's current context and `event`. */
export function evaluate(rs: RunState, text: string, event: EventBinding): Evaluated {
  const { env, agents, evidence } = rs.options;
  // `now()` is the run's time of this macrostep (a late timer's is the moment it was due).
  const now = rs.clock;
  const result = evaluateText(text, {
    context: rs.context,
    event,
    now,
    ...(env ? { env } : {}),
    ...(agents ? { agents } : {}),
    ...(evidence ? { evidence } : {}),
  });
  return result.ok ? { ok: true, value: result.value } : { ok: false, message: result.error.message };
}

/** A guard's verdict; a guard that fails to evaluate is false (the caller journals the failure). */
export function evaluateGuard(rs: RunState, text: string, event: EventBinding): { ok: true; pass: boolean } | { ok: false; message: string } {
  const result = evaluate(rs, text, event);
  return result.ok ? { ok: true, pass: isTruthy(result.value) } : result;
}

/**
 * Action data (or an invocation's input) with its expressions evaluated: a
 * string that reads a binding is an expression, any other value a literal;
 * nested objects and arrays are walked. A failing expression gives null and
 * its message goes to `errors`.
 */
export function evaluateData(rs: RunState, data: JsonObject, event: EventBinding, errors: string[]): JsonObject {
  return evaluateValue(rs, data, event, errors) as JsonObject;
}

function evaluateValue(rs: RunState, value: JsonValue, event: EventBinding, errors: string[]): JsonValue {
  if (typeof value === 'string') {
    if (!readsBinding(value)) return value;
    const result = evaluate(rs, value, event);
    if (result.ok) return result.value;
    errors.push(`${value}: ${result.message}`);
    return null;
  }
  if (Array.isArray(value)) return value.map((item) => evaluateValue(rs, item, event, errors));
  if (value !== null && typeof value === 'object') {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      Object.defineProperty(out, key, { value: evaluateValue(rs, value[key] as JsonValue, event, errors), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}
