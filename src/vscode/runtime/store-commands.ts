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
 *
 * A change of `stategate.store` while the window is open re-points the
 * workspace's hooks at once (store-pointer.ts): they act for the person's
 * current choice from their next call. The extension's own view keeps the
 * store it opened until the window reloads, and says so with a Reload button:
 * every view and command shares the one Runner of the store it started with.
 */
import * as vscode from 'vscode';
import type { RegisterCommand } from '../contributions.js';
import { writeStorePointer } from '../../engine/index.js';
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

/** The user's `stategate.store` (user settings only: a workspace file is the agent's to write). */
export function configuredStore(): string | undefined {
  return vscode.workspace.getConfiguration('stategate').inspect<string>('store')?.globalValue?.trim() || undefined;
}

/** Follow changes of `stategate.store`: re-point the hooks now, offer a reload for the views. */
export function watchStoreSetting(service: RunService): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('stategate.store')) return;
    const url = configuredStore();
    try {
      writeStorePointer(service.folder.uri.fsPath, url);
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
