// The extension's entry point: wires the parts, nothing else.
import * as vscode from 'vscode';
import { registerLanguageFeatures } from './language/index.js';
import { RunService } from './runtime/run-service.js';
import { RunStatusBar } from './runtime/status-bar.js';
import { registerRunCommands } from './runtime/commands.js';
import { watchSaves } from './runtime/save-watcher.js';
import { notifyApprovals } from './runtime/approvals.js';
import { registerStatePanel } from './panel/index.js';
import { registerAgents } from './agents/index.js';

/** What other extensions (and the in-host tests) see as `extension.exports`. */
export interface StategateApi {
  readonly version: string;
  /** The run service of the first workspace folder, when there is one. */
  readonly runs?: RunService;
  /** When activate() started and how long it took (ms), for the activation measurement. */
  readonly activation: { readonly startedAt: number; readonly ms: number };
}

export function activate(context: vscode.ExtensionContext): StategateApi {
  const startedAt = Date.now();
  const t0 = performance.now();
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  context.subscriptions.push(
    vscode.commands.registerCommand('stategate.showVersion', () => {
      void vscode.window.showInformationMessage(`stategate ${version} (VS Code ${vscode.version})`);
      return version;
    }),
  );
  registerLanguageFeatures(context);
  const folder = vscode.workspace.workspaceFolders?.[0];
  let runs: RunService | undefined;
  if (folder && folder.uri.scheme === 'file') {
    runs = new RunService(folder);
    context.subscriptions.push(runs, new RunStatusBar(runs), ...registerRunCommands(runs), watchSaves(runs), notifyApprovals(runs));
    context.subscriptions.push(...registerAgents(context, runs));
  }
  context.subscriptions.push(...registerStatePanel(context, runs));
  return { version, ...(runs ? { runs } : {}), activation: { startedAt, ms: performance.now() - t0 } };
}

export function deactivate(): void {}
