/**
 * Field reference docs from the workflow JSON Schema's descriptions, so hover
 * text is written once (in the schema) and shows the same in VS Code's JSON
 * service and in our hovers. Walks `properties`, `patternProperties`,
 * `additionalProperties`, `items`, `$ref`s (local ones, and ones into the other
 * schema files given as `refs`, as the statechart schema refers to the workflow
 * schema's state rules), `oneOf`/`anyOf`/`allOf` and `then`/`else`.
 */

type Schema = { readonly [key: string]: unknown };

/** Other schema files by the name a `$ref` uses for them (`workflow-schema.json`). */
export type SchemaRefs = Readonly<Record<string, unknown>>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The description of the field at `path` (below the workflow object), or undefined. */
export function fieldDoc(schema: unknown, path: readonly (string | number)[], refs: SchemaRefs = {}): string | undefined {
  if (!isSchema(schema)) return undefined;
  for (const s of schemasAt(schema, schema, path, 0, refs)) {
    const doc = s['markdownDescription'] ?? s['description'];
    if (typeof doc === 'string') return doc;
  }
  return undefined;
}

/** Every subschema that can describe `path` (alternatives of oneOf/anyOf included), best first. */
function schemasAt(from: Schema, node: Schema, path: readonly (string | number)[], depth: number, refs: SchemaRefs): Schema[] {
  if (depth > 64) return []; // a $ref cycle
  const [root, s] = deref(from, node, refs);
  const alternatives = [
    ...['allOf', 'oneOf', 'anyOf'].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]).filter(isSchema) : [])),
    // if/then/else picks the plain workflow or the gateway wrapper; paths here are below the workflow, so `else` first.
    ...['else', 'then'].map((k) => s[k]).filter(isSchema),
  ];
  const fromAlternatives = alternatives.flatMap((a) => schemasAt(root, a, path, depth + 1, refs));
  if (path.length === 0) return [s, ...fromAlternatives];
  const [head, ...rest] = path;
  const children = childSchemas(s, head as string | number);
  return [...children.flatMap((c) => schemasAt(root, c, rest, depth + 1, refs)), ...fromAlternatives];
}

function childSchemas(s: Schema, seg: string | number): Schema[] {
  if (typeof seg === 'number') {
    const items = s['items'];
    if (isSchema(items)) return [items];
    return Array.isArray(items) && isSchema(items[seg]) ? [items[seg] as Schema] : [];
  }
  const out: Schema[] = [];
  const props = s['properties'];
  if (isSchema(props) && isSchema(props[seg])) out.push(props[seg] as Schema);
  const patterns = s['patternProperties'];
  if (isSchema(patterns)) {
    for (const [pattern, sub] of Object.entries(patterns)) if (isSchema(sub) && safeTest(pattern, seg)) out.push(sub);
  }
  if (!out.length && isSchema(s['additionalProperties'])) out.push(s['additionalProperties'] as Schema);
  return out;
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}

/** Follows `$ref`s (`#/definitions/x`, `#/$defs/x`, `other.json#/definitions/x`); returns the schema file it ends in, and the subschema. */
function deref(from: Schema, node: Schema, refs: SchemaRefs): [Schema, Schema] {
  let root = from;
  let cur = node;
  for (let i = 0; i < 32 && typeof cur['$ref'] === 'string'; i++) {
    const ref = cur['$ref'] as string;
    const hash = ref.indexOf('#');
    const file = hash < 0 ? ref : ref.slice(0, hash);
    const other = file === '' ? root : refs[file];
    if (!isSchema(other)) break;
    let target: unknown = other;
    for (const seg of (hash < 0 ? '' : ref.slice(hash + 1)).split('/').filter(Boolean)) {
      target = isSchema(target) ? target[seg.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    }
    if (!isSchema(target)) break;
    root = other;
    cur = target;
  }
  return [root, cur];
}
