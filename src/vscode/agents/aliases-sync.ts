/**
 * Keeps `.stategate/tool-aliases.json` equal to the folder's
 * `stategate.toolAliases`, so the hook, the CLI and the MCP server (processes
 * that cannot read VS Code's settings) decide with the same aliases as the
 * `@stategate` participant. Only in a trusted workspace: Restricted Mode
 * writes nothing.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { writeToolAliases } from '../../engine/index.js';
import type { RunService } from '../runtime/run-service.js';
import { toolAliases } from './settings.js';

export function syncToolAliases(service: RunService): vscode.Disposable[] {
  const run = (): void => {
    if (!vscode.workspace.isTrusted) return;
    try {
      writeToolAliases(path.join(service.folder.uri.fsPath, '.stategate'), toolAliases(service.folder));
    } catch (err) {
      void vscode.window.showWarningMessage(`stategate: could not write .stategate/tool-aliases.json, so agents outside the @stategate participant do not see stategate.toolAliases: ${(err as Error)?.message ?? String(err)}`);
    }
  };
  run();
  return [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('stategate.toolAliases', service.folder)) run();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(run),
  ];
}
