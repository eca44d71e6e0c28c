/**
 * Field reference docs from the workflow JSON Schema's descriptions, so hover
 * text is written once (in the schema) and shows the same in VS Code's JSON
 * service and in our hovers. Walks `properties`, `patternProperties`,
 * `additionalProperties`, `items`, local `$ref`s, `oneOf`/`anyOf`/`allOf` and `then`/`else`.
 */

type Schema = { readonly [key: string]: unknown };

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The description of the field at `path` (below the workflow object), or undefined. */
export function fieldDoc(schema: unknown, path: readonly (string | number)[]): string | undefined {
  if (!isSchema(schema)) return undefined;
  for (const s of schemasAt(schema, schema, path, 0)) {
    const doc = s['markdownDescription'] ?? s['description'];
    if (typeof doc === 'string') return doc;
  }
  return undefined;
}

/** Every subschema that can describe `path` (alternatives of oneOf/anyOf included), best first. */
function schemasAt(root: Schema, node: Schema, path: readonly (string | number)[], depth: number): Schema[] {
  if (depth > 64) return []; // a $ref cycle
  const s = deref(root, node);
  const alternatives = [
    ...['allOf', 'oneOf', 'anyOf'].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]).filter(isSchema) : [])),
    // if/then/else picks the plain workflow or the gateway wrapper; paths here are below the workflow, so `else` first.
    ...['else', 'then'].map((k) => s[k]).filter(isSchema),
  ];
  const fromAlternatives = alternatives.flatMap((a) => schemasAt(root, a, path, depth + 1));
  if (path.length === 0) return [s, ...fromAlternatives];
  const [head, ...rest] = path;
  const children = childSchemas(s, head as string | number);
  return [...children.flatMap((c) => schemasAt(root, c, rest, depth + 1)), ...fromAlternatives];
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

/** Follows local `$ref`s (`#/definitions/x`, `#/$defs/x`). */
function deref(root: Schema, node: Schema): Schema {
  let cur = node;
  for (let i = 0; i < 32 && typeof cur['$ref'] === 'string'; i++) {
    const ref = cur['$ref'] as string;
    if (!ref.startsWith('#')) break;
    let target: unknown = root;
    for (const seg of ref.slice(1).split('/').filter(Boolean)) {
      target = isSchema(target) ? target[seg.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    }
    if (!isSchema(target)) break;
    cur = target;
  }
  return cur;
}
