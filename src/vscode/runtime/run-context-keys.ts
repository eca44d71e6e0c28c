/**
 * The context keys behind the palette's `when` clauses (package.json, contributes.menus.commandPalette),
 * so a command shows only where it applies: approve and reject with a pending approval, the run's
 * commands with a run in the status they act on, the shared store's with a shared store.
 * Kept in step with every change of the run (RunService.onDidChange).
 */
import * as vscode from 'vscode';
import type { RunService, RunSituation } from './run-service.js';

export const RUN_STATUS_KEY = 'stategate.runStatus';
export const APPROVAL_PENDING_KEY = 'stategate.approvalPending';
export const SHARED_STORE_KEY = 'stategate.sharedStore';

function setKeys(situation: RunSituation): void {
  const active = situation.kind === 'active' ? situation : undefined;
  // '' without a readable run: `stategate.runStatus` then matches none of the run commands' clauses.
  void vscode.commands.executeCommand('setContext', RUN_STATUS_KEY, active?.run.status ?? '');
  void vscode.commands.executeCommand('setContext', APPROVAL_PENDING_KEY, active !== undefined && active.view.pending_approval !== undefined);
}

export function trackRunContextKeys(service: RunService): vscode.Disposable {
  void vscode.commands.executeCommand('setContext', SHARED_STORE_KEY, service.runner.store.kind !== 'file');
  setKeys(service.current);
  return service.onDidChange(setKeys);
}
