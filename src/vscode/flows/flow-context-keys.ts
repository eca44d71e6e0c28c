/**
 * The context keys behind the flow commands' `when` clauses (package.json): Pause and Stop Flow
 * show in the palette with a running flow, Resume and Stop with a paused or interrupted one.
 *
 * Tracked from the folder's flows on disk, not from the Flows view: a flow started from the CLI or
 * in an earlier window is running before anyone opens the view, and the flows bundle loads only with
 * the view or a flow command. This module is part of the runs bundle (runs.ts starts it), which loads
 * right after activation with a folder open and carries the engine already: the keys cost no load of
 * the flows bundle and nothing inside activate(). A watcher on `.stategate/flows/` follows runs
 * started, paused and stopped anywhere, and a poll of the instance files' stamps backs it up as the
 * run service's poll does (a watcher that is not yet listening missed a flow the CLI paused at
 * startup in the e2e test). A runner that dies writes nothing (the flow reads as interrupted from
 * then on), so the keys are read again when the window regains focus.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { flowsDir, listFlows, type FlowSummary } from '../../engine/index.js';
import { statStamp } from '../runtime/stat-stamp.js';

export const FLOW_RUNNING_KEY = 'stategate.flowRunning';
export const FLOW_RESUMABLE_KEY = 'stategate.flowResumable';
const POLL_MS = 2000;

/** The instances' names and their records' stamps: what changes when a flow starts, moves or ends. */
function instancesStamp(dir: string): string {
  let names: string[];
  try {
    names = fs.readdirSync(dir).sort();
  } catch {
    return 'none';
  }
  return names.map((n) => `${n}=${statStamp(path.join(dir, n, 'instance.json'))}`).join(',');
}

/** What the keys say of a set of instances. */
function flowKeys(flows: readonly Pick<FlowSummary, 'status'>[]): { running: boolean; resumable: boolean } {
  return { running: flows.some((f) => f.status === 'running'), resumable: flows.some((f) => f.status === 'paused' || f.status === 'interrupted') };
}

export function trackFlowContextKeys(folder: vscode.WorkspaceFolder): vscode.Disposable {
  let last: string | undefined;
  const update = () => {
    let flows: FlowSummary[] = [];
    try {
      flows = listFlows(folder.uri.fsPath);
    } catch {
      // an unreadable folder reads as no flows, as the Flows view shows it
    }
    const keys = flowKeys(flows);
    const now = `${keys.running}/${keys.resumable}`;
    if (now === last) return;
    last = now;
    void vscode.commands.executeCommand('setContext', FLOW_RUNNING_KEY, keys.running);
    void vscode.commands.executeCommand('setContext', FLOW_RESUMABLE_KEY, keys.resumable);
  };
  // One state's writes come in a burst (instance.json, its lock, log.jsonl): one read after it.
  let timer: NodeJS.Timeout | undefined;
  const soon = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      update();
    }, 100);
  };
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.stategate/flows/**'));
  const dir = flowsDir(folder.uri.fsPath);
  let stamp = instancesStamp(dir);
  const poll = setInterval(() => {
    const now = instancesStamp(dir);
    if (now !== stamp) (stamp = now), soon();
  }, POLL_MS);
  const subscriptions = [watcher, watcher.onDidCreate(soon), watcher.onDidChange(soon), watcher.onDidDelete(soon), vscode.window.onDidChangeWindowState((s) => s.focused && soon())];
  update();
  return {
    dispose: () => {
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      for (const s of subscriptions) s.dispose();
    },
  };
}
