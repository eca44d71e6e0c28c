/**
 * Finds the workflows an `invoke` can name: by workflow `id` among the JSON
 * files in the invoking file's folder and in the nearest `.stategate/workflows/`,
 * or by a name registered in a `manifest.json` there
 * (`{"workflows": [{"name", "file"}]}`, the reference's registration format).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadStatewright } from './formats/statewright.js';
import type { InvokeResolver, ResolvedWorkflow, Workflow } from './model.js';

export const MANIFEST_FILE = 'manifest.json';

interface Cached {
  readonly stamp: string;
  readonly workflow?: Workflow;
}

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

  resolve(name: string, fromFile: string): ResolvedWorkflow | undefined {
    for (const dir of this.searchDirs(fromFile)) {
      const found = this.byId(dir, name) ?? this.byManifest(dir, name);
      if (found) return found;
    }
    return undefined;
  }

  /** A resolver for validating `file`; chained invokes resolve beside the file that names them. */
  resolverFor(file: string): InvokeResolver {
    return (name, fromFile) => this.resolve(name, fromFile ?? file);
  }

  /** Names registered in the folder's manifest, with the file each points to. */
  manifestEntries(dir: string): Array<{ name: string; file: string }> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'));
    } catch {
      return []; // no manifest, or an unreadable one: nothing registered
    }
    const list = (parsed as { workflows?: unknown } | null)?.workflows;
    if (!Array.isArray(list)) return [];
    return list
      .filter((w): w is { name: string; file: string } => typeof w?.name === 'string' && typeof w?.file === 'string')
      .map((w) => ({ name: w.name, file: path.resolve(dir, w.file) }));
  }

  private byId(dir: string, id: string): ResolvedWorkflow | undefined {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => n.endsWith('.json') && n !== MANIFEST_FILE).sort();
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

  private byManifest(dir: string, name: string): ResolvedWorkflow | undefined {
    const entry = this.manifestEntries(dir).find((w) => w.name === name);
    const workflow = entry && this.load(entry.file);
    return entry && workflow ? { workflow, file: entry.file } : undefined;
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
