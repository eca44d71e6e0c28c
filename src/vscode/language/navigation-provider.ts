/** Go to definition and find references, in the file and (for workflow ids) across the workspace. */
import * as vscode from 'vscode';
import { chartDefinition, chartReferences, definitionAt, flowDefinition, flowReferences, referencesAt, type NavigationOptions } from '../../engine/index.js';
import type { Analysis, WorkflowDocuments } from './documents.js';
import { locationOf } from './locations.js';
import type { WorkspaceWorkflows } from './workspace-index.js';

export class WorkflowNavigationProvider implements vscode.DefinitionProvider, vscode.ReferenceProvider {
  constructor(
    private readonly docs: WorkflowDocuments,
    private readonly workspace: WorkspaceWorkflows,
  ) {}

  async provideDefinition(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.Location[] | undefined> {
    const analysis = this.docs.analyze(doc);
    if (!analysis?.workflow) return undefined;
    if (analysis.format === 'statechart') return chartDefinition(analysis, doc.offsetAt(position)).map((loc) => locationOf(doc, { loc }));
    if (analysis.format === 'flow') return flowDefinition(analysis, doc.offsetAt(position)).map((loc) => locationOf(doc, { loc }));
    await this.workspace.ready();
    return definitionAt(analysis.workflow, doc.offsetAt(position), this.options(analysis)).map((t) => locationOf(doc, t));
  }

  async provideReferences(doc: vscode.TextDocument, position: vscode.Position, context: vscode.ReferenceContext): Promise<vscode.Location[] | undefined> {
    const analysis = this.docs.analyze(doc);
    if (!analysis?.workflow) return undefined;
    if (analysis.format === 'statechart') return chartReferences(analysis, doc.offsetAt(position), context.includeDeclaration).map((loc) => locationOf(doc, { loc }));
    if (analysis.format === 'flow') return flowReferences(analysis, doc.offsetAt(position), context.includeDeclaration).map((loc) => locationOf(doc, { loc }));
    await this.workspace.ready();
    return referencesAt(analysis.workflow, doc.offsetAt(position), context.includeDeclaration, this.options(analysis)).map((t) => locationOf(doc, t));
  }

  private options(analysis: Analysis): NavigationOptions {
    return { text: analysis.text, file: analysis.file, resolve: this.workspace.resolve, invocations: (id) => this.workspace.invocations(id) };
  }
}
