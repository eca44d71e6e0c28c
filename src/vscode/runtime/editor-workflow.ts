/**
 * The workflow open in the active editor, as its text reads now (unsaved
 * edits included): what "Export Diagram…" exports before it falls back to the
 * active run's workflow. Any format that loads (Statewright, statechart, flow).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadWorkflowText, type Workflow } from '../../engine/index.js';

export function editorWorkflow(): { workflow: Workflow; file: string } | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  if (!doc || doc.uri.scheme !== 'file') return undefined;
  // Only files that name a workflow format or look like one: a random JSON open in the editor is not exported as "Statewright".
  if (!/\.(json|ya?ml)$/i.test(doc.uri.fsPath)) return undefined;
  const workflow = loadWorkflowText(doc.getText(), doc.uri.fsPath).workflow;
  return workflow && workflow.states.size > 0 ? { workflow, file: path.resolve(doc.uri.fsPath) } : undefined;
}
