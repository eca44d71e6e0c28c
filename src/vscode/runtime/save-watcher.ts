/**
 * Save-triggered interrupts: a save in the editor whose workspace-relative
 * path matches an interrupt's `file_pattern` fires it (the engine matches,
 * with picomatch compiled once per workflow). Changes made by other programs
 * and shell writes do not fire interrupts, as the format says, so this
 * listens to editor saves only.
 */
import * as vscode from 'vscode';
import { stateNames } from '../../engine/index.js';
import type { RunService } from './run-service.js';

export function watchSaves(service: RunService): vscode.Disposable {
  return vscode.workspace.onDidSaveTextDocument(async (doc) => {
    if (doc.uri.scheme !== 'file') return;
    const situation = service.current;
    if (situation.kind !== 'active' || situation.view.status !== 'running') return;
    if (service.runner.relativePath(doc.uri.fsPath) === undefined) return;
    try {
      const outcome = await service.act((r) => r.fileChanged(doc.uri.fsPath));
      if (outcome.interrupted && outcome.interrupt) {
        const name = stateNames(situation.workflow);
        void vscode.window.showInformationMessage(
          `stategate: saving ${vscode.workspace.asRelativePath(doc.uri)} fired interrupt "${outcome.interrupt.name}": ${name(outcome.interrupt.from)} → ${name(outcome.interrupt.to)}`,
        );
      }
    } catch (err) {
      void vscode.window.showWarningMessage(`stategate: could not check interrupts: ${(err as Error).message}`);
    }
  });
}
