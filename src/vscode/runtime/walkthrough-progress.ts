/**
 * The walkthrough's steps ticked from what the folder and the window show, however it was done: a
 * workflow file in an editor, a run in `.stategate/runs/` (started here, in an earlier window, from
 * the CLI or by an agent), the hooks of VS Code's agents installed. The state panel's step is ticked
 * where the panel is shown (lazy-runs.ts) and by its completion events. Part of the runs bundle,
 * which loads right after activation with a folder open: nothing here runs inside activate().
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadWorkflowText, VSCODE_HOOK_FILE } from '../../engine/index.js';
import { markWalkthroughStep } from '../walkthrough-step.js';
import type { RunService } from './run-service.js';

const HOOKS_POLL_MS = 2000;

/** A document that holds a workflow of any format the engine loads (as "Export Diagram…" reads one). */
function isWorkflowDocument(doc: vscode.TextDocument): boolean {
  if (doc.uri.scheme !== 'file' || !/\.(json|ya?ml)$/i.test(doc.uri.fsPath)) return false;
  try {
    return (loadWorkflowText(doc.getText(), doc.uri.fsPath).workflow?.states.size ?? 0) > 0;
  } catch {
    return false;
  }
}

function hasEntries(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

export function trackWalkthroughProgress(extensionId: string, folder: vscode.WorkspaceFolder, service: RunService): vscode.Disposable {
  const subscriptions: vscode.Disposable[] = [];
  // Each document is read once; a workflow's is ticked whenever it is seen (markWalkthroughStep gives a
  // tick once, and again after it gave up).
  const workflows = new Map<string, boolean>();
  const seeEditors = (editors: readonly vscode.TextEditor[]) => {
    for (const e of editors) {
      const key = e.document.uri.toString();
      let isWorkflow = workflows.get(key);
      if (isWorkflow === undefined) workflows.set(key, (isWorkflow = isWorkflowDocument(e.document)));
      if (isWorkflow) markWalkthroughStep(extensionId, 'openWorkflow');
    }
  };
  seeEditors(vscode.window.visibleTextEditors);
  subscriptions.push(vscode.window.onDidChangeVisibleTextEditors(seeEditors), vscode.window.onDidChangeActiveTextEditor((e) => e && seeEditors([e])));

  // A run now, or one kept from before (a finished run's journal stays under runs/).
  const runs = path.join(service.runner.dir, 'runs');
  const seeRuns = () => {
    if (service.current.kind === 'active' || hasEntries(runs)) markWalkthroughStep(extensionId, 'startRun');
  };
  seeRuns();
  subscriptions.push(service.onDidChange(seeRuns));

  // Looked for every few seconds until it is there (then the step is ticked for good): a watcher
  // missed the file written by `stategate enable` in the e2e test, and one stat is cheap.
  const hookFile = path.join(folder.uri.fsPath, VSCODE_HOOK_FILE);
  const seeHooks = (): boolean => {
    if (!fs.existsSync(hookFile)) return false;
    markWalkthroughStep(extensionId, 'enableEnforcement');
    return true;
  };
  if (!seeHooks()) {
    const poll = setInterval(() => seeHooks() && clearInterval(poll), HOOKS_POLL_MS);
    subscriptions.push({ dispose: () => clearInterval(poll) });
  }
  return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
}
