/** Hovers: state summaries, guard predicates, events, invoked workflows, field docs from the schema. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { chartHover, flowHover, hoverAt } from '../../engine/index.js';
import type { WorkflowDocuments } from './documents.js';
import { toRange } from './locations.js';
import type { WorkspaceWorkflows } from './workspace-index.js';

export class WorkflowHoverProvider implements vscode.HoverProvider {
  private readonly schemas = new Map<string, unknown>();

  constructor(
    private readonly docs: WorkflowDocuments,
    private readonly workspace: WorkspaceWorkflows,
    private readonly extensionPath: string,
  ) {}

  async provideHover(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const analysis = this.docs.analyze(doc);
    if (!analysis?.workflow) return undefined;
    if (analysis.format === 'statechart') {
      const found = chartHover(analysis, doc.offsetAt(position), this.loadSchema('statechart-schema.json'), { 'workflow-schema.json': this.loadSchema('workflow-schema.json') });
      return found ? new vscode.Hover(new vscode.MarkdownString(found.markdown), toRange(doc, found.loc)) : undefined;
    }
    if (analysis.format === 'flow') {
      const found = flowHover(analysis, doc.offsetAt(position), this.loadSchema('flow-schema.json'));
      return found ? new vscode.Hover(new vscode.MarkdownString(found.markdown), toRange(doc, found.loc)) : undefined;
    }
    await this.workspace.ready();
    const hover = hoverAt(analysis.text, analysis.workflow, doc.offsetAt(position), { schema: this.loadSchema('workflow-schema.json'), resolve: this.workspace.resolve, file: analysis.file });
    return hover ? new vscode.Hover(new vscode.MarkdownString(hover.markdown), toRange(doc, hover.loc)) : undefined;
  }

  /** The schema shipped with the extension; read once, and only when a hover needs it. */
  private loadSchema(name: string): unknown {
    if (!this.schemas.has(name)) {
      try {
        this.schemas.set(name, JSON.parse(fs.readFileSync(path.join(this.extensionPath, 'schemas', name), 'utf8')));
      } catch {
        this.schemas.set(name, null); // no field docs, everything else still works
      }
    }
    return this.schemas.get(name);
  }
}
