/**
 * The context keys the walkthrough's steps tick on (package.json, contributes.walkthroughs), each
 * saying that a step is done however it was done: in this window, in an earlier one, or from the CLI.
 *
 * - `stategate.workflowOpened`: a workflow file (any format the engine loads) has been in an editor
 *   of this window;
 * - `stategate.enforcementInstalled`: the VS Code agents' hook file is in the folder;
 * - a run is there: `stategate.runStatus` (run-context-keys.ts), set from `.stategate/` whoever started it.
 *
 * Why each step names its key twice (`K` and `K && activeEditor == gettingStartedPage`): VS Code's
 * walkthrough service (src/vs/workbench/contrib/welcomeGettingStarted/browser/gettingStartedService.ts
 * in microsoft/vscode, as in code-server 4.139) ticks an `onContext` step only on a change of the
 * context that makes the expression true, and an expression already true when the walkthrough is
 * registered is recorded as seen without ticking (that session never ticks it). A run that was there
 * before the window opened sets its key during startup, possibly before the walkthrough registers;
 * the second expression cannot be true then (the walkthrough is not the active editor), and becomes
 * true when the user opens the walkthrough, which then shows the step done. docs/design/walkthrough.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadWorkflowText, VSCODE_HOOK_FILE } from '../../engine/index.js';

export const WORKFLOW_OPENED_KEY = 'stategate.workflowOpened';
export const ENFORCEMENT_INSTALLED_KEY = 'stategate.enforcementInstalled';

/** A document that holds a workflow of any format: named like one, and loading with states. */
function isWorkflowDocument(doc: vscode.TextDocument): boolean {
  if (doc.uri.scheme !== 'file' || !/\.(json|ya?ml)$/i.test(doc.uri.fsPath)) return false;
  try {
    return (loadWorkflowText(doc.getText(), doc.uri.fsPath).workflow?.states.size ?? 0) > 0;
  } catch {
    return false;
  }
}

export function trackWalkthroughKeys(folder: vscode.WorkspaceFolder): vscode.Disposable {
  const subscriptions: vscode.Disposable[] = [];
  let opened = false;
  const seeEditors = (editors: readonly vscode.TextEditor[]) => {
    if (opened || !editors.some((e) => isWorkflowDocument(e.document))) return;
    opened = true;
    void vscode.commands.executeCommand('setContext', WORKFLOW_OPENED_KEY, true);
  };
  seeEditors(vscode.window.visibleTextEditors);
  subscriptions.push(vscode.window.onDidChangeVisibleTextEditors(seeEditors));

  const hookFile = path.join(folder.uri.fsPath, VSCODE_HOOK_FILE);
  const seeHooks = () => void vscode.commands.executeCommand('setContext', ENFORCEMENT_INSTALLED_KEY, fs.existsSync(hookFile));
  seeHooks();
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, VSCODE_HOOK_FILE));
  subscriptions.push(watcher, watcher.onDidCreate(seeHooks), watcher.onDidDelete(seeHooks));
  return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
}
