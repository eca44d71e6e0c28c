/**
 * The workflows of the workspace by file, for what crosses files: completing
 * `invoke` ids, jumping to an invoked workflow found anywhere in the workspace,
 * and finding which files invoke a workflow id. Scanned from the workspace
 * folders the client named at `initialize` on first use, and kept current by
 * `workspace/didChangeWatchedFiles` (server.ts registers the watcher with the client).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { anyCaseGlob, isWorkflowPath, KIND_SUFFIXES, loadStatewright, MANIFEST_FILE, occurrences, type ResolveInvoke, type Target, type Workflow, WorkflowRegistry } from '../engine/index.js';

/** The files the index reads (isWorkflowPath), as a glob for the client's file watcher: `*.workflow.json` in any case, as the walk reads them. */
export const WORKFLOW_GLOB = `**/{${[...KIND_SUFFIXES.statewright.map((s) => `*${anyCaseGlob(s)}`), `.stategate/workflows/*${anyCaseGlob('.json')}`].join(',')}}`;
/** As many workflows as the editor's own workspace search gave before (findFiles' limit). */
const MAX_FILES = 5000;
/**
 * Directory entries looked at, at most: the scan is synchronous in the server's one thread, so a
 * huge tree must not hold every request up (100,000 entries take well under a second).
 */
const MAX_ENTRIES = 100_000;
/** Folders a workflow never lives in, and big to walk; other dot-folders are skipped too, but `.stategate`. */
const SKIPPED = new Set(['node_modules']);
const walked = (name: string): boolean => !SKIPPED.has(name) && (!name.startsWith('.') || name === '.stategate');

export class WorkspaceWorkflows {
  private readonly byFile = new Map<string, Workflow>();
  private scanned = false;
  /** The engine's own lookup (beside the file, `.stategate/workflows/`, manifests) comes first. */
  private readonly registry = new WorkflowRegistry();

  constructor(private readonly folders: readonly string[]) {}

  /** Scans the workspace folders on first use (later calls return at once). */
  ready(): void {
    if (this.scanned) return;
    this.scanned = true;
    const budget = { files: MAX_FILES, entries: MAX_ENTRIES };
    for (const folder of this.folders) this.walk(folder, budget);
  }

  ids(): string[] {
    return [...new Set([...this.byFile.values()].map((w) => w.id).filter((id) => id !== ''))].sort();
  }

  /** Resolves an invoke like the validator does, then by id anywhere in the workspace. */
  readonly resolve: ResolveInvoke = (name, fromFile) => {
    const near = fromFile === undefined ? undefined : this.registry.resolve(name, fromFile);
    if (near) return near;
    for (const [file, workflow] of this.byFile) if (workflow.id === name) return { workflow, file };
    return undefined;
  };

  /** Every place in the workspace that invokes `id`. */
  invocations(id: string): Target[] {
    const out: Target[] = [];
    for (const [file, wf] of this.byFile) {
      for (const o of occurrences(wf)) if (o.kind === 'workflow' && o.role === 'reference' && o.name === id) out.push({ file, loc: o.loc });
    }
    return out;
  }

  /** A watched file was created or changed (`deleted` false) or deleted. */
  changed(file: string, deleted: boolean): void {
    if (deleted) this.byFile.delete(file);
    else if (this.scanned) this.read(file);
  }

  private walk(dir: string, budget: { files: number; entries: number }): void {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable: nothing of ours there
    }
    for (const e of entries) {
      if (budget.files <= 0 || --budget.entries < 0) return;
      const full = path.join(dir, e.name);
      if (e.isDirectory() && walked(e.name)) this.walk(full, budget);
      else if (e.isFile() && isWorkflowPath(full) && e.name !== MANIFEST_FILE) {
        this.read(full);
        budget.files--;
      }
    }
  }

  private read(file: string): void {
    if (path.basename(file) === MANIFEST_FILE) return;
    try {
      const wf = loadStatewright(fs.readFileSync(file, 'utf8'), { file }).workflow;
      if (wf) this.byFile.set(file, wf);
      else this.byFile.delete(file);
    } catch {
      this.byFile.delete(file); // unreadable: not a workflow we can use
    }
  }
}
