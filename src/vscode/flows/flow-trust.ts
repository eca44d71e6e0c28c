/**
 * Before a flow or a chart's handlers run in VS Code: never in Restricted
 * Mode (they run commands on the machine), and a file's first run shows what
 * it will execute in a modal and asks. The answer is kept in the engine's one
 * trust store (`.stategate/trust.json`, by the file's content hash: the same
 * record `stategate trust FILE` writes), so a changed file asks again and a
 * file trusted in a terminal is not asked about here.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { flowTrust, trustContent, type TrustQuestion, type Workflow } from '../../engine/index.js';
import { flowPlan, planText } from './flow-plan.js';

/** A message saying why, and false, in Restricted Mode. */
export function flowsAllowed(what: string): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window
    .showWarningMessage(`stategate: ${what} is refused in Restricted Mode: a flow runs commands on this machine. Trust this folder to run flows.`, 'Manage Workspace Trust')
    .then((pick) => pick && vscode.commands.executeCommand('workbench.trust.manage'));
  return false;
}

function trustDir(workspace: string): string {
  return path.join(workspace, '.stategate');
}

/**
 * What runs when this content of `file` was trusted before, or the person trusts it now; undefined
 * otherwise. `content` is the text the run will load. The answer is the engine's flowTrust text (the
 * flow with its custom tool registry): the run is started with it as expectedText, so a file or
 * registry changed while the question was open is refused, not run.
 */
export async function confirmFirstRun(workspace: string, file: string, content: string, wf: Workflow): Promise<string | undefined> {
  // The custom tools the flow may run are part of what is trusted: a changed registry asks again.
  const trust = flowTrust(trustDir(workspace), file, content);
  if (trust.state === 'trusted') return trust.text;
  const rel = path.relative(workspace, file) || path.basename(file);
  const tools = trust.tools.kind === 'ok' ? trust.tools.registry.tools : undefined;
  const detail = `${trust.state === 'changed' ? `The file${trust.tools.kind === 'none' ? '' : ' or its custom tool registry'} changed since you last allowed it. ` : ''}It will run, as its states lead:\n\n${planText(flowPlan(wf, tools))}\n\nCommands run in ${workspace} with your permissions. You are asked again when the file changes.`;
  const run = 'Run Flow';
  const pick = await vscode.window.showWarningMessage(`Run the flow ${rel}?`, { modal: true, detail }, run);
  if (pick !== run) return undefined;
  trustContent(trustDir(workspace), file, trust.text);
  return trust.text;
}

/** The modal for a chart (or a flow handler's file) whose handlers became due: what they run, and a yes or no. */
export async function confirmHandlers(workspace: string, q: TrustQuestion): Promise<boolean> {
  const rel = path.relative(workspace, q.file) || path.basename(q.file);
  const detail =
    `${q.changed ? 'The file changed since you last trusted it. ' : ''}Its handlers run, when the chart reaches them:\n\n${q.runs.map((l) => `• ${l}`).join('\n')}\n\n` +
    `Each command still needs the current state's rules to allow it. Commands run in ${workspace} with your permissions. You are asked again when the file changes.`;
  const trust = 'Trust and Run';
  return (await vscode.window.showWarningMessage(`Run the handlers of ${rel}?`, { modal: true, detail }, trust)) === trust;
}
