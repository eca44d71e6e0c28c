/**
 * The run commands, so everything works from the keyboard: start, send event,
 * approve, reject, pause, resume, force state (debug workflows), reload the
 * definition, stop, export the diagram. Each goes through the RunService.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { exportWorkflow, TEXT_EXPORT_FORMATS, type TextExportFormat, RunnerError, activeFirst, findWorkflows, chartEvents, evidenceView, isChartWorkflow, stateNames } from '../../engine/index.js';
import type { RegisterCommand } from '../contributions.js';
import { editorWorkflow } from './editor-workflow.js';
import type { RunService } from './run-service.js';
import { mayReplaceActive } from './confirm-replace.js';
import { showPastRuns } from './past-runs.js';

type Outcome = { error?: { code: string; message: string } };

/** Show a machine refusal or a runner error; returns true when the operation went through. */
function report(outcome: Outcome | undefined, done?: string): boolean {
  if (outcome?.error) {
    void vscode.window.showWarningMessage(`stategate: ${outcome.error.message}`);
    return false;
  }
  if (done) void vscode.window.setStatusBarMessage(`stategate: ${done}`, 4000);
  return true;
}

async function guarded<T>(fn: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    const message = err instanceof RunnerError ? err.message : (err as Error)?.message ?? String(err);
    void vscode.window.showErrorMessage(`stategate: ${message}`);
    return undefined;
  }
}

/** `{ replace: true }` as the command's second argument: the caller means to replace a live run. */
function replaceOption(opts: unknown): boolean {
  return typeof opts === 'object' && opts !== null && (opts as { replace?: unknown }).replace === true;
}

function uriArg(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg !== '') return vscode.Uri.file(arg);
  return undefined;
}

/** The file open in the active editor, if it is on disk. */
function activeEditorFile(): string | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri?.scheme === 'file' ? uri.fsPath : undefined;
}

/** Proposes the workspace's workflows, the one open in the active editor first (selected, so Enter runs it). */
async function pickWorkflowFile(service: RunService, title: string): Promise<string | undefined> {
  const root = service.folder.uri.fsPath;
  const { ordered, active } = activeFirst(findWorkflows(root), activeEditorFile());
  // By name (the file's title, else its id), the id beside it, the file below: what a person recognizes first.
  const items = ordered.map((w) => ({
    label: w.name ?? w.id,
    description: w.name ? w.id : '',
    detail: `${path.relative(root, w.file)} · ${w.states} states${w === active ? ' · open in the editor' : ''}`,
    file: w.file,
  }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('stategate: no workflow files in this workspace (*.workflow.json or .stategate/workflows/*.json).');
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { title, placeHolder: 'Workflow to run', matchOnDescription: true, matchOnDetail: true }))?.file;
}

/**
 * In Restricted Mode stategate shows what is there (diagnostics, an existing run) but starts,
 * advances or approves nothing: a workflow from an untrusted folder must not begin steering
 * agents. Reject, pause and stop stay available: they only take power away.
 */
function requireTrust(what: string): void {
  if (!vscode.workspace.isTrusted) {
    throw new RunnerError('untrusted', `${what} works in trusted workspaces only. Trust this folder (Manage Workspace Trust) to run workflows.`);
  }
}

