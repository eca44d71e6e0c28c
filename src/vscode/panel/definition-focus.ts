/**
 * The workflow file the state panel shows instead of the run, once "Show
 * diagram" (the code lens, or `stategate.showPanel` with a file) asked for a
 * file that is not the active run's. It yields back to the run as soon as the
 * run is of that file, or another run starts (a run just started is what a
 * person wants to watch), and redraws as the file's text changes, from the
 * editor's text when the file is open (unsaved edits included).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadWorkflowText } from '../../engine/index.js';
import type { RenderModel } from '../../protocol.js';
import type { RunSituation } from '../runtime/run-service.js';
import { definitionProblem, definitionRenderModel } from './definition-render-model.js';

/** Coalesces typing into one redraw. */
const SETTLE_MS = 300;

/** The run a situation is of: its id and its workflow file (absolute). */
function runOf(s: RunSituation): { id: string; file?: string } | undefined {
  if (s.kind !== 'active') return undefined;
  return { id: s.run.runId, ...(s.run.workflow.file === undefined ? {} : { file: path.resolve(s.run.workflow.file) }) };
}

export class DefinitionFocus implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private shown: { file: string; runId: string | undefined } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly folder: vscode.WorkspaceFolder) {
    const touches = (uri: vscode.Uri) => this.shown !== undefined && uri.scheme === 'file' && path.resolve(uri.fsPath) === this.shown.file;
    this.disposables = [
      vscode.workspace.onDidChangeTextDocument((e) => (touches(e.document.uri) ? this.soon() : undefined)),
      vscode.workspace.onDidSaveTextDocument((d) => (touches(d.uri) ? this.soon() : undefined)),
    ];
  }

  /** The file shown (absolute), if any. */
  get file(): string | undefined {
    return this.shown?.file;
  }

  /**
   * Shows the file's definition, unless the run in `situation` is of that file
   * (then the run is its diagram, with its state). Returns whether it shows it.
   */
  show(file: string, situation: RunSituation): boolean {
    const run = runOf(situation);
    const abs = path.resolve(file);
    this.shown = run?.file === abs ? undefined : { file: abs, runId: run?.id };
    this.changed.fire();
    return this.shown !== undefined;
  }

  /** Back to the run. */
  clear(): void {
    if (this.shown === undefined) return;
    this.shown = undefined;
    this.changed.fire();
  }

  /** The shown file's render model, or undefined when the run is to be shown (none asked, or the run now is of it or newer). */
  model(situation: RunSituation): RenderModel | undefined {
    const shown = this.shown;
    if (shown === undefined) return undefined;
    const run = runOf(situation);
    if (run && (run.file === shown.file || run.id !== shown.runId)) {
      this.shown = undefined;
      return undefined;
    }
    const name = path.relative(this.folder.uri.fsPath, shown.file) || path.basename(shown.file);
    try {
      const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && path.resolve(d.uri.fsPath) === shown.file);
      const text = open?.getText() ?? fs.readFileSync(shown.file, 'utf8');
      const wf = loadWorkflowText(text, shown.file).workflow;
      return wf ? definitionRenderModel(wf, name, run !== undefined) : definitionProblem(name, 'it is not a workflow stategate can draw (see its problems)', run !== undefined);
    } catch (err) {
      return definitionProblem(name, `it cannot be read: ${(err as Error).message}`, run !== undefined);
    }
  }

  /** Opens the shown file at the state's key. */
  async openState(state: string): Promise<void> {
    const file = this.shown?.file;
    if (file === undefined) return;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const loc = loadWorkflowText(doc.getText(), file).workflow?.states.get(state)?.keyLoc;
    const range = loc ? new vscode.Range(doc.positionAt(loc.start), doc.positionAt(loc.end)) : undefined;
    await vscode.window.showTextDocument(doc, { preview: false, ...(range ? { selection: range } : {}), viewColumn: vscode.ViewColumn.One });
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }

  private soon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => ((this.timer = undefined), this.changed.fire()), SETTLE_MS);
  }
}
