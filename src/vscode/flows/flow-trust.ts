/**
 * Before a flow runs in VS Code: never in Restricted Mode (a flow runs
 * commands on the machine), and a flow file's first run shows what it will
 * execute (each state's tool and command / prompt) in a modal and asks. The
 * answer is remembered by the file's hash in workspaceState, so a changed
 * file asks again.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findFlowToolRegistry, type Workflow } from '../../engine/index.js';
import { flowHash, flowPlan, planText } from './flow-plan.js';

const CONFIRMED_KEY = 'stategate.flows.confirmed';

/** A message saying why, and false, in Restricted Mode. */
export function flowsAllowed(what: string): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window
    .showWarningMessage(`stategate: ${what} is refused in Restricted Mode: a flow runs commands on this machine. Trust this folder to run flows.`, 'Manage Workspace Trust')
    .then((pick) => pick && vscode.commands.executeCommand('workbench.trust.manage'));
  return false;
}

/** Hashes the user agreed to, by file path. */
function confirmed(state: vscode.Memento): Record<string, string> {
  return state.get<Record<string, string>>(CONFIRMED_KEY) ?? {};
}

/**
 * True when this content of `file` was confirmed before, or the person confirms it now.
 * `content` is the text the run will load (the hash covers exactly what runs).
 */
export async function confirmFirstRun(state: vscode.Memento, workspace: string, file: string, content: string, wf: Workflow): Promise<boolean> {
  // The custom tools the flow may run are part of what is trusted: a changed registry asks again.
  const tools = findFlowToolRegistry(file);
  const hash = flowHash(content, tools.kind === 'none' ? undefined : tools.text);
  const key = path.resolve(file);
  if (confirmed(state)[key] === hash) return true;
  const rel = path.relative(workspace, file) || path.basename(file);
  const known = confirmed(state)[key] !== undefined;
  const detail = `${known ? 'The file changed since you last allowed it. ' : ''}It will run, as its states lead:\n\n${planText(flowPlan(wf, tools.kind === 'ok' ? tools.registry.tools : undefined))}\n\nCommands run in ${workspace} with your permissions. You are asked again when the file changes.`;
  const run = 'Run Flow';
  const pick = await vscode.window.showWarningMessage(`Run the flow ${rel}?`, { modal: true, detail }, run);
  if (pick !== run) return false;
  await state.update(CONFIRMED_KEY, { ...confirmed(state), [key]: hash });
  return true;
}
