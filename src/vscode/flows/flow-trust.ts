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
import { flowTrust, trustFlow, untrustedParts, type FlowTrust, type TrustQuestion, type Workflow } from '../../engine/index.js';
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
 * What was trusted of the flow when this content of `file` (with its custom tool registry and the
 * sub-flows it names) was trusted before, or the person trusts it now; undefined otherwise. `content`
 * is the text the run will load. The run is started with what this returns (flowTrustCheck), so a file,
 * registry or sub-flow changed while the question was open is refused, not run.
 */
export async function confirmFirstRun(workspace: string, file: string, content: string, wf: Workflow): Promise<FlowTrust | undefined> {
  const trust = flowTrust(trustDir(workspace), file, content);
  if (trust.state === 'trusted') return trust;
  const rel = path.relative(workspace, file) || path.basename(file);
  const tools = trust.tools.kind === 'ok' ? trust.tools.registry.tools : undefined;
  const subFlows = trust.parts.slice(1).map((p) => path.relative(workspace, p.file) || path.basename(p.file));
  const changed = trust.state === 'changed' ? `${changedWords(trust, workspace)} ` : '';
  const detail =
    `${changed}It will run, as its states lead:\n\n${planText(flowPlan(wf, tools))}` +
    `${subFlows.length ? `\n\nand the sub-flows it names, as they are now: ${subFlows.join(', ')}` : ''}` +
    `\n\nCommands run in ${workspace} with your permissions. You are asked again when the file${subFlows.length ? ' or a sub-flow' : ''} changes.`;
  const run = 'Run Flow';
  const pick = await vscode.window.showWarningMessage(`Run the flow ${rel}?`, { modal: true, detail }, run);
  if (pick !== run) return undefined;
  trustFlow(trustDir(workspace), trust);
  return trust;
}

/** What changed since the person allowed the flow: the file (or its registry), and which sub-flows. */
function changedWords(trust: FlowTrust, workspace: string): string {
  const subs = untrustedParts({ ...trust, parts: trust.parts.slice(1) }, workspace);
  const file = trust.parts[0]!.state !== 'trusted' ? `The file${trust.tools.kind === 'none' ? '' : ' or its custom tool registry'} changed since you last allowed it.` : '';
  const sub = subs.length ? `${subs.length === 1 ? 'Its sub-flow' : 'Its sub-flows'} ${subs.join(', ')} changed since you last allowed the flow.` : '';
  return [file, sub].filter(Boolean).join(' ');
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
