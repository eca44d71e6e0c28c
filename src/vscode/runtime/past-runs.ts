/**
 * "stategate: Past Runs…": every run of the workspace's store, newest first, the active one
 * marked, each status in the shared words (past-run-item.ts), so a run replaced by another (its journal kept) is found where a person looks for it.
 * Choosing one opens its journal, read-only, as JSON lines; `stategate run list` is the CLI's twin.
 */
import * as vscode from 'vscode';
import { pastRunItem } from './past-run-item.js';
import type { RunService } from './run-service.js';

export async function showPastRuns(service: RunService): Promise<string | undefined> {
  const runner = service.runner;
  const active = await runner.active();
  const activeId = active.kind === 'ok' ? active.runId : undefined;
  const runs = [...(await runner.list())].reverse();
  if (!runs.length) {
    void vscode.window.showInformationMessage('stategate: no runs yet in this workspace.');
    return undefined;
  }
  const now = Date.now();
  // Each run's states by the names its own definition gives them (a run's kept text; loads are cached by text).
  const items = runs.map((r) => pastRunItem(r, activeId, now, runner.env.load(r.workflow.definitionText)));
  const picked = await vscode.window.showQuickPick(items, { title: 'stategate: Past Runs', placeHolder: 'A run to open its journal', matchOnDescription: true, matchOnDetail: true });
  if (!picked) return undefined;
  const journal = await runner.store.readJournal(picked.runId);
  const doc = await vscode.workspace.openTextDocument({ content: journal.map((e) => JSON.stringify(e)).join('\n') + '\n', language: 'jsonl' });
  await vscode.window.showTextDocument(doc, { preview: true });
  return picked.runId;
}
