/**
 * Rules for a registry manifest's entries, beyond their shape (which the
 * loader checks): each registered file exists and loads as a workflow without
 * errors, names are unique, and a name that is also the id of another
 * workflow where invokes look is flagged (ids are looked up before names).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ManifestEntry, RegistryManifest } from '../formats/registry-manifest.js';
import type { Diagnostic } from '../model/index.js';
import type { WorkflowRegistry } from '../formats/registry.js';
import { LineIndex } from '../formats/text-position.js';

export interface ManifestRuleOptions {
  /** Where ids are looked up, as invoke resolution does. */
  readonly registry: WorkflowRegistry;
  /** How a registered file is checked (check-file.ts's checkWorkflowFile, passed in: check-file.ts calls these rules). */
  readonly checkWorkflow: (text: string, file: string) => { readonly diagnostics: readonly Diagnostic[] };
}

/** `file` is the manifest's path; registered files are relative to its folder. */
export function manifestRules(manifest: RegistryManifest, file: string, opts: ManifestRuleOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  const dir = path.dirname(path.resolve(file));
  const first = new Map<string, ManifestEntry>();
  for (const entry of manifest.entries) {
    const earlier = first.get(entry.name.name);
    if (earlier) out.push(duplicateName(entry, earlier));
    else first.set(entry.name.name, entry);
    const target = path.resolve(dir, entry.file.name);
    const problem = entryFileProblem(entry, target, opts);
    if (problem) out.push(problem);
    out.push(...shadowing(entry, target, file, dir, opts.registry));
  }
  return out;
}

function duplicateName(entry: ManifestEntry, earlier: ManifestEntry): Diagnostic {
  return {
    severity: 'error',
    code: 'duplicate-workflow-name',
    message: `\`${entry.name.name}\` is registered twice; an invoke of it gets the first entry. Remove or rename one of them.`,
    loc: entry.name.loc,
    related: [{ message: `first \`${entry.name.name}\``, loc: earlier.name.loc }],
  };
}

/** The registered file must exist and load as a workflow without errors; its own first error is quoted. */
function entryFileProblem(entry: ManifestEntry, target: string, opts: ManifestRuleOptions): Diagnostic | undefined {
  const at = (code: string, message: string): Diagnostic => ({ severity: 'error', code, message, loc: entry.file.loc, data: { file: target } });
  let text: string;
  try {
    text = fs.readFileSync(target, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return at('manifest-file-missing', `\`${entry.file.name}\` does not exist (looked for ${target}). Fix the path (relative to this manifest) or remove the entry.`);
    return at('manifest-file-invalid', `\`${entry.file.name}\` cannot be read (${code ?? (err as Error).message}).`);
  }
  const error = opts.checkWorkflow(text, target).diagnostics.find((d) => d.severity === 'error');
  if (!error) return undefined;
  const pos = new LineIndex(text).position(error.loc.start);
  return at(
    'manifest-file-invalid',
    `\`${entry.file.name}\` does not load as a workflow without errors; its first: ${entry.file.name}:${pos.line + 1}:${pos.character + 1}: ${error.code}: ${error.message}`,
  );
}

/** Another workflow whose id is the registered name, in this folder or the nearest `.stategate/workflows/`. */
function shadowing(entry: ManifestEntry, target: string, file: string, dir: string, registry: WorkflowRegistry): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const searched of registry.searchDirs(file)) {
    const other = registry.withId(searched, entry.name.name);
    if (!other?.file || path.resolve(other.file) === target) continue;
    out.push({
      severity: 'warning',
      code: 'shadowed-workflow-name',
      message:
        `\`${entry.name.name}\` is also the id of another workflow (${path.relative(dir, other.file)}); ` +
        `an invoke of \`${entry.name.name}\` may get that one instead of \`${entry.file.name}\` (ids are looked up before registered names). Rename the entry or that workflow's id.`,
      loc: entry.name.loc,
      related: [{ message: `the workflow with id \`${entry.name.name}\``, loc: other.workflow.idLoc ?? { pointer: '/id', start: 0, end: 0 }, file: other.file }],
      data: { file: other.file },
    });
  }
  return out;
}
