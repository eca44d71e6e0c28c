/**
 * Authoring support for workflow files: Problems as you type, completion,
 * hover, definition, references, rename, outline, code lenses and quick fixes.
 * Every provider is a thin adapter over the pure language service in
 * src/engine/language/; this file only wires them.
 */
import * as vscode from 'vscode';
import { registerDiagnostics } from './diagnostics.js';
import { WORKFLOW_SELECTOR, WorkflowDocuments } from './documents.js';
import { WorkflowActionProvider } from './action-provider.js';
import { WorkflowCompletionProvider } from './completion-provider.js';
import { WorkflowHoverProvider } from './hover-provider.js';
import { WorkflowLensProvider } from './lens-provider.js';
import { WorkflowNavigationProvider } from './navigation-provider.js';
import { WorkflowRenameProvider } from './rename-provider.js';
import { WorkflowSymbolProvider } from './symbol-provider.js';
import { toolCompletions } from '../../engine/language/tool-names.js';
import { WorkspaceWorkflows } from './workspace-index.js';

export function registerLanguageFeatures(context: vscode.ExtensionContext): void {
  const docs = new WorkflowDocuments();
  const workspace = new WorkspaceWorkflows();
  const navigation = new WorkflowNavigationProvider(docs, workspace);
  const sel = WORKFLOW_SELECTOR;
  registerDiagnostics(context, docs);
  context.subscriptions.push(
    workspace,
    // `"` opens a string where a name goes; `:` and `,` start a value or the next array item.
    vscode.languages.registerCompletionItemProvider(sel, new WorkflowCompletionProvider(docs, workspace, toolCompletions), '"', ':', ','),
    vscode.languages.registerHoverProvider(sel, new WorkflowHoverProvider(docs, workspace, context.extensionPath)),
    vscode.languages.registerDefinitionProvider(sel, navigation),
    vscode.languages.registerReferenceProvider(sel, navigation),
    vscode.languages.registerRenameProvider(sel, new WorkflowRenameProvider(docs)),
    vscode.languages.registerDocumentSymbolProvider(sel, new WorkflowSymbolProvider(docs), { label: 'stategate workflow' }),
    vscode.languages.registerCodeLensProvider(sel, new WorkflowLensProvider(docs)),
    vscode.languages.registerCodeActionsProvider(sel, new WorkflowActionProvider(docs), WorkflowActionProvider.metadata),
  );
}
