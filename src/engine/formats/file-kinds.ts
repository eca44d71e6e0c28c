/**
 * What a file's NAME says it holds, for every surface that asks (the checker
 * and `stategate validate`, starting a run, the workspace's workflow list, the
 * chart registry, the language server, the Flows view): one table of typed
 * suffixes and one case rule, so that a name never means one thing to the CLI
 * and another to the editor.
 *
 * The rule: the typed suffixes (`.statechart.yaml|yml|json`, `.flow.yaml|yml|json`,
 * `.workflow.json`), the data extensions (`.yaml`, `.yml`, `.json`) and the
 * `statecharts/` folder convention are matched ignoring case:
 * `Deploy.Statechart.YAML` is a statechart everywhere. Why (docs/design/files-by-content.md, "Names"):
 * on macOS and Windows the file system ignores case, and nothing else in a
 * name can make `.Statechart.yaml` mean anything but a statechart.
 * `.stategate/` is stategate's own folder, read and written by that exact name,
 * so it is matched as written.
 *
 * The content has the last word where the name says nothing (format-sniff.ts).
 */
import type { WorkflowFormat } from '../model/index.js';

/** The typed suffixes, lowercase, per format: what package.json's globs name too (test/unit/file-kinds.test.ts holds them together). */
export const KIND_SUFFIXES: Readonly<Record<WorkflowFormat, readonly string[]>> = {
  statechart: ['.statechart.yaml', '.statechart.yml', '.statechart.json'],
  flow: ['.flow.yaml', '.flow.yml', '.flow.json'],
  statewright: ['.workflow.json'],
};

/** A data file's extension, any case. */
const DATA_EXTENSION = /\.(ya?ml|json)$/i;
/** The folder a registry's chart files conventionally sit in (`statecharts/code_review.yaml`), any case. */
const CHART_FOLDER = 'statecharts';
/** Where a workspace keeps workflows of any name (`.stategate/workflows/review.json`); stategate's own folder, as written. */
const WORKFLOWS_FOLDER = /(^|[\\/])\.stategate[\\/]workflows[\\/][^\\/]+\.[jJ][sS][oO][nN]$/;

/** The last part of a path, for `/` and `\` alike (a Windows path, a URI's path). */
function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}

/** The format a file's name declares by its typed suffix; undefined for a plain `.yaml`/`.yml`/`.json` (or any other) name. */
export function fileKind(file: string | undefined): WorkflowFormat | undefined {
  const name = baseName(file ?? '').toLowerCase();
  for (const [format, suffixes] of Object.entries(KIND_SUFFIXES) as [WorkflowFormat, readonly string[]][]) {
    if (suffixes.some((s) => name.endsWith(s))) return format;
  }
  return undefined;
}

/** Whether a name is one whose format can only be read from its content: a data extension and no typed suffix. */
export function isPlainDataFile(file: string): boolean {
  return DATA_EXTENSION.test(file) && fileKind(file) === undefined;
}

/** Whether a name has a YAML extension (`.yaml`, `.yml`, any case). */
export function isYamlName(file: string): boolean {
  return /\.ya?ml$/i.test(file);
}

/** Whether a name has the JSON extension (any case). */
export function isJsonName(file: string): boolean {
  return /\.json$/i.test(file);
}

/** The name a format gives a file's workflow: `deploy` for `deploy.flow.yaml`, `Deploy.Flow.YML` and a plain `deploy.yaml`. */
export function kindBaseName(file: string): string {
  const name = baseName(file);
  const kind = fileKind(name);
  const suffix = kind === undefined ? undefined : KIND_SUFFIXES[kind].find((s) => name.toLowerCase().endsWith(s));
  return suffix === undefined ? name.replace(DATA_EXTENSION, '') : name.slice(0, name.length - suffix.length);
}

/** Whether a folder (a workspace-relative path with `/`) is the `statecharts/` convention's: its last part is `statecharts`, any case. */
export function isChartFolder(dir: string): boolean {
  return baseName(dir.replace(/[\\/]+$/, '')).toLowerCase() === CHART_FOLDER;
}

/** Whether a path names a Statewright workflow by its name or place alone: `*.workflow.json`, or any `.json` in `.stategate/workflows/`. */
export function isWorkflowPath(file: string): boolean {
  return fileKind(file) === 'statewright' || WORKFLOWS_FOLDER.test(file);
}

/** A name part as a glob that matches it in any case (`[sS][tT]...`): the globs VS Code and LSP clients match are case-sensitive on Linux. */
export function anyCaseGlob(part: string): string {
  return [...part].map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toLowerCase()}${c.toUpperCase()}]`)).join('');
}

/** A glob for the files a format's typed suffixes name, anywhere, in any case: for a shell's file watcher or document selector. */
export function kindGlob(format: WorkflowFormat): string {
  const parts = KIND_SUFFIXES[format].map(anyCaseGlob);
  // A one-choice brace group is literal text to a glob, as in a shell.
  return `**/*${parts.length === 1 ? parts[0] : `{${parts.join(',')}}`}`;
}
