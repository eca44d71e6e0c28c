/**
 * Finds the workflows an `invoke` can name: by workflow `id` among the JSON
 * files in the invoking file's folder and in the nearest `.stategate/workflows/`,
 * or by a name registered in a `manifest.json` there
 * (`{"workflows": [{"name", "file"}]}`, the reference's registration format).
 * A manifest that cannot be read or is malformed is a problem to report, never
 * an empty registry: the name looked for may be registered in it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInvokeRegistry } from './index.js';
import { loadRegistryManifest, MANIFEST_FILE } from './registry-manifest.js';
import { loadStatewright } from './statewright.js';
import { isJsonName } from './file-kinds.js';
import type { InvokeProblem, InvokeResolver, ResolvedWorkflow, Workflow } from '../model/index.js';
import { isInvokeProblem } from '../model/index.js';
import { LineIndex } from './text-position.js';

export { MANIFEST_FILE };

interface Cached {
  readonly stamp: string;
  readonly workflow?: Workflow;
}

/** A folder's manifest as invoke resolution sees it. */
export type ManifestRead =
  | { readonly kind: 'none' }
  | { readonly kind: 'ok'; readonly entries: ReadonlyArray<{ readonly name: string; readonly file: string }> }
  | { readonly kind: 'broken'; readonly problem: string };

export class WorkflowRegistry {
  /** Parsed files by absolute path, reused while the file's size and mtime are unchanged. */
  private readonly cache = new Map<string, Cached>();

  /** The folders searched for invokes from `file`: its own, then the nearest `.stategate/workflows/` above it. */
  searchDirs(file: string): string[] {
    const own = path.dirname(path.resolve(file));
    const dirs = [own];
    for (let dir = own; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, '.stategate', 'workflows');
      if (isDirectory(candidate)) {
        if (candidate !== own) dirs.push(candidate);
        break;
      }
      if (path.dirname(dir) === dir) break;
    }
    return dirs;
  }

  /**
   * The workflow `name` names from `fromFile`: in each folder by id, then by
   * the folder's manifest. A broken manifest met on the way, or a registered
   * file that does not load, ends the search with the problem.
   */
  lookup(name: string, fromFile: string): ResolvedWorkflow | InvokeProblem | undefined {
    for (const dir of this.searchDirs(fromFile)) {
      const found = this.withId(dir, name) ?? this.byManifest(dir, name);
      if (found) return found;
    }
    return undefined;
  }

  /** The workflow `name` names, when it resolves (editor features; problems are the validator's to report). */
  resolve(name: string, fromFile: string): ResolvedWorkflow | undefined {
    const found = this.lookup(name, fromFile);
    return isInvokeProblem(found) ? undefined : found;
  }

  /** A resolver for validating `file`; chained invokes resolve beside the file that names them. */
  resolverFor(file: string): InvokeResolver {
    return (name, fromFile) => this.lookup(name, fromFile ?? file);
  }

  /** The folder's manifest: its entries (files made absolute), none, or what is wrong with it. */
  readManifest(dir: string): ManifestRead {
    const file = path.join(dir, MANIFEST_FILE);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'none' };
      return { kind: 'broken', problem: `the registry ${file} cannot be read (${code ?? (err as Error).message}).` };
    }
    if (!isInvokeRegistry(text)) return { kind: 'none' }; // a workflow, or another tool's manifest.json
    const loaded = loadRegistryManifest(text);
    const error = loaded.diagnostics.find((d) => d.severity === 'error');
    if (error || !loaded.manifest) {
      const at = error ? new LineIndex(text).position(error.loc.start) : { line: 0, character: 0 };
      return { kind: 'broken', problem: `the registry ${file} is malformed at line ${at.line + 1}, column ${at.character + 1}: ${error?.message ?? 'it is not a registry manifest.'}` };
    }
    return { kind: 'ok', entries: loaded.manifest.entries.map((e) => ({ name: e.name.name, file: path.resolve(dir, e.file.name) })) };
  }

  /** Names registered in the folder's manifest, with the file each points to (none when it is broken: listing only). */
  manifestEntries(dir: string): ReadonlyArray<{ name: string; file: string }> {
    const read = this.readManifest(dir);
    return read.kind === 'ok' ? read.entries : [];
  }

  /** The first workflow (by file name) in `dir` whose id is `id`. */
  withId(dir: string, id: string): ResolvedWorkflow | undefined {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => isJsonName(n) && n !== MANIFEST_FILE).sort();
    } catch {
      return undefined;
    }
    for (const n of names) {
      const file = path.join(dir, n);
      const workflow = this.load(file);
      if (workflow?.id === id) return { workflow, file };
    }
    return undefined;
  }

  private byManifest(dir: string, name: string): ResolvedWorkflow | InvokeProblem | undefined {
    const read = this.readManifest(dir);
    if (read.kind === 'none') return undefined;
    if (read.kind === 'broken') return { problem: `${read.problem} \`${name}\` may be registered there: fix the manifest (\`stategate validate ${path.join(dir, MANIFEST_FILE)}\` says what is wrong).` };
    const entry = read.entries.find((w) => w.name === name);
    if (!entry) return undefined;
    const workflow = this.load(entry.file);
    if (workflow) return { workflow, file: entry.file };
    const why = fs.existsSync(entry.file) ? 'does not load as a workflow' : 'does not exist';
    return { problem: `${path.join(dir, MANIFEST_FILE)} registers \`${name}\` as ${entry.file}, which ${why} (\`stategate validate ${path.join(dir, MANIFEST_FILE)}\` says why).` };
  }

  private load(file: string): Workflow | undefined {
    let stamp: string;
    try {
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st?.isFile()) return undefined;
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch {
      return undefined;
    }
    const cached = this.cache.get(file);
    if (cached?.stamp === stamp) return cached.workflow;
    let workflow: Workflow | undefined;
    try {
      workflow = loadStatewright(fs.readFileSync(file, 'utf8'), { file }).workflow;
    } catch {
      workflow = undefined; // unreadable between stat and read: treat as absent
    }
    this.cache.set(file, workflow ? { stamp, workflow } : { stamp });
    return workflow;
  }
}

function isDirectory(p: string): boolean {
  try {
    // throwIfNoEntry: a missing folder (the usual answer, asked for every folder up to the root) without building an Error.
    return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}
