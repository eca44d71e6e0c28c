/**
 * The Flows view: the instances under `.stategate/flows/`, each with its
 * status and current state, and Pause / Resume / Stop as inline actions (the
 * `flow-<status>` context value picks which, package.json `menus`). A file
 * watcher on the instance folder refreshes it, so instances started or moved
 * by the CLI show up too.
 */
import * as vscode from 'vscode';
import { listFlows, STATUS_WORDS, type FlowSummary } from '../../engine/index.js';

/** What needs a person first: running, then paused and interrupted ones; finished ones after (each group in the runner's order). */
const ORDER: Readonly<Record<FlowSummary['status'], number>> = { running: 0, paused: 1, interrupted: 2, failed: 3, stopped: 4, completed: 5 };

export function flowItem(f: FlowSummary): vscode.TreeItem {
  const item = new vscode.TreeItem(f.instance, vscode.TreeItemCollapsibleState.None);
  const where = f.state ? ` · ${f.state}` : '';
  const code = (f.status === 'failed' || f.status === 'completed') && f.exit_code !== null ? ` (exit ${f.exit_code})` : '';
  // The shared words and icons (the engine's STATUS_WORDS), so a failed flow reads and looks failed as a failed run does.
  const words = STATUS_WORDS[f.status];
  item.description = `${words?.label ?? f.status}${where}${code}`;
  item.iconPath = new vscode.ThemeIcon(words?.icon ?? 'circle-outline', words?.color ? new vscode.ThemeColor(words.color) : undefined);
  item.contextValue = `flow-${f.status}`;
  item.tooltip = new vscode.MarkdownString(
    [`**${f.instance}** (${f.flow})`, `status: ${f.status}`, f.state ? `state: \`${f.state}\`` : '', f.exit_code === null ? '' : `exit code: ${f.exit_code}`, f.message ? `\n${f.message}` : ''].filter(Boolean).join('  \n'),
  );
  item.command = { command: 'stategate.showFlow', title: 'Show Flow', arguments: [f.instance] };
  return item;
}

export class FlowsView implements vscode.TreeDataProvider<FlowSummary>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly watcher: vscode.FileSystemWatcher;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly workspace: vscode.WorkspaceFolder) {
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(workspace, '.stategate/flows/**'));
    for (const on of [this.watcher.onDidCreate, this.watcher.onDidChange, this.watcher.onDidDelete]) on(() => this.refresh());
  }

  /** Coalesces the burst of writes one state makes into one refresh. */
  refresh(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.changed.fire();
    }, 100);
  }

  /** The instances now on disk (a folder that cannot be listed reads as none; listFlows lists an unreadable instance as failed with the reason). */
  instances(): FlowSummary[] {
    try {
      return listFlows(this.workspace.uri.fsPath);
    } catch {
      return [];
    }
  }

  getChildren(element?: FlowSummary): FlowSummary[] {
    if (element) return [];
    return this.instances().sort((a, b) => (ORDER[a.status] ?? 9) - (ORDER[b.status] ?? 9));
  }

  getTreeItem(f: FlowSummary): vscode.TreeItem {
    return flowItem(f);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.watcher.dispose();
    this.changed.dispose();
  }
}
