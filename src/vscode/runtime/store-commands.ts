/**
 * The shared store's commands (docs/team.md): retry now (the status bar's
 * item when the store cannot be used; otherwise the next health poll retries
 * by itself) and open the team docs shipped in the extension.
 */
import * as vscode from 'vscode';
import type { RegisterCommand } from '../contributions.js';
import type { RunService } from './run-service.js';

export function registerStoreCommands(context: vscode.ExtensionContext, service: RunService, register: RegisterCommand): vscode.Disposable[] {
  return [
    register('stategate.retryStore', async () => {
      const s = await service.refresh(true);
      return s.kind === 'unreadable' && s.store ? { ok: false, reason: s.store.reason } : { ok: s.kind !== 'unreadable' };
    }),
    register('stategate.openStoreDocs', () => vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.joinPath(context.extensionUri, 'docs', 'team.md'))),
  ];
}
