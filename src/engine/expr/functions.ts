/**
 * The three functions an expression can call: `now()`, `len(x)` and
 * `agents.select(role, hint)`. The parser checks names and argument counts
 * against this table; the evaluator calls `apply`.
 */
import type { JsonValue } from '../model/index.js';
import type { FunctionName } from './ast.js';
import { describeValue, isPlainObject } from './values.js';

/** What a function needs from the evaluation's bindings. */
export interface FunctionBindings {
  readonly now?: number;
  readonly agents?: (role: string, hint: JsonValue) => string | null;
}

/** A failed call: the message, and which argument is at fault (none: the call itself). */
export interface CallFailure {
  readonly message: string;
  readonly argument?: number;
}

export type CallResult = { ok: true; value: JsonValue } | ({ ok: false } & CallFailure);

interface FunctionDef {
  readonly minArgs: number;
  readonly maxArgs: number;
  /** How the call is written, for messages. */
  readonly signature: string;
  apply(args: readonly JsonValue[], bindings: FunctionBindings): CallResult;
}

function fail(message: string, argument?: number): CallResult {
  return argument === undefined ? { ok: false, message } : { ok: false, message, argument };
}

export const FUNCTIONS: Readonly<Record<FunctionName, FunctionDef>> = {
  now: {
    minArgs: 0,
    maxArgs: 0,
    signature: 'now()',
    apply(_args, { now }) {
      // The run's clock only: reading the system clock here would make a replay differ from the run.
      if (typeof now !== 'number' || !Number.isFinite(now)) return fail('now() has no clock here (the run supplies it)');
      const date = new Date(now);
      if (Number.isNaN(date.getTime())) return fail(`now() cannot show the clock ${now} as a date`);
      return { ok: true, value: date.toISOString() };
    },
  },
  len: {
    minArgs: 1,
    maxArgs: 1,
    signature: 'len(x)',
    apply([x]) {
      // Characters, not UTF-16 code units: len('é') and len('👍') are both 1.
      if (typeof x === 'string') return { ok: true, value: Array.from(x).length };
      if (Array.isArray(x)) return { ok: true, value: x.length };
      if (isPlainObject(x)) return { ok: true, value: Object.keys(x).length };
      return fail(`len() takes a string, an array or an object, not ${describeValue(x ?? null)}`, 0);
    },
  },
  'agents.select': {
    minArgs: 1,
    maxArgs: 2,
    signature: 'agents.select(role, hint)',
    apply([role, hint], { agents }) {
      if (typeof role !== 'string') return fail(`agents.select() takes the role as a string, not ${describeValue(role ?? null)}`, 0);
      if (!agents) return { ok: true, value: null };
      let chosen: unknown;
      try {
        chosen = agents(role, hint ?? null);
      } catch (e) {
        return fail(`agents.select() failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (chosen !== null && typeof chosen !== 'string') return fail('agents.select() got something other than a name or null from the agent registry');
      return { ok: true, value: chosen };
    },
  },
};

export function isFunctionName(name: string): name is FunctionName {
  return Object.hasOwn(FUNCTIONS, name);
}
