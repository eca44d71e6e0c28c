/**
 * The shared store's commands (docs/team.md): retry now (the status bar's
 * item when the store cannot be used; otherwise the next health poll retries
 * by itself), open the team docs shipped in the extension, and set the
 * store's password.
 *
 * The password is kept in VS Code's SecretStorage (the OS keychain where there
 * is one), never in settings or the workspace: the `stategate.store` URL holds
 * no password, and the store reads the secret at each connect
 * (run-service.ts), ahead of PGPASSWORD. Nothing shows or logs it.
 */
import * as vscode from 'vscode';
import type { RegisterCommand } from '../contributions.js';
import type { RunService } from './run-service.js';

/** SecretStorage key of the shared store's password (one per user, as the `stategate.store` setting is). */
export const STORE_PASSWORD_SECRET = 'stategate.store.password';

/** The password for RunService: read from SecretStorage at each connect. */
export function storePasswordFrom(context: vscode.ExtensionContext): () => Promise<string | undefined> {
  return async () => (await context.secrets.get(STORE_PASSWORD_SECRET)) || undefined;
}

export function registerStoreCommands(context: vscode.ExtensionContext, service: RunService, register: RegisterCommand): vscode.Disposable[] {
  return [
    register('stategate.retryStore', async () => {
      const s = await service.refresh(true);
      return s.kind === 'unreadable' && s.store ? { ok: false, reason: s.store.reason } : { ok: s.kind !== 'unreadable' };
    }),
    register('stategate.setStorePassword', async () => {
      const value = await vscode.window.showInputBox({
        title: 'stategate: Set Store Password',
        prompt: `The password of the shared store ${service.runner.store.kind === 'file' ? '(no stategate.store is set yet)' : service.runner.store.location}, kept in VS Code's secret storage. Empty: forget it.`,
        password: true,
        ignoreFocusOut: true,
      });
      if (value === undefined) return undefined;
      if (value === '') await context.secrets.delete(STORE_PASSWORD_SECRET);
      else await context.secrets.store(STORE_PASSWORD_SECRET, value);
      const s = await service.reconnectStore();
      void vscode.window.setStatusBarMessage(value === '' ? 'stategate: store password forgotten' : 'stategate: store password saved in secret storage', 4000);
      return s.kind === 'unreadable' && s.store ? { ok: false, reason: s.store.reason } : { ok: s.kind !== 'unreadable' };
    }),
    register('stategate.openStoreDocs', () => vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.joinPath(context.extensionUri, 'docs', 'team.md'))),
  ];
}
