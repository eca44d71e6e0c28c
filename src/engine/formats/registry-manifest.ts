/**
 * Workflow registry manifests: a `manifest.json` beside workflows,
 * `{"workflows": [{"name", "file"}]}` (the reference's registration format),
 * which names workflows for `invoke`. Read into its entries with the source
 * location of every name and file. Like the workflow loader it never throws:
 * problems become diagnostics and a malformed entry is skipped. What the
 * entries point at (files, other workflows) is checked by check/manifest-rules.ts.
 */
import type { Diagnostic, NameRef } from '../model/index.js';
import { childPointer, nodeLoc, parseJsonc, type JsonNode } from './jsonc.js';
import { Reader, type Entry } from './reader.js';
import { readVersion } from './statewright.js';

export const MANIFEST_FILE = 'manifest.json';

export const MANIFEST_FIELDS = ['$schema', 'version', 'description', 'workflows'] as const;
export const MANIFEST_ENTRY_FIELDS = ['name', 'file', 'description'] as const;

export interface ManifestEntry {
  /** The registered name, which an `invoke` can use. */
  readonly name: NameRef;
  /** The workflow file as written: relative to the manifest's folder. */
  readonly file: NameRef;
}

export interface RegistryManifest {
  /** The well-formed entries, in order (malformed ones are reported and left out). */
  readonly entries: readonly ManifestEntry[];
}

export interface ManifestLoadResult {
  readonly manifest?: RegistryManifest;
  readonly diagnostics: Diagnostic[];
}

/** The keys of a JSON text's top-level object (none for other values). */
function topLevelKeys(root: JsonNode | undefined): Set<unknown> {
  return new Set(root?.type === 'object' ? (root.children ?? []).map((p) => p.children?.[0]?.value) : []);
}

/**
 * What a JSON text's top level looks like: a workflow (`states`, or a gateway's
 * `definition`, whatever the file is called), a registry (`workflows`), other
 * JSON, or text too broken to tell.
 */
export function registryShape(text: string): 'registry' | 'workflow' | 'other' | 'unparsable' {
  const parsed = parseJsonc(text);
  const keys = topLevelKeys(parsed.root);
  if (keys.has('states') || keys.has('definition')) return 'workflow';
  if (keys.has('workflows')) return 'registry';
  return parsed.diagnostics.length > 0 ? 'unparsable' : 'other';
}

export function loadRegistryManifest(text: string): ManifestLoadResult {
  const parsed = parseJsonc(text);
  const r = new Reader();
  const root = parsed.root;
  if (!root) {
    // parseJsonc's message for empty input speaks of workflows.
    const empty = text.trim() === '';
    r.diagnostics.push(...parsed.diagnostics.map((d) => (empty ? { ...d, message: 'The file is empty: a registry manifest is a JSON object `{"workflows": [{"name", "file"}]}`.' } : d)));
    return { diagnostics: r.diagnostics };
  }
  r.diagnostics.push(...parsed.diagnostics);
  if (root.type !== 'object') {
    r.report('error', 'invalid-type', 'A registry manifest must be a JSON object `{"workflows": [{"name", "file"}]}`.', nodeLoc(root, ''));
    return { diagnostics: r.diagnostics };
  }
  const f = r.fields(root, '', 'the registry manifest', MANIFEST_FIELDS);
  readVersion(r, f.get('version'));
  r.string(f.get('description'));
  const list = f.get('workflows');
  if (!list) {
    r.missing(root, '', 'workflows', 'The registry manifest', ' Add `"workflows": [{"name": "<name to invoke>", "file": "<workflow file>"}]`.');
    return { diagnostics: r.diagnostics };
  }
  if (list.node.type !== 'array') {
    r.report('error', 'invalid-type', '`workflows` must be an array of `{"name", "file"}` objects.', nodeLoc(list.node, list.pointer), { data: { expected: 'array' } });
    return { diagnostics: r.diagnostics };
  }
  const entries: ManifestEntry[] = [];
  (list.node.children ?? []).forEach((item, i) => {
    const entry = readEntry(r, item, childPointer(list.pointer, i));
    if (entry) entries.push(entry);
  });
  return { manifest: { entries }, diagnostics: r.diagnostics };
}

function readEntry(r: Reader, node: JsonNode, pointer: string): ManifestEntry | undefined {
  if (!r.isObject(node, pointer, 'Each item of `workflows`')) return undefined;
  const f = r.fields(node, pointer, 'the registry entry', MANIFEST_ENTRY_FIELDS);
  r.string(f.get('description'));
  const name = required(r, node, pointer, f.get('name'), 'name', ' Add `"name": "<name to invoke>"`.');
  const file = required(r, node, pointer, f.get('file'), 'file', ' Add `"file": "<workflow file, relative to this manifest>"`.');
  return name && file ? { name, file } : undefined;
}

/** A required, non-empty string field; anything else is reported. */
function required(r: Reader, owner: JsonNode, pointer: string, e: Entry | undefined, field: string, hint: string): NameRef | undefined {
  if (!e) {
    r.missing(owner, pointer, field, 'The registry entry', hint);
    return undefined;
  }
  const ref = r.ref(e);
  if (ref?.name.trim() === '') {
    r.report('error', 'invalid-value', `\`${field}\` must not be empty.`, ref.loc);
    return undefined;
  }
  return ref;
}