export function registerRunCommands(service: RunService, register: RegisterCommand): vscode.Disposable[] {
  const cmd = (id: string, fn: (...args: unknown[]) => unknown) => register(id, (...args: unknown[]) => guarded(() => fn(...args)));
  /** A command that changes a run: refused in Restricted Mode. */
  const act = (id: string, what: string, fn: (...args: unknown[]) => unknown) => cmd(id, (...args) => (requireTrust(what), fn(...args)));
  return [
    act('stategate.startRun', 'Starting a workflow run', async (arg, opts) => {
      const file = uriArg(arg)?.fsPath ?? (await pickWorkflowFile(service, 'stategate: Start Workflow Run'));
      if (!file) return undefined;
      // A live run is replaced only when the caller says so or the person chooses Replace (confirm-replace.ts).
      if (!(await mayReplaceActive(service.runner, path.basename(file), replaceOption(opts)))) return undefined;
      const { run } = await service.act((r) => r.start(file, undefined, undefined, { replace: true }));
      void vscode.window.setStatusBarMessage(`stategate: started ${run.workflow.id} in ${run.state}`, 4000);
      return run.runId;
    }),
    cmd('stategate.showPastRuns', () => showPastRuns(service)),
    act('stategate.sendEvent', 'Sending an event', async (arg, data) => {
      const situation = await service.refresh();
      if (situation.kind !== 'active') throw new RunnerError('no_active_run', situation.kind === 'none' ? 'no active run: start one first' : situation.reason);
      let event = typeof arg === 'string' ? arg : undefined;
      const name = stateNames(situation.workflow);
      if (!event) {
        const chart = situation.workflow && situation.run.chart && isChartWorkflow(situation.workflow)
          ? chartEvents(situation.workflow, situation.run.chart, Date.parse(service.runner.env.now()), evidenceView(situation.run.counters.evidence), situation.run)
          : undefined;
        // A statechart run: the events its active states handle (the state view lists no transitions for one),
        // but a live stage's completion event, which only its completion tool sends (Runner.send refuses it).
        const ends = new Set(((situation.view as { completion_tools?: readonly { tool: string }[] }).completion_tools ?? []).map((c) => c.tool));
        const items = chart
          ? chart.filter((e) => !ends.has(e.event)).map((e) => ({ label: e.event, description: `→ ${e.candidates.map((c) => c.targets.map(name).join(', ') || '(stays)').join(' / ')}`, detail: e.reason }))
          : situation.view.transitions.map((t) => ({
              label: t.event,
              description: `→ ${name(t.target)}${t.requires_approval ? ' (needs approval)' : ''}`,
              detail: t.guards.length ? t.guards.map((g) => `${g.passes ? '✓' : '✗'} ${g.name}`).join('  ') : undefined,
            }));
        event = (await vscode.window.showQuickPick(items, { title: `stategate: Send Event (${name(situation.view.state)})`, placeHolder: 'Event to send' }))?.label;
      }
      if (!event) return undefined;
      const outcome = await service.act((r) => r.send(event!, data as never));
      report(outcome, outcome.transitioned ? `${name(outcome.from)} → ${name(outcome.to)}` : undefined);
      return outcome;
    }),
    act('stategate.approve', 'Approving', async () => report(await service.act((r) => r.approve()), 'approved')),
    cmd('stategate.reject', async () => report(await service.act((r) => r.reject()), 'rejected')),
    cmd('stategate.pauseRun', async () => report(await service.act((r) => r.pause()), 'paused')),
    cmd('stategate.stopRun', async () => report(await service.act((r) => r.stop()), 'stopped')),
    act('stategate.reloadDefinition', 'Reloading a definition', async () => report(await service.act((r) => r.reload()), 'definition reloaded')),
    act('stategate.resumeRun', 'Resuming a workflow run', async (arg) => {
      const file = uriArg(arg)?.fsPath ?? (await pickWorkflowFile(service, 'stategate: Resume Workflow Run'));
      if (!file) return undefined;
      return (await service.act((r) => r.resume(file))).resumed;
    }),
    act('stategate.forceState', 'Forcing a state', async (arg) => {
      const situation = await service.refresh();
      if (situation.kind !== 'active' || !situation.workflow) throw new RunnerError('no_active_run', 'no active run');
      const state = typeof arg === 'string' ? arg : (await vscode.window.showQuickPick([...situation.workflow.states.keys()], { title: 'stategate: Force State (debug workflows only)' }));
      if (!state) return undefined;
      return report(await service.act((r) => r.force(state)), `forced to ${state}`);
    }),
    // The workflow in the active editor; the active run's only when no workflow file is in the editor.
    cmd('stategate.exportDiagram', async (arg) => {
      const situation = await service.refresh();
      const workflow = editorWorkflow()?.workflow ?? (situation.kind === 'active' ? situation.workflow : undefined);
      if (!workflow) throw new RunnerError('no_active_run', 'nothing to export: open a workflow file in the editor, or start a run');
      const format = (typeof arg === 'string' ? arg : await vscode.window.showQuickPick([...TEXT_EXPORT_FORMATS], { title: 'stategate: Export Diagram' })) as TextExportFormat | undefined;
      if (!format || !(TEXT_EXPORT_FORMATS as readonly string[]).includes(format)) return undefined;
      const doc = await vscode.workspace.openTextDocument({ content: exportWorkflow(workflow, format), language: format === 'dot' ? 'dot' : format === 'mermaid' ? 'mermaid' : 'plaintext' });
      await vscode.window.showTextDocument(doc);
      return doc.getText();
    }),
  ];
}
