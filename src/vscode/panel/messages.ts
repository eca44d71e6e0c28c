/**
 * What the panel's buttons do: each webview message becomes the same command
 * or RunService call the keyboard uses, so the panel has no semantics of its
 * own (a refused event shows the same warning whichever way it was sent).
 */
import * as vscode from 'vscode';
import type { JsonObject } from '../../engine/index.js';
import type { WebviewMessage } from '../../protocol.js';
import type { RunService } from '../runtime/run-service.js';

/** Opens the workflow file at the state's key (from the file's current text, so edits since the run started don't skew it). */
export async function openState(service: RunService, state: string): Promise<void> {
  const s = service.current;
  const file = s.kind === 'active' ? s.run.workflow.file : undefined;
  if (!file) return;
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const wf = service.runner.env.load(doc.getText()) ?? (s.kind === 'active' ? s.workflow : undefined);
  const loc = wf?.states.get(state)?.keyLoc;
  const range = loc ? new vscode.Range(doc.positionAt(loc.start), doc.positionAt(loc.end)) : undefined;
  await vscode.window.showTextDocument(doc, { preview: false, ...(range ? { selection: range } : {}), viewColumn: vscode.ViewColumn.One });
}

/** Debug workflows only: one top-level context key replaced, as a forced patch on the current state. */
async function editContext(service: RunService, key: string, value: JsonObject[string]): Promise<void> {
  const s = await service.refresh();
  if (s.kind !== 'active' || !s.workflow?.meta.debug) {
    void vscode.window.showWarningMessage('stategate: the context is editable only in workflows with meta.debug: true');
    return;
  }
  const outcome = await service.act((r) => r.force(s.run.state, { [key]: value }));
  if (outcome.error) void vscode.window.showWarningMessage(`stategate: ${outcome.error.message}`);
}

/** Handles one message; `selectHistory` and `svg` are the host's own business (see PanelHost). */
export async function handleAction(service: RunService, msg: WebviewMessage): Promise<void> {
  const run = (id: string, ...args: unknown[]) => vscode.commands.executeCommand(id, ...args);
  switch (msg.type) {
    case 'sendEvent':
      await run('stategate.sendEvent', msg.event, msg.data);
      return;
    case 'approve':
      await run('stategate.approve');
      return;
    case 'reject':
      await run('stategate.reject');
      return;
    case 'pause':
      await run('stategate.pauseRun');
      return;
    case 'stop':
      await run('stategate.stopRun');
      return;
    case 'reloadDefinition':
      await run('stategate.reloadDefinition');
      return;
    case 'resume': {
      const s = service.current;
      await run('stategate.resumeRun', s.kind === 'active' ? s.run.workflow.file : undefined);
      return;
    }
    case 'openState':
      await openState(service, msg.state);
      return;
    case 'editContext':
      await editContext(service, msg.key, msg.value);
      return;
    case 'exportSvg':
      await run('stategate.exportSvg');
      return;
    default:
      return;
  }
}
