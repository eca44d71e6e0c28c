/**
 * `completion_schema` must itself be a JSON Schema: it is validated against
 * draft-07's meta-schema with ajv (the validator compiled at build time,
 * scripts/compile-schema.mjs), each problem reported at the value inside the
 * schema that causes it. Two more things ajv would refuse when the pipeline
 * compiles the schema, which the meta-schema leaves to formats it does not
 * check here: a `pattern` (or `patternProperties` key) that is not a regular
 * expression. And the schema is also the completion tool's input schema,
 * whose root the tool protocols require to be an object schema.
 */
import type { ErrorObject } from 'ajv';
import type { Diagnostic, JsonObject, JsonValue, SourceLoc, StateNode } from '../model/index.js';
import { childPointer } from '../formats/jsonc.js';
import metaValidator from '../schema/json-schema-validator.generated.js';

export const INVALID_COMPLETION_SCHEMA = 'invalid-completion-schema';

/** Combinators whose branches report the precise problem at the same place. */
const SILENT = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'then', 'else', 'not']);

export function completionSchemaRule(s: StateNode, out: Diagnostic[]): void {
  const schema = s.completionSchema;
  if (!schema) return;
  const whole = s.fieldLocs?.['completion_schema'] ?? s.keyLoc;
  const at = (pointer: string): SourceLoc => s.completionSchemaLocs?.get(pointer) ?? whole;
  const report = (pointer: string, problem: string): void => {
    out.push({
      severity: 'error',
      code: INVALID_COMPLETION_SCHEMA,
      message: `\`completion_schema\` of \`${s.id}\` is not a valid JSON Schema: ${problem}.`,
      loc: at(pointer),
      data: { pointer },
    });
  };
  for (const [pointer, problems] of metaProblems(schema)) report(pointer, `${where(pointer)} ${problems.join(', or ')}`);
  for (const p of patterns(schema, '')) {
    const problem = regexProblem(p.pattern);
    if (problem !== undefined) report(p.pointer, `${where(p.pointer)} is not a regular expression (${problem})`);
  }
  const type = schema['type'];
  if (type !== undefined && type !== 'object') {
    report('/type', `the payload of a completion tool is the tool call's arguments, an object; write \`"type": "object"\` and put the fields under \`properties\``);
  }
}

/** The meta-schema's findings, grouped by where they are (alternatives at one place are joined with "or"). */
function metaProblems(schema: JsonObject): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let valid: boolean;
  try {
    valid = metaValidator(schema);
  } catch {
    return found; // a validator failure must never break checking
  }
  if (valid) return found;
  for (const e of metaValidator.errors ?? []) {
    if (SILENT.has(e.keyword)) continue;
    const list = found.get(e.instancePath) ?? [];
    const text = describe(e);
    if (!list.includes(text)) list.push(text);
    found.set(e.instancePath, list);
  }
  return found;
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `must be ${String(p.type).split(',').map(article).join(' or ')}`;
    default:
      return e.message ?? 'is invalid';
  }
}

function article(type: string): string {
  return type === 'array' || type === 'object' || type === 'integer' ? `an ${type}` : `a ${type}`;
}

/** "`/properties/name/type`" relative to the schema, or "the schema". */
function where(pointer: string): string {
  return pointer === '' ? 'the schema' : `\`${pointer}\``;
}

/** Keywords whose values are data, not schemas (a `pattern` key inside them is not a pattern). */
const DATA = new Set(['const', 'enum', 'default', 'examples']);

/** Every `pattern` value and `patternProperties` key, with its pointer inside the schema. */
function patterns(value: JsonValue, pointer: string): Array<{ pattern: string; pointer: string }> {
  const out: Array<{ pattern: string; pointer: string }> = [];
  if (Array.isArray(value)) {
    value.forEach((v, i) => out.push(...patterns(v, childPointer(pointer, i))));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (DATA.has(key)) continue;
      const child = childPointer(pointer, key);
      if (key === 'pattern' && typeof v === 'string') out.push({ pattern: v, pointer: child });
      // A bad key is reported at its value: the IR keeps where values are, not keys.
      if (key === 'patternProperties' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        for (const k of Object.keys(v)) out.push({ pattern: k, pointer: childPointer(child, k) });
      }
      out.push(...patterns(v as JsonValue, child));
    }
  }
  return out;
}

/** ajv compiles patterns with the `u` flag. */
function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e);
  }
}
