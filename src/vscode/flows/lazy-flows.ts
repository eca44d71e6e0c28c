/**
 * Registers at activation what the flows bundle implements (index.ts, built
 * as dist/extension-flows.js, see scripts/build.mjs): the flow commands and
 * the Flows view, each with a stand-in that loads the bundle on first use. A
 * workspace that never runs a flow never loads the runner.
 */
import * as vscode from 'vscode';
import { FLOW_COMMANDS, FLOWS_VIEW_ID } from './flow-ids.js';
import type { FlowParts } from './index.js';

type Flows = typeof import('./index.js');

/** Returns the command ids it registered (activate() leaves them out of the runs' stand-ins). */
export function registerFlows(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder | undefined): string[] {
  let parts: FlowParts | undefined;
  const flows = (): FlowParts => (parts ??= (require('./index.js') as Flows).startFlows(context, folder));
  const ids = Object.values(FLOW_COMMANDS);
  for (const id of ids) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (...args: unknown[]) => {
        const handler = flows().commands.get(id);
        if (handler) return handler(...args);
        void vscode.window.showWarningMessage('stategate: open a folder to run flows.');
        return undefined;
      }),
    );
  }
  // The view's provider is registered now (VS Code asks for it as soon as the view shows); its
  // rows come from the bundle, loaded on the first request, whose changes are passed on.
  const changed = new vscode.EventEmitter<void>();
  let forwarding = false;
  const view = (): FlowParts['view'] => {
    const v = flows().view;
    if (v && !forwarding) {
      forwarding = true;
      context.subscriptions.push(v.onDidChangeTreeData(() => changed.fire()));
    }
    return v;
  };
  context.subscriptions.push(
    changed,
    vscode.window.registerTreeDataProvider<unknown>(FLOWS_VIEW_ID, {
      onDidChangeTreeData: changed.event,
      getChildren: (e) => (view()?.getChildren(e as never) ?? []) as unknown[],
      getTreeItem: (e) => view()!.getTreeItem(e as never),
    }),
  );
  return ids;
}
