/** Hovers: state summaries, guard predicates, events, invoked workflows, field docs from the schema. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hoverAt } from '../../engine/index.js';
import type { WorkflowDocuments } from './documents.js';
import { toRange } from './locations.js';
import type { WorkspaceWorkflows } from './workspace-index.js';

export class WorkflowHoverProvider implements vscode.HoverProvider {
  private schema: unknown;

  constructor(
    private readonly docs: WorkflowDocuments,
    private readonly workspace: WorkspaceWorkflows,
    private readonly extensionPath: string,
  ) {}

  async provideHover(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const analysis = this.docs.analyze(doc);
    if (!analysis?.workflow) return undefined;
    await this.workspace.ready();
    const hover = hoverAt(analysis.text, analysis.workflow, doc.offsetAt(position), { schema: this.loadSchema(), resolve: this.workspace.resolve, file: analysis.file });
    return hover ? new vscode.Hover(new vscode.MarkdownString(hover.markdown), toRange(doc, hover.loc)) : undefined;
  }

  /** The schema shipped with the extension; read once, and only when a hover needs it. */
  private loadSchema(): unknown {
    if (this.schema === undefined) {
      try {
        this.schema = JSON.parse(fs.readFileSync(path.join(this.extensionPath, 'schemas', 'workflow-schema.json'), 'utf8'));
      } catch {
        this.schema = null; // no field docs, everything else still works
      }
    }
    return this.schema;
  }
}
