/**
 * JSON Schema validation of a workflow file with the validator compiled at
 * build time (scripts/compile-schema.mjs), mapped to diagnostics with exact
 * ranges and messages a person can act on. The workflow schema by default;
 * statecharts pass theirs (statechart-validator.generated.js).
 */
import type { ErrorObject } from 'ajv';
import { describeNode, nodeAtPointer, nodeLoc, nodeValue, ownerLoc, pointerSegments, type JsonNode } from '../formats/jsonc.js';
import type { Diagnostic, SourceLoc } from '../model/index.js';
import workflowValidator, { type CompiledValidator } from './workflow-validator.generated.js';

/**
 * Keywords whose errors are not reported: `additionalProperties` (the loader
 * warns about unknown fields, with suggestions), and the combinators whose
 * failing branch already reported the precise error.
 */
const SILENT = new Set(['additionalProperties', 'if', 'then', 'else', 'not', 'anyOf', 'oneOf', 'allOf', 'const']);

export function schemaDiagnostics(root: JsonNode, validate: CompiledValidator = workflowValidator): Diagnostic[] {
  let valid: boolean;
  try {
    valid = validate(nodeValue(root));
  } catch {
    return []; // a validator failure must never break checking; the loader and rules still run
  }
  if (valid) return [];
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const error of validate.errors ?? []) {
    if (SILENT.has(error.keyword)) continue;
    // if/else chains can report one problem twice (e.g. a transition's union type, then the object branch's type).
    const key = `${error.instancePath}\u0000${error.keyword}\u0000${String((error.params as { missingProperty?: unknown }).missingProperty)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(toDiagnostic(root, error));
  }
  return out;
}

function toDiagnostic(root: JsonNode, error: ErrorObject): Diagnostic {
  const pointer = error.instancePath;
  const node = nodeAtPointer(root, pointer) ?? root;
  const name = subject(pointer);
  const at: SourceLoc = nodeLoc(node, pointer);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const field = String(p.missingProperty);
      return {
        severity: 'error',
        code: 'missing-field',
        message: `${capitalize(name)} is missing the required field \`${field}\`.`,
        loc: ownerLoc(node, pointer),
        data: { field },
      };
    }
    case 'type':
      return { severity: 'error', code: 'invalid-type', message: `${capitalize(name)} must be ${typeWords(String(p.type))}; found ${describeNode(node)}.`, loc: at };
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      return { severity: 'error', code: 'invalid-value', message: `${capitalize(name)} must be one of ${allowed}; found ${JSON.stringify(nodeValue(node))}.`, loc: at };
    }
    case 'minimum':
      return { severity: 'error', code: 'invalid-value', message: `${capitalize(name)} must be at least ${String(p.limit)}.`, loc: at };
    case 'minLength':
      return { severity: 'error', code: 'invalid-value', message: `${capitalize(name)} must not be empty.`, loc: at };
    case 'minItems':
      return { severity: 'error', code: 'invalid-value', message: `${capitalize(name)} needs at least ${String(p.limit)} item(s).`, loc: at };
    case 'minProperties':
      return { severity: 'error', code: 'invalid-value', message: `${capitalize(name)} needs at least ${String(p.limit)} entr${p.limit === 1 ? 'y' : 'ies'}.`, loc: at };
    default:
      return { severity: 'error', code: 'schema', message: `${capitalize(name)} ${error.message ?? 'is invalid'}.`, loc: at };
  }
}

/** "`max_iterations`", "item 2 of `allowed_tools`", "the workflow file". */
function subject(pointer: string): string {
  const segments = pointerSegments(pointer);
  const last = segments[segments.length - 1];
  if (last === undefined) return 'the workflow file';
  if (/^\d+$/.test(last)) {
    const parent = segments[segments.length - 2];
    return `item ${Number(last) + 1} of \`${parent ?? ''}\``;
  }
  return `\`${last}\``;
}

function typeWords(types: string): string {
  const words: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    integer: 'a whole number',
    boolean: 'true or false',
    object: 'an object',
    array: 'an array',
    null: 'null',
  };
  const list = types.split(',').map((t) => words[t] ?? t);
  return list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}` : (list[0] ?? types);
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
