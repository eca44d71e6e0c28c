/**
 * Authoring support for workflow and statechart files: Problems as you type, completion,
 * hover, definition, references, rename, outline, code lenses and quick fixes.
 * Every provider is a thin adapter over the pure language service in
 * src/engine/language/. This is a bundle of its own (dist/extension-language.js):
 * activation registers the providers with stand-ins (lazy-language.ts) that
 * load it with the first JSON document or the first request.
 */
import type * as vscode from 'vscode';
import { registerDiagnostics } from './diagnostics.js';
import { WorkflowDocuments } from './documents.js';
import { WorkflowActionProvider } from './action-provider.js';
import { WorkflowCompletionProvider } from './completion-provider.js';
import { WorkflowHoverProvider } from './hover-provider.js';
import { WorkflowLensProvider } from './lens-provider.js';
import { WorkflowNavigationProvider } from './navigation-provider.js';
import { WorkflowRenameProvider } from './rename-provider.js';
import { WorkflowSymbolProvider } from './symbol-provider.js';
import { toolCompletions } from '../../engine/index.js';
import { WorkspaceWorkflows } from './workspace-index.js';

export interface LanguageFeatures {
  readonly completion: WorkflowCompletionProvider;
  readonly hover: WorkflowHoverProvider;
  readonly navigation: WorkflowNavigationProvider;
  readonly rename: WorkflowRenameProvider;
  readonly symbols: WorkflowSymbolProvider;
  readonly lenses: WorkflowLensProvider;
  readonly actions: WorkflowActionProvider;
}

/** Starts Problems for workflow documents (open ones at once) and returns the providers. */
export function startLanguageFeatures(context: vscode.ExtensionContext): LanguageFeatures {
  const docs = new WorkflowDocuments();
  const workspace = new WorkspaceWorkflows();
  context.subscriptions.push(workspace);
  registerDiagnostics(context, docs);
  return {
    completion: new WorkflowCompletionProvider(docs, workspace, toolCompletions),
    hover: new WorkflowHoverProvider(docs, workspace, context.extensionPath),
    navigation: new WorkflowNavigationProvider(docs, workspace),
    rename: new WorkflowRenameProvider(docs),
    symbols: new WorkflowSymbolProvider(docs),
    lenses: new WorkflowLensProvider(docs),
    actions: new WorkflowActionProvider(docs),
  };
}
