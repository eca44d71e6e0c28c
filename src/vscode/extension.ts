// The extension's entry point: wires the parts, nothing else. This bundle (dist/extension.js) only
// registers: the language features and the runs (status bar, commands, agents, panel) are bundles of
// their own that their stand-ins load on first use (language/lazy-language.ts starts the language
// client, whose server is a process of its own; runtime/lazy-runs.ts).
import * as vscode from 'vscode';
import { registerLanguageFeatures } from './language/lazy-language.js';
import { registerMcpProvider } from './agents/mcp-provider.js';
import { registerFlows } from './flows/lazy-flows.js';
import { registerRuns } from './runtime/lazy-runs.js';
import type { RunService } from './runtime/run-service.js';
import { unavailableApis } from './editor-apis.js';

/** What other extensions (and the in-host tests) see as `extension.exports`. */
export interface StategateApi {
  readonly version: string;
  /** The run service of the first workspace folder, when there is one (reading it loads the runs bundle). */
  readonly runs?: RunService;
  /** When activate() started and how long it took (ms), for the activation measurement. */
  readonly activation: { readonly startedAt: number; readonly ms: number };
  /** The VS Code APIs this editor did not offer (a fork of VS Code), each with why (editor-apis.ts). */
  readonly unavailable: readonly string[];
  /** The language server's process id; undefined until the first document of ours started it (language/lazy-language.ts). */
  languageServerPid(): Promise<number | undefined>;
}

const SHOW_VERSION = 'stategate.showVersion';

export function activate(context: vscode.ExtensionContext): StategateApi {
  const startedAt = Date.now();
  const t0 = performance.now();
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_VERSION, () => {
      const missing = unavailableApis();
      void vscode.window.showInformationMessage(`stategate ${version} (VS Code ${vscode.version})${missing.length ? `; not in this editor, so left out: ${missing.join(', ')}` : ''}`);
      return version;
    }),
  );
  const language = registerLanguageFeatures(context);
  const first = vscode.workspace.workspaceFolders?.[0];
  const folder = first && first.uri.scheme === 'file' ? first : undefined;
  const flowCommands = registerFlows(context, folder);
  const runs = registerRuns(context, folder, new Set([SHOW_VERSION, ...flowCommands]));
  if (folder) context.subscriptions.push(...registerMcpProvider(context, folder));
  const activation = { startedAt, ms: performance.now() - t0 };
  const unavailable = unavailableApis();
  const languageServerPid = async (): Promise<number | undefined> => language.server()?.processId();
  return folder ? { version, get runs() { return runs().service; }, activation, unavailable, languageServerPid } : { version, activation, unavailable, languageServerPid };
}

export function deactivate(): void {}
