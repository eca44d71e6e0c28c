/** Quick fixes (kind QuickFix) for stategate's diagnostics (create / rename / define / add final / remove unreachable). */
import * as vscode from 'vscode';
import { chartFixes, flowFixes, quickFixes } from '../../engine/index.js';
import type { WorkflowDocuments } from './documents.js';
import { toRange } from './locations.js';

export class WorkflowActionProvider implements vscode.CodeActionProvider {
  constructor(private readonly docs: WorkflowDocuments) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] | undefined {
    const analysis = this.docs.analyze(doc);
    if (!analysis) return undefined;
    const actions: vscode.CodeAction[] = [];
    for (const shown of context.diagnostics) {
      if (shown.source !== 'stategate') continue;
      // Match the editor's diagnostic back to the engine's (which carries `data`) by code and range.
      const d = analysis.diagnostics.find((x) => x.code === shown.code && toRange(doc, x.loc).isEqual(shown.range));
      if (!d) continue;
      const fixes =
        analysis.format === 'statechart' ? chartFixes(analysis, d) : analysis.format === 'flow' ? flowFixes(analysis, d) : quickFixes(analysis.text, analysis.workflow, d);
      for (const fix of fixes) {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [shown];
        action.isPreferred = fix.preferred ?? false;
        action.edit = new vscode.WorkspaceEdit();
        for (const e of fix.edits) action.edit.replace(doc.uri, toRange(doc, e), e.newText);
        actions.push(action);
      }
    }
    return actions;
  }
}
