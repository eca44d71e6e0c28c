/**
 * A completion payload against the stage's `completion_schema`, with ajv.
 * Each schema is compiled once per process (cached by its text): a hook or
 * MCP process checks a handful of payloads, the participant many. ajv loads on
 * the first check, so a process that never completes a stage never loads it.
 *
 * The errors are what the model reads as the tool result, so each names the
 * property that fails (`steps[0]`, `approved`), the way the model wrote it.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonObject, JsonValue } from '../model/index.js';

export type PayloadCheck = { readonly valid: true } | { readonly valid: false; readonly errors: readonly string[] };

const compiled = new Map<string, ValidateFunction | string>();
let ajv: import('ajv').default | undefined;

function validatorFor(schema: JsonObject): ValidateFunction | string {
  const key = JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit !== undefined) return hit;
  if (!ajv) {
    const { Ajv, addFormats } = require('./payload-ajv.js') as typeof import('./payload-ajv.js');
    // allErrors: the model fixes every problem in one go; strict off: a schema's unknown keywords (`title`-like notes) are not errors here, validation reported them already.
    ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
  }
  let made: ValidateFunction | string;
  try {
    made = ajv.compile(schema);
  } catch (err) {
    // A schema that does not compile rejects every payload (fail closed); `stategate validate` reports it as invalid-completion-schema.
    made = `the stage's completion_schema does not compile (${(err as Error).message}), so no payload can be accepted; fix the workflow`;
  }
  compiled.set(key, made);
  return made;
}

/** Checks `payload` (the completion tool's arguments) against `schema`. */
export function checkPayload(schema: JsonObject, payload: JsonValue | undefined): PayloadCheck {
  const validate = validatorFor(schema);
  if (typeof validate === 'string') return { valid: false, errors: [validate] };
  if (validate(payload ?? null)) return { valid: true };
  return { valid: false, errors: (validate.errors ?? []).map(errorText) };
}

/** `/steps/0` -> `steps[0]`; the root is `(payload)`. */
export function propertyPath(pointer: string, extra?: string): string {
  const steps = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) steps.push(extra);
  let out = '';
  for (const s of steps) out += /^\d+$/.test(s) ? `[${s}]` : out === '' ? s : `.${s}`;
  return out === '' ? '(payload)' : out;
}

function errorText(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return `\`${propertyPath(e.instancePath, String(params.missingProperty))}\` is required`;
  if (e.keyword === 'additionalProperties') return `\`${propertyPath(e.instancePath, String(params.additionalProperty))}\` is not allowed (no such property)`;
  const allowed = e.keyword === 'enum' && Array.isArray(params.allowedValues) ? `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return `\`${propertyPath(e.instancePath)}\` ${e.message ?? 'is invalid'}${allowed}`;
}

/** The tool result for an invalid payload: says the stage goes on, and each failing property. */
export function payloadErrorText(tool: string, errors: readonly string[]): string {
  return `${tool}: the payload does not match the stage's completion_schema, so the stage goes on. Fix these and call ${tool} again:\n${errors.map((e) => `- ${e}`).join('\n')}`;
}
