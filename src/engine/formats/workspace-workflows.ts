/**
 * The workflows of a workspace, for `statewright_list_workflows`,
 * `statewright_load_workflow(name)` and the "Start Workflow Run…" picker.
 * A workflow file is one of: `*.workflow.json` anywhere, any `.json` in
 * `.stategate/workflows/`, or a JSON file whose `$schema` ends in
 * `workflow-schema.json`; and a statechart, `*.statechart.yaml|yml|json`
 * (agents start those with statewright_load_workflow too). Names are read
 * by file-kinds.ts, ignoring case. Names registered in a `manifest.json` beside
 * workflows are listed too (the reference's registration format).
 *
 * Plain `.yaml`/`.yml` files are read by their content (a `statechart:` root,
 * `initial` with `states`), but only where workflows are expected, so a big
 * repository's YAML (CI, compose, k8s) is never read: the workspace root, any
 * folder named `statecharts/`, `.stategate/workflows/`, and the chart files
 * `.stategate/registry.yaml` registers (docs/statecharts.md, "File names").
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadStatewright } from './statewright.js';
import { loadStatechart } from './statechart.js';
import { MANIFEST_FILE, WorkflowRegistry } from './registry.js';
import { sniffFormat } from './format-sniff.js';
import { fileKind, isChartFolder, isJsonName, isWorkflowPath, isYamlName } from './file-kinds.js';
import { loadChartRegistry, REGISTRY_YAML } from './statechart-registry.js';

export interface WorkflowEntry {
  readonly id: string;
  readonly file: string;
  /** Other names it answers to (manifest registrations). */
  readonly aliases: readonly string[];
  /** The title the file gives (`name`), when it gives one: what a picker shows first. */
  readonly name?: string;
  readonly description?: string;
  readonly states: number;
}

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'out', '.vscode-test', 'test-artifacts']);
const MAX_FILES = 5000;
const MAX_DEPTH = 8;

/** Where a plain YAML file may hold a workflow: the root, a `statecharts/` folder, `.stategate/workflows/`. */
function yamlFolder(rel: string): boolean {
  const dir = path.dirname(rel).split(path.sep).join('/');
  return dir === '.' || isChartFolder(dir) || dir === '.stategate/workflows';
}

/** The chart files the workspace's `.stategate/registry.yaml` registers (paths relative to that file). */
function registeredCharts(root: string): string[] {
  const file = path.join(root, '.stategate', REGISTRY_YAML);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return loadChartRegistry(text).machineRegistry.map((e) => path.resolve(path.dirname(file), e.src)).filter((f) => f.startsWith(root + path.sep));
}

/** Whether a JSON text declares the workflow schema. Cheap: looks only at the start of the text. */
export function declaresWorkflowSchema(text: string): boolean {
  return /"\$schema"\s*:\s*"[^"]*workflow-schema\.json"/.test(text.slice(0, 2000));
}

function candidates(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > MAX_DEPTH || found.length >= MAX_FILES) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && (e.name !== '.stategate' || depth === 0)) walk(full, depth + 1);
      } else if (e.isFile() && ((isJsonName(e.name) && e.name !== MANIFEST_FILE) || fileKind(e.name) === 'statechart' || (isYamlName(e.name) && yamlFolder(path.relative(root, full))))) {
        found.push(full);
      }
    }
  };
  walk(root, 0);
  for (const file of registeredCharts(root)) if (!found.includes(file) && fs.existsSync(file)) found.push(file);
  return found.sort();
}

export function findWorkflows(root: string): WorkflowEntry[] {
  const registry = new WorkflowRegistry();
  const entries: WorkflowEntry[] = [];
  const aliasesOf = new Map<string, string[]>();
  for (const file of candidates(root)) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const chart = fileKind(file) === 'statechart' || (!isJsonName(file) && sniffFormat(text, file) === 'statechart') || /^\s*\{\s*"statechart"\s*:/.test(text);
    const yamlWorkflow = !chart && isYamlName(file) && sniffFormat(text, file) === 'statewright';
    if (!chart && !yamlWorkflow && !isWorkflowPath(path.relative(root, file)) && !declaresWorkflowSchema(text) && !/"states"\s*:/.test(text)) continue;
    const wf = (chart ? loadStatechart(text, { file }) : loadStatewright(text, { file })).workflow;
    if (!wf || wf.states.size === 0 || !wf.id) continue;
    const dir = path.dirname(file);
    if (!aliasesOf.has(dir)) {
      for (const m of registry.manifestEntries(dir)) aliasesOf.set(`${m.file}`, [...(aliasesOf.get(m.file) ?? []), m.name]);
      aliasesOf.set(dir, []);
    }
    entries.push({
      id: wf.id,
      file,
      aliases: aliasesOf.get(file) ?? [],
      ...(wf.name && wf.name.trim() ? { name: wf.name.trim() } : {}),
      ...(wf.description ? { description: wf.description } : {}),
      states: wf.states.size,
    });
  }
  return entries;
}

/**
 * The workflows to propose, the one in `activeFile` (the file open in the
 * active editor) first when it is one of them, the rest in their order: the
 * workflow a person is looking at is the one they most likely mean to run.
 */
export function activeFirst<T extends { readonly file: string }>(entries: readonly T[], activeFile: string | undefined): { ordered: T[]; active?: T } {
  const at = activeFile === undefined ? -1 : entries.findIndex((w) => path.resolve(w.file) === path.resolve(activeFile));
  const active = entries[at];
  if (at < 0 || !active) return { ordered: [...entries] };
  return { ordered: [active, ...entries.slice(0, at), ...entries.slice(at + 1)], active };
}

/** Find a workflow by id, registered name, or file path relative to the root. */
export function findWorkflow(root: string, name: string): WorkflowEntry | undefined {
  const all = findWorkflows(root);
  return (
    all.find((w) => w.id === name) ??
    all.find((w) => w.aliases.includes(name)) ??
    all.find((w) => path.relative(root, w.file).split(path.sep).join('/') === name.replace(/^\.\//, ''))
  );
}
