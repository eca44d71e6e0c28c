/**
 * The syntax tree of a statechart document (YAML or JSON, the loader's own
 * readers), for what the IR does not keep: context keys with their ranges,
 * the path under the cursor, where to insert a new entry. The last parse is
 * kept, since every request after a keystroke asks about the same text.
 */
import { parseJsonc, type JsonNode } from '../../formats/jsonc.js';
import { parseYamlTree } from '../../formats/yaml-tree.js';

/** JSON when the file says so (or, without a file name, when the text opens with `{`), as the loader decides. */
export function isJsonChart(text: string, file?: string): boolean {
  if (file !== undefined && /\.ya?ml$/i.test(file)) return false;
  if (file !== undefined && /\.json$/i.test(file)) return true;
  return /^\ufeff?\s*\{/.test(text);
}

let last: { text: string; json: boolean; root: JsonNode | undefined } | undefined;

export function chartTree(text: string, json: boolean): JsonNode | undefined {
  if (last?.text === text && last.json === json) return last.root;
  const root = (json ? parseJsonc(text) : parseYamlTree(text)).root;
  last = { text, json, root };
  return root;
}

/** The value of `key` in an object node (the last one written, as the loader reads it). */
export function propertyValue(obj: JsonNode | undefined, key: string): JsonNode | undefined {
  let found: JsonNode | undefined;
  for (const p of obj?.type === 'object' ? (obj.children ?? []) : []) if (p.children?.[0]?.value === key) found = p.children[1];
  return found;
}
