/**
 * Registers at activation what the runs bundle implements (runs.ts, built as
 * dist/extension-runs.js, see scripts/build.mjs): every contributed command,
 * the agent tools, the @stategate participant and the state panel's view and
 * serializer, each with a stand-in that loads the bundle on first use. With a
 * folder open, the bundle loads right after activate() returns, so the status
 * bar shows a run started earlier without activation waiting for `.stategate/`.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { contributed, PANEL_EDITOR_TYPE, PANEL_VIEW_ID, PARTICIPANT_ID } from '../contributions.js';
import type { RunParts } from './runs.js';
import { registerIfAvailable } from '../editor-apis.js';

/** How long after activate() the run support loads (the status bar of a run started earlier appears then). */
const RUNS_DELAY_MS = 150;

type Runs = typeof import('./runs.js');

/**
 * `own` are the commands activate() implements itself. Returns the runs, loaded
 * on first call.
 */
export function registerRuns(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder | undefined, own: ReadonlySet<string>): () => RunParts {
  let parts: RunParts | undefined;
  const runs = (): RunParts => (parts ??= (require('./runs.js') as Runs).startRuns(context, folder));
  const pkg: unknown = context.extension.packageJSON;
  for (const id of contributed(pkg, 'commands', 'command')) {
    if (own.has(id)) continue;
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (...args: unknown[]) => {
        const handler = runs().commands.get(id);
        if (handler) return handler(...args);
        // Only the run and agent commands are missing, and only when no folder is open.
        void vscode.window.showWarningMessage('stategate: open a folder to use workflow runs.');
        return undefined;
      }),
    );
  }
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, { resolveWebviewView: (...a) => runs().panel.view.resolveWebviewView(...a) }),
    vscode.window.registerWebviewPanelSerializer(PANEL_EDITOR_TYPE, { deserializeWebviewPanel: (...a) => runs().panel.serializer.deserializeWebviewPanel(...a) }),
  );
  if (!folder) return runs;
  const tool = (name: string) => {
    const t = runs().agents?.tools.get(name);
    if (!t) throw new Error(`stategate has no tool ${name}`);
    return t;
  };
  // A fork of VS Code may lack the chat APIs (editor-apis.ts): then stategate runs without its tools and participant.
  for (const name of contributed(pkg, 'languageModelTools', 'name')) {
    const registered = registerIfAvailable('language model tools', () =>
      vscode.lm.registerTool<Record<string, unknown>>(name, {
        prepareInvocation: (...a) => tool(name).prepareInvocation?.(...a),
        invoke: (...a) => tool(name).invoke(...a),
      }),
    );
    if (!registered) break;
    context.subscriptions.push(registered);
  }
  const participant = registerIfAvailable('chat participant', () => {
    const p = vscode.chat.createChatParticipant(PARTICIPANT_ID, (...a) => runs().agents!.participant(...a));
    p.iconPath = vscode.Uri.file(path.join(context.extensionPath, 'media', 'icon.png'));
    return p;
  });
  if (participant) context.subscriptions.push(participant);
  // The status bar and the rest follow the run from `.stategate/` once loaded: shortly after
  // activation, not inside it (loading the run support takes tens of ms; a person does not see 150).
  setTimeout(() => {
    try {
      runs();
    } catch (err) {
      void vscode.window.showErrorMessage(`stategate: could not load its run support: ${(err as Error)?.message ?? String(err)}`);
    }
  }, RUNS_DELAY_MS);
  return runs;
}
