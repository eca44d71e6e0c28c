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
import { findFlowToolRegistry, trustContent, trustState, type TrustQuestion, type Workflow } from '../../engine/index.js';
import { flowPlan, planText, trustedText } from './flow-plan.js';

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
 * True when this content of `file` was trusted before, or the person trusts it now.
 * `content` is the text the run will load (the hash covers exactly what runs).
 */
export async function confirmFirstRun(workspace: string, file: string, content: string, wf: Workflow): Promise<boolean> {
  // The custom tools the flow may run are part of what is trusted: a changed registry asks again.
  const tools = findFlowToolRegistry(file);
  const trusted = trustedText(content, tools.kind === 'none' ? undefined : tools.text);
  const state = trustState(trustDir(workspace), file, trusted);
  if (state === 'trusted') return true;
  const rel = path.relative(workspace, file) || path.basename(file);
  const detail = `${state === 'changed' ? 'The file changed since you last allowed it. ' : ''}It will run, as its states lead:\n\n${planText(flowPlan(wf, tools.kind === 'ok' ? tools.registry.tools : undefined))}\n\nCommands run in ${workspace} with your permissions. You are asked again when the file changes.`;
  const run = 'Run Flow';
  const pick = await vscode.window.showWarningMessage(`Run the flow ${rel}?`, { modal: true, detail }, run);
  if (pick !== run) return false;
  trustContent(trustDir(workspace), file, trusted);
  return true;
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
