/** Completion of workflow names (states, guards, tools, events, ids) on top of the JSON schema's own. */
import * as vscode from 'vscode';
import { chartCompletions, completionsAt, flowCompletions, subFlowLoader, type CompletionKind, type FlowCompletionItem, type ToolName } from '../../engine/index.js';
import type { WorkflowDocuments } from './documents.js';
import { toRange } from './locations.js';
import type { WorkspaceWorkflows } from './workspace-index.js';

const KIND: Record<CompletionKind, vscode.CompletionItemKind> = {
  state: vscode.CompletionItemKind.Class,
  keyword: vscode.CompletionItemKind.Keyword,
  guard: vscode.CompletionItemKind.Function,
  tool: vscode.CompletionItemKind.Method,
  'context-field': vscode.CompletionItemKind.Field,
  event: vscode.CompletionItemKind.Event,
  workflow: vscode.CompletionItemKind.Module,
  action: vscode.CompletionItemKind.Function,
  field: vscode.CompletionItemKind.Property,
};

export class WorkflowCompletionProvider implements vscode.CompletionItemProvider {
  constructor(
    private readonly docs: WorkflowDocuments,
    private readonly workspace: WorkspaceWorkflows,
    private readonly tools: () => readonly ToolName[],
  ) {}

  async provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[] | undefined> {
    const analysis = this.docs.analyze(doc);
    if (!analysis) return undefined;
    const offset = doc.offsetAt(position);
    let items: readonly FlowCompletionItem[];
    if (analysis.format === 'statechart') {
      items = chartCompletions(analysis, offset);
    } else if (analysis.format === 'flow') {
      items = flowCompletions(analysis, offset, subFlowLoader(analysis.file));
    } else {
      await this.workspace.ready();
      items = completionsAt(analysis.text, analysis.workflow, offset, { tools: this.tools(), workflowIds: this.workspace.ids() });
    }
    return items.map((c, i) => {
      const item = new vscode.CompletionItem(c.label, KIND[c.kind]);
      item.range = toRange(doc, c.range);
      item.insertText = c.insertText;
      // VS Code filters against the text in the range, which includes the opening quote when there is no string yet.
      item.filterText = c.insertText;
      if (c.detail) item.detail = c.detail;
      if (c.documentation) item.documentation = new vscode.MarkdownString(c.documentation);
      item.sortText = String(i).padStart(5, '0'); // keep the file's order (states as written)
      return item;
    });
  }
}
