/**
 * Running flows in VS Code, as one bundle of its own (dist/extension-flows.js,
 * see scripts/build.mjs; lazy-flows.ts loads it on the first flow command or
 * when the Flows view opens): the commands, the Flows view and the runs with
 * their terminals.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FlowSummary } from '../../engine/index.js';
import { fileKind, isPlainDataFile, sniffFormat } from '../../engine/index.js';
import type { CommandHandler } from '../contributions.js';
import { FLOW_COMMANDS, FLOW_PANEL_COMMAND } from './flow-ids.js';
import { FlowRuns } from './flow-runs.js';
import { FlowsView } from './flows-view.js';

export interface FlowParts {
  readonly commands: ReadonlyMap<string, CommandHandler>;
  /** None without a `file:` folder. */
  readonly view?: FlowsView;
  readonly runs?: FlowRuns;
}

/** The flow file a command was given (the lens's Uri, the Explorer's), or the active editor's. */
function flowFileArg(arg: unknown): string | undefined {
  if (arg instanceof vscode.Uri) return arg.fsPath;
  if (typeof arg === 'string' && arg !== '') return arg;
  const doc = vscode.window.activeTextEditor?.document;
  if (doc?.uri.scheme !== 'file') return undefined;
  // A plain `deploy.yaml` is a flow when its content says so (`start-at`, states with `tool`).
  const flow = fileKind(doc.uri.fsPath) === 'flow' || (isPlainDataFile(doc.uri.fsPath) && sniffFormat(doc.getText(), doc.uri.fsPath) === 'flow');
  return flow ? doc.uri.fsPath : undefined;
}

/** The instance a command was given (a view row, a string), or one picked from those `fits`. */
async function instanceArg(arg: unknown, view: FlowsView, fits: (f: FlowSummary) => boolean, title: string): Promise<string | undefined> {
  if (typeof arg === 'string' && arg !== '') return arg;
  if (arg && typeof arg === 'object' && typeof (arg as FlowSummary).instance === 'string') return (arg as FlowSummary).instance;
  const items = view.instances().filter(fits).map((f) => ({ label: f.instance, description: `${f.status} · ${f.state}`, detail: f.flow }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage(`stategate: no flow to ${title.toLowerCase()}.`);
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { title: `stategate: ${title} Flow` }))?.label;
}

async function guarded<T>(fn: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    void vscode.window.showErrorMessage(`stategate: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
}

export function startFlows(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder | undefined): FlowParts {
  const commands = new Map<string, CommandHandler>();
  if (!folder) return { commands };
  const view = new FlowsView(folder);
  // A run, as it names its instance, is shown in the state panel (which the main bundle owns).
  const runs = new FlowRuns(folder, () => view.refresh(), (instance) => void vscode.commands.executeCommand(FLOW_PANEL_COMMAND, instance));
  context.subscriptions.push(view, runs);
  const live = (f: FlowSummary) => f.status === 'running';
  const resumable = (f: FlowSummary) => f.status === 'paused' || f.status === 'interrupted';
  commands.set(FLOW_COMMANDS.run, (arg: unknown) =>
    guarded(async () => {
      const file = flowFileArg(arg);
      if (!file) {
        void vscode.window.showInformationMessage('stategate: open a flow file (start-at and states with a tool) to run it, or use its ▶ Run flow lens.');
        return undefined;
      }
      return runs.run(path.resolve(folder.uri.fsPath, file));
    }),
  );
  commands.set(FLOW_COMMANDS.pause, (arg: unknown) => guarded(async () => { const i = await instanceArg(arg, view, live, 'Pause'); if (i) runs.pause(i); return i; }));
  commands.set(FLOW_COMMANDS.resume, (arg: unknown) => guarded(async () => { const i = await instanceArg(arg, view, resumable, 'Resume'); return i ? runs.resume(i) : undefined; }));
  commands.set(FLOW_COMMANDS.stop, (arg: unknown) => guarded(async () => { const i = await instanceArg(arg, view, (f) => live(f) || resumable(f), 'Stop'); return i ? runs.stop(i) : undefined; }));
  commands.set(FLOW_COMMANDS.show, (arg: unknown) => guarded(async () => { const i = await instanceArg(arg, view, () => true, 'Show'); if (i) await runs.show(i); }));
  commands.set(FLOW_COMMANDS.refresh, () => view.refresh());
  return { commands, view, runs };
}
