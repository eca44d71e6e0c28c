/**
 * The workflows of the workspace by file, for what crosses files: completing
 * `invoke` ids, jumping to an invoked workflow found anywhere in the
 * workspace, and finding which files invoke a workflow id. Built on first use
 * and kept current by a file watcher.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { loadStatewright, occurrences, type ResolveInvoke, type Target, type Workflow, WorkflowRegistry } from '../../engine/index.js';

const GLOB = '{**/*.workflow.json,**/.stategate/workflows/*.json}';

export class WorkspaceWorkflows implements vscode.Disposable {
  private readonly byFile = new Map<string, Workflow>();
  private loading: Promise<void> | undefined;
  private readonly watcher: vscode.FileSystemWatcher;
  /** The engine's own lookup (beside the file, `.stategate/workflows/`, manifests) comes first. */
  private readonly registry = new WorkflowRegistry();

  constructor() {
    this.watcher = vscode.workspace.createFileSystemWatcher(GLOB);
    this.watcher.onDidCreate((u) => this.read(u));
    this.watcher.onDidChange((u) => this.read(u));
    this.watcher.onDidDelete((u) => this.byFile.delete(u.fsPath));
  }

  dispose(): void {
    this.watcher.dispose();
  }

  /** Waits for the first scan (later calls return at once). */
  ready(): Promise<void> {
    this.loading ??= (async () => {
      const uris = await vscode.workspace.findFiles(GLOB, '**/node_modules/**', 5000);
      uris.forEach((u) => this.read(u));
    })();
    return this.loading;
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

  private read(uri: vscode.Uri): void {
    if (uri.scheme !== 'file' || uri.path.endsWith('/manifest.json')) return;
    try {
      const wf = loadStatewright(fs.readFileSync(uri.fsPath, 'utf8'), { file: uri.fsPath }).workflow;
      if (wf) this.byFile.set(uri.fsPath, wf);
      else this.byFile.delete(uri.fsPath);
    } catch {
      this.byFile.delete(uri.fsPath); // unreadable: not a workflow we can use
    }
  }
}
