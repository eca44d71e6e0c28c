// The extension's entry point: wires the parts, nothing else.
import * as vscode from 'vscode';

/** What other extensions (and the in-host tests) see as `extension.exports`. */
export interface StategateApi {
  readonly version: string;
}

export function activate(context: vscode.ExtensionContext): StategateApi {
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  context.subscriptions.push(
    vscode.commands.registerCommand('stategate.showVersion', () => {
      void vscode.window.showInformationMessage(`stategate ${version} (VS Code ${vscode.version})`);
      return version;
    }),
  );
  return { version };
}

export function deactivate(): void {}
