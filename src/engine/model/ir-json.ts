/**
 * The IR (a loaded `Workflow`) as JSON and back, exactly: what a run's compiled definition
 * holds (docs/design/compiled-definition.md), so that a process which only decides calls (the
 * hook) reads the IR with one JSON.parse instead of running a format loader on the source.
 *
 * Plain JSON would lose what the IR holds beyond it: Maps (states, guards, actions, handlers),
 * Sets (skipped names), properties set to `undefined` (`'x' in o` tells them from absent ones),
 * and numbers JSON cannot write (-0, NaN, ±Infinity). Those are written as tagged objects
 * `{"$t": TAG, "v": ...}`; a plain object that has a `$t` key of its own (the IR carries the
 * author's JSON: context, meta, completion schemas) is wrapped as `{"$t": "o", "v": {...}}`, so
 * no author's data is ever taken for a tag. Anything else that is not plain data (a function, a
 * bigint, a symbol) makes `irToJson` throw: such an IR is never compiled, the source is loaded.
 *
 * Class instances of the IR (formats/ir-objects.ts) come back as plain objects with the same own
 * fields: the engine never tells them apart (they exist only for V8's allocation).
 */
import type { JsonValue } from './json-types.js';
import type { Workflow } from './workflow.js';

/**
 * The IR's version. Bump it whenever what a loader produces for the same source changes (a field
 * added, renamed or computed differently): a compiled file of another version is never read, its
 * definition is loaded from the source again. test/unit/compiled-definition.test.ts pins it to the model's files.
 */
export const IR_VERSION = 1;

const TAG = '$t';

/** The IR as a JSON value (see the file's comment for the tags). Throws on anything that is not plain data. */
export function irToJson(wf: Workflow): JsonValue {
  return encode(wf as unknown, '');
}

/** The IR from `irToJson`'s value. Throws on a value no `irToJson` wrote (a corrupt or foreign file). */
export function irFromJson(json: unknown): Workflow {
  const wf = decode(json, '');
  if (!wf || typeof wf !== 'object' || !((wf as Partial<Workflow>).states instanceof Map)) throw new Error('not a compiled workflow (it has no states)');
  return wf as Workflow;
}

function encode(value: unknown, at: string): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Number.isFinite(value) && !Object.is(value, -0)) return value;
      return { [TAG]: 'n', v: Object.is(value, -0) ? '-0' : String(value) };
    case 'undefined':
      return { [TAG]: 'u' };
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return value.map((v, i) => encode(v, `${at}/${i}`));
      if (value instanceof Map) return { [TAG]: 'm', v: [...value].map(([k, v]) => [encode(k, `${at}/key`), encode(v, `${at}/${String(k)}`)]) };
      if (value instanceof Set) return { [TAG]: 's', v: [...value].map((v, i) => encode(v, `${at}/${i}`)) };
      const out: { [key: string]: JsonValue } = {};
      for (const key of Object.keys(value)) setField(out, key, encode((value as Record<string, unknown>)[key], `${at}/${key}`));
      return Object.prototype.hasOwnProperty.call(value, TAG) ? { [TAG]: 'o', v: out } : out;
    }
    default:
      throw new Error(`the IR holds a ${typeof value} at ${at || '/'}, which is not data`);
  }
}

function decode(value: unknown, at: string): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v, i) => decode(v, `${at}/${i}`));
  const obj = value as Record<string, unknown>;
  if (!Object.prototype.hasOwnProperty.call(obj, TAG)) return decodeFields(obj, at);
  const v = obj['v'];
  switch (obj[TAG]) {
    case 'u':
      return undefined;
    case 'n':
      if (v === '-0') return -0;
      if (v === 'NaN' || v === 'Infinity' || v === '-Infinity') return Number(v);
      break;
    case 'm':
      if (Array.isArray(v) && v.every((e) => Array.isArray(e) && e.length === 2)) return new Map((v as [unknown, unknown][]).map(([k, e]) => [decode(k, `${at}/key`), decode(e, `${at}/${String(k)}`)]));
      break;
    case 's':
      if (Array.isArray(v)) return new Set(v.map((e, i) => decode(e, `${at}/${i}`)));
      break;
    case 'o':
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return decodeFields(v as Record<string, unknown>, at);
      break;
  }
  throw new Error(`a tag at ${at || '/'} that no compiler wrote: ${JSON.stringify(obj[TAG])}`);
}

function decodeFields(obj: Record<string, unknown>, at: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) setField(out, key, decode(obj[key], `${at}/${key}`));
  return out;
}

/** `o[key] = value`, also for an author's `__proto__` key (an own field, as JSON.parse makes it, never the prototype). */
function setField(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}
