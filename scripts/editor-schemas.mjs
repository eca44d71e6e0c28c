// The schemas VS Code's own JSON (and Red Hat's YAML) service is given for
// workflow files (package.json contributes.jsonValidation / yamlValidation):
// schemas/*.json with everything that validates or describes taken out, so that
// service only completes field names, enum values and snippets. The language
// server (src/lsp/) already reports every schema problem and shows every field's
// docs on hover; given the full schema, the editor's service would report each
// problem a second time and show each hover's text twice.
// Written to dist/editor-schemas/ (the same file names, so the statechart
// schema's references into the workflow schema still resolve) by
// scripts/compile-schema.mjs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Keywords that only validate (or describe, which is what a hover shows); dropped. */
const DROPPED = new Set([
  '$id', // would resolve `workflow-schema.json#…` against a URL on the network instead of the file beside it
  'type', 'required', 'not', 'dependencies', 'dependentRequired', 'propertyNames',
  'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems', 'contains', 'minProperties', 'maxProperties',
  'title', 'description', 'markdownDescription', 'enumDescriptions', 'markdownEnumDescriptions',
  'deprecationMessage', 'errorMessage', 'patternErrorMessage',
]);
/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);
/** Keywords whose value is a schema or a list of schemas. */
const SCHEMAS = new Set(['items', 'additionalItems', 'additionalProperties', 'allOf', 'anyOf', 'oneOf', 'then', 'else']);
/** What a hover shows; dropped from an `if`, which keeps its tests (an `if` that fails is never reported, only picks `then` or `else`). */
const WORDS = new Set(['title', 'description', 'markdownDescription']);

function withoutWords(node) {
  if (Array.isArray(node)) return node.map(withoutWords);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([k]) => !WORDS.has(k)).map(([k, v]) => [k, withoutWords(v)]));
}

/** One schema node, for completion only. */
export function completionOnly(node) {
  if (Array.isArray(node)) return node.map(completionOnly);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  const examples = [...(node.examples ?? [])];
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key) || key === 'examples') continue;
    if (key === 'enum') examples.push(...value); // offered as values, never judged
    else if (key === 'const') examples.push(value);
    else if (key === 'if') out.if = withoutWords(value);
    else if (key === 'oneOf') out.anyOf = completionOnly(value); // stripped branches all match; oneOf would complain
    else if (key === 'additionalProperties' && typeof value === 'boolean') continue; // false would report unknown fields
    else if (key === 'defaultSnippets') {
      // A snippet that is a bare string (a placeholder state name) would crowd out the server's real names.
      const objects = value.filter((s) => typeof s.body !== 'string' && typeof s.bodyText !== 'string');
      if (objects.length) out.defaultSnippets = objects;
    } else if (key === 'definitions' && value.transition) {
      // Where an event leads, the server offers the chart's state names; the service would offer its snippets
      // (objects, even inside a string), sorted among the names by label. The names come first, alone.
      const { defaultSnippets: _, ...transition } = value.transition;
      out.definitions = completionOnly({ properties: { ...value, transition } }).properties;
    } else if (SCHEMA_MAPS.has(key)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, completionOnly(v)]));
    else if (SCHEMAS.has(key)) out[key] = completionOnly(value);
    else out[key] = value; // $ref, $schema, default, doNotSuggest…
  }
  if (examples.length) out.examples = [...new Set(examples.map((e) => JSON.stringify(e)))].map((e) => JSON.parse(e));
  return out;
}

export function writeEditorSchemas(root) {
  const outDir = join(root, 'dist', 'editor-schemas');
  mkdirSync(outDir, { recursive: true });
  for (const name of ['workflow-schema.json', 'statechart-schema.json', 'flow-schema.json']) {
    const schema = JSON.parse(readFileSync(join(root, 'schemas', name), 'utf8'));
    writeFileSync(join(outDir, name), JSON.stringify(completionOnly(schema), null, 1) + '\n');
  }
  return outDir;
}
