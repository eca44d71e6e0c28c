/**
 * Machine registries and service tables: a chart's own `machine_registry` and
 * `services`, and the workspace's `.stategate/registry.yaml`, which has the
 * same two keys:
 *
 *     machine_registry:
 *       - {id: code_review_workflow, version: "1.2.0", src: statecharts/code_review.statechart.yaml}
 *     services: [agent_executor]
 *
 * A registry entry's `src` is relative to the file that registers it.
 */
import type { Diagnostic, MachineRegistryEntry, NameRef } from '../model/index.js';
import { nodeLoc } from './jsonc.js';
import { Reader, type Entry } from './reader.js';
import { REGISTRY_ENTRY_FIELDS } from './statechart-fields.js';
import { itemEntry } from './statechart-read.js';
import { parseYamlTree } from './yaml-tree.js';

/** The workspace's registry file, under the nearest `.stategate/` folder. */
export const REGISTRY_YAML = 'registry.yaml';

export interface ChartRegistryFile {
  readonly machineRegistry: readonly MachineRegistryEntry[];
  readonly services: readonly NameRef[];
  readonly diagnostics: Diagnostic[];
}

/** `.stategate/registry.yaml`: its `machine_registry` and `services` (other keys are warned about). */
export function loadChartRegistry(text: string): ChartRegistryFile {
  if (/^\s*$/.test(text)) return { machineRegistry: [], services: [], diagnostics: [] }; // an empty registry registers nothing
  const parsed = parseYamlTree(text);
  const r = new Reader();
  r.diagnostics.push(...parsed.diagnostics);
  const root = parsed.root;
  if (!root || root.type !== 'object') {
    if (root) r.report('error', 'invalid-type', 'The registry is a mapping with `machine_registry` and `services`.', nodeLoc(root, ''));
    return { machineRegistry: [], services: [], diagnostics: r.diagnostics };
  }
  const f = r.fields(root, '', 'the registry', ['machine_registry', 'services']);
  return { machineRegistry: readRegistry(r, f.get('machine_registry')), services: readServices(r, f.get('services')) ?? [], diagnostics: r.diagnostics };
}

/** `machine_registry: [{id, version, src}]` (the seed's), in order. */
export function readRegistry(r: Reader, e: Entry | undefined): MachineRegistryEntry[] {
  if (!e) return [];
  if (e.node.type !== 'array') {
    r.report('error', 'invalid-type', '`machine_registry` must be a list of `{id, version, src}` entries.', nodeLoc(e.node, e.pointer));
    return [];
  }
  const out: MachineRegistryEntry[] = [];
  (e.node.children ?? []).forEach((item, i) => {
    const entry = itemEntry(item, `${e.pointer}/${i}`, `entry ${i + 1} of \`machine_registry\``);
    const what = entry.key;
    if (!r.isObject(item, entry.pointer, `The value of ${what}`)) return;
    const f = r.fields(item, entry.pointer, what, REGISTRY_ENTRY_FIELDS);
    const id = r.string(f.get('id'));
    const src = r.string(f.get('src'));
    const versionEntry = f.get('version');
    // A YAML `version: 1.10` is the number 1.1: a version must be written as a string.
    const version = versionEntry?.node.type === 'number' ? quoteVersion(r, versionEntry) : r.string(versionEntry);
    if (!f.has('id')) r.missing(item, entry.pointer, 'id', what, ' Name the machine, as `statechart:<id>` invokes it.');
    if (!f.has('src')) r.missing(item, entry.pointer, 'src', what, ' Give the chart file, relative to this file.');
    if (id === undefined || src === undefined) return;
    out.push({ id, ...(version !== undefined ? { version } : {}), src, loc: nodeLoc(item, entry.pointer) });
  });
  return out;
}

function quoteVersion(r: Reader, e: Entry): undefined {
  r.report('error', 'invalid-type', `\`version\` must be a string: write it in quotes ("${String(e.node.value)}") so it stays the version you wrote.`, nodeLoc(e.node, e.pointer));
  return undefined;
}

/** `services: [name, ...]` or `services: {name: {...}}` (the values are the author's notes). */
export function readServices(r: Reader, e: Entry | undefined): NameRef[] | undefined {
  if (!e) return undefined;
  if (e.node.type === 'object') return r.entries(e.node, e.pointer, '`services`').map((s) => ({ name: s.key, loc: s.keyLoc }));
  if (e.node.type === 'array') return r.refArray(e);
  r.report('error', 'invalid-type', '`services` must be a list of service names (or an object keyed by them).', nodeLoc(e.node, e.pointer));
  return undefined;
}
