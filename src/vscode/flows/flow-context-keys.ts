/**
 * The context keys behind the flow commands' `when` clauses (package.json): Pause and Stop Flow
 * show in the palette with a running flow, Resume and Stop with a paused or interrupted one.
 * Set when the flows bundle loads (the first flow command, or the Flows view opening) and on
 * every change of the flows on disk.
 */
import * as vscode from 'vscode';
import type { FlowsView } from './flows-view.js';

export function trackFlowContextKeys(view: FlowsView): vscode.Disposable {
  const update = () => {
    const flows = view.instances();
    void vscode.commands.executeCommand('setContext', 'stategate.flowRunning', flows.some((f) => f.status === 'running'));
    void vscode.commands.executeCommand('setContext', 'stategate.flowResumable', flows.some((f) => f.status === 'paused' || f.status === 'interrupted'));
  };
  update();
  return view.onDidChangeTreeData(update);
}
