/** Rename a state or guard (a flow's state or variable) and every reference to it in the file. */
import * as vscode from 'vscode';
import { chartPrepare, chartRename, flowPrepare, flowRename, prepareRename, renameAt } from '../../engine/index.js';
import type { WorkflowDocuments } from './documents.js';
import { toRange } from './locations.js';

export class WorkflowRenameProvider implements vscode.RenameProvider {
  constructor(private readonly docs: WorkflowDocuments) {}

  prepareRename(doc: vscode.TextDocument, position: vscode.Position): { range: vscode.Range; placeholder: string } | undefined {
    const analysis = this.docs.analyze(doc);
    if (!analysis?.workflow) return undefined;
    const offset = doc.offsetAt(position);
    const r =
      analysis.format === 'statechart' ? chartPrepare(analysis, offset) : analysis.format === 'flow' ? flowPrepare(analysis, offset) : prepareRename(analysis.text, analysis.workflow, offset);
    // Throwing is how a rename provider tells VS Code why it cannot rename here (shown to the person).
    if ('error' in r) throw new Error(r.error);
    return { range: toRange(doc, r.loc), placeholder: r.placeholder };
  }

  provideRenameEdits(doc: vscode.TextDocument, position: vscode.Position, newName: string): vscode.WorkspaceEdit | undefined {
    const analysis = this.docs.analyze(doc);
    if (!analysis?.workflow) return undefined;
    const offset = doc.offsetAt(position);
    const r =
      analysis.format === 'statechart'
        ? chartRename(analysis, offset, newName)
        : analysis.format === 'flow'
          ? flowRename(analysis, offset, newName)
          : renameAt(analysis.text, analysis.workflow, offset, newName);
    if ('error' in r) throw new Error(r.error);
    const edit = new vscode.WorkspaceEdit();
    for (const e of r.edits) edit.replace(doc.uri, toRange(doc, e), e.newText);
    return edit;
  }
}
