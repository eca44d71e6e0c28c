/**
 * A parked approval surfaces as a notification with Approve / Reject, so a
 * person sees it without the panel open. One notification per request: the
 * request is identified by its time stamp, event and target.
 */
import * as vscode from 'vscode';
import { stateNames } from '../../engine/index.js';
import type { RunService } from './run-service.js';

export function notifyApprovals(service: RunService): vscode.Disposable {
  let shown = '';
  return service.onDidChange(async (s) => {
    if (s.kind !== 'active' || !s.view.pending_approval) return;
    const p = s.view.pending_approval;
    const name = stateNames(s.workflow);
    const key = `${s.run.runId}:${p.requestedAt}:${p.event}:${p.target}`;
    if (key === shown) return;
    shown = key;
    const choice = await vscode.window.showWarningMessage(
      `stategate: approve ${p.event} (${name(p.from)} → ${name(p.target)})?${p.message ? ` ${p.message}` : ''}`,
      'Approve',
      'Reject',
    );
    // The request may have been decided elsewhere (panel, CLI) meanwhile: act only on the same one.
    const now = await service.refresh(true);
    const still = now.kind === 'active' ? now.view.pending_approval : undefined;
    if (!choice || !still || still.requestedAt !== p.requestedAt) return;
    await vscode.commands.executeCommand(choice === 'Approve' ? 'stategate.approve' : 'stategate.reject');
  });
}
