/**
 * The `stategate.store` setting: read from the user's settings only (a
 * workspace file is the agent's to write, docs/team.md).
 *
 * A change while the window is open re-points the workspace's hooks at once
 * (store-pointer.ts): they act for the person's current choice from their next
 * call. The extension's own view keeps the store it opened until the window
 * reloads, and says so with a Reload button: every view and command shares the
 * one Runner of the store it started with.
 */
import * as vscode from 'vscode';
import { writeStorePointer } from '../../engine/index.js';

/** The user's `stategate.store` (user settings only: a workspace file is the agent's to write). */
export function configuredStore(): string | undefined {
  return vscode.workspace.getConfiguration('stategate').inspect<string>('store')?.globalValue?.trim() || undefined;
}

/** Follow changes of `stategate.store`: re-point the hooks now, offer a reload for the views. */
export function watchStoreSetting(folder: vscode.WorkspaceFolder): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('stategate.store')) return;
    const url = configuredStore();
    try {
      writeStorePointer(folder.uri.fsPath, url);
    } catch (err) {
      void vscode.window.showWarningMessage(`stategate: could not tell this workspace's hooks which store to use: ${(err as Error).message}`);
      return;
    }
    const now = url ? 'the shared store in stategate.store' : 'the run files in .stategate/';
    void vscode.window
      .showInformationMessage(`stategate: this workspace's hooks now use ${now}. Reload the window for the state panel and status bar to use it too.`, 'Reload Window')
      .then((pick) => pick && vscode.commands.executeCommand('workbench.action.reloadWindow'));
  });
}
