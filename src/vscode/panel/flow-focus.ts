/**
 * The flow instance the state panel shows instead of the workflow run, once a
 * person picked "Show in Panel" on a Flows view row or started a flow run. It
 * watches the instance's files (.stategate/flows/<instance>/, which the runner
 * rewrites as the instance moves) and tells the panel to redraw.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { flowStatus, instanceDir, loadWorkflowText } from '../../engine/index.js';
import type { RenderModel } from '../../protocol.js';
import { flowFileOf } from '../flows/flow-file.js';
import { statStamp } from '../runtime/stat-stamp.js';
import { flowRenderModel } from './flow-render-model.js';

/** Coalesces the burst of writes one state makes (instance.json, log.jsonl) into one redraw. */
const SETTLE_MS = 100;
/** File events can be missed (the run service polls too): the instance's files are also looked at this often. */
const POLL_MS = 1000;

export class FlowFocus implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private watcher: vscode.FileSystemWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private stamp = '';
  private shown: string | undefined;

  constructor(private readonly folder: vscode.WorkspaceFolder) {}

  /** The instance shown, if any. */
  get instance(): string | undefined {
    return this.shown;
  }

  show(instance: string): void {
    this.unwatch();
    this.shown = instance;
    // The recursive pattern the run service watches `.stategate/` with (a narrower glob naming the
    // instance's folder was not told of the runner's writes in the e2e VS Code); this instance's files are picked out.
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.folder, '.stategate/**'));
    const dir = instanceDir(this.folder.uri.fsPath, instance) + path.sep;
    for (const on of [this.watcher.onDidCreate, this.watcher.onDidChange, this.watcher.onDidDelete]) on((uri) => (uri.fsPath.startsWith(dir) ? this.soon() : undefined));
    const stamp = () => ['instance.json', 'log.jsonl'].map((f) => statStamp(path.join(dir, f))).join('|');
    this.stamp = stamp();
    this.poll = setInterval(() => {
      const now = stamp();
      if (now === this.stamp) return;
      this.stamp = now;
      this.changed.fire();
    }, POLL_MS);
    this.changed.fire();
  }

  /** Back to the workflow run. */
  clear(): void {
    this.unwatch();
    this.shown = undefined;
    this.changed.fire();
  }

  /** The shown instance's render model (undefined when none is shown); an instance or flow file that cannot be read says why. */
  model(): RenderModel | undefined {
    const instance = this.shown;
    if (instance === undefined) return undefined;
    try {
      const status = flowStatus(this.folder.uri.fsPath, instance);
      const file = flowFileOf(this.folder.uri.fsPath, instance);
      const wf = file ? loadWorkflowText(fs.readFileSync(file, 'utf8'), file).workflow : undefined;
      if (!wf?.flow) return { kind: 'unreadable', reason: `the flow file of ${instance} cannot be read (moved, or no longer a valid flow).` };
      return flowRenderModel(wf, status);
    } catch (err) {
      return { kind: 'unreadable', reason: (err as Error).message };
    }
  }

  /** Opens the shown instance's flow file at the state's key. */
  async openState(state: string): Promise<void> {
    const file = this.shown === undefined ? undefined : flowFileOf(this.folder.uri.fsPath, this.shown);
    if (!file) return;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const loc = loadWorkflowText(doc.getText(), file).workflow?.states.get(state)?.keyLoc;
    const range = loc ? new vscode.Range(doc.positionAt(loc.start), doc.positionAt(loc.end)) : undefined;
    await vscode.window.showTextDocument(doc, { preview: false, ...(range ? { selection: range } : {}), viewColumn: vscode.ViewColumn.One });
  }

  dispose(): void {
    this.unwatch();
    this.changed.dispose();
  }

  private soon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => ((this.timer = undefined), this.changed.fire()), SETTLE_MS);
  }

  private unwatch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
    this.watcher?.dispose();
    this.watcher = undefined;
  }
}
