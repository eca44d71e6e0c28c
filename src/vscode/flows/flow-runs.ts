/**
 * Running flows in the window: start (trust, first-run confirmation), resume,
 * pause and stop instances, each run writing to a terminal of its own. The
 * runner (engine flow/) does the work; this keeps which instance runs in
 * which terminal.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { flowStatus, listFlows, loadWorkflowText, nodeFlowHost, pauseFlow, resumeFlow, startFlow, stopFlow, type FlowSummary } from '../../engine/index.js';
import { confirmFirstRun, flowsAllowed } from './flow-trust.js';
import { FlowTerminal } from './flow-terminal.js';
import { vscodeFlowHost } from './vscode-host.js';

/** The end of a run as its terminal says it. */
function ending(s: FlowSummary): string {
  const why = s.message ? `: ${s.message}` : '';
  switch (s.status) {
    case 'completed':
      return `■ ${s.instance} completed (exit ${s.exit_code})`;
    case 'paused':
      return `⏸ ${s.instance} paused at ${s.state}${why}. Resume it from the Flows view.`;
    default:
      return `■ ${s.instance} ${s.status} at ${s.state} (exit ${s.exit_code})${why}`;
  }
}

export class FlowRuns implements vscode.Disposable {
  /** Terminals by instance, while open. */
  private readonly terminals = new Map<string, FlowTerminal>();
  /** Instances running in this window. */
  private readonly running = new Set<string>();

  constructor(
    private readonly folder: vscode.WorkspaceFolder,
    private readonly state: vscode.Memento,
    private readonly changed: () => void,
  ) {}

  get workspace(): string {
    return this.folder.uri.fsPath;
  }

  /** Runs the flow file: refused in Restricted Mode, asked on its first run. Resolves with the summary, or undefined when not run. */
  async run(file: string, name?: string): Promise<FlowSummary | undefined> {
    if (!flowsAllowed('Running a flow')) return undefined;
    let content: string;
    try {
      content = fs.readFileSync(file, 'utf8');
    } catch (err) {
      void vscode.window.showErrorMessage(`stategate: cannot read the flow ${file}: ${(err as Error).message}`);
      return undefined;
    }
    const loaded = loadWorkflowText(content, file);
    if (!loaded.workflow || loaded.workflow.format !== 'flow') {
      void vscode.window.showErrorMessage(`stategate: ${path.basename(file)} is not a flow (a *.flow.yaml with start-at and states); see the Problems panel.`);
      return undefined;
    }
    if (!(await confirmFirstRun(this.state, this.workspace, file, content, loaded.workflow))) return undefined;
    const title = loaded.workflow.id;
    const term = this.terminal(`Flow: ${title}`);
    term.show();
    return this.follow(term, () => startFlow(this.host(term, title), { file, ...(name ? { name } : {}) }), (instance) => this.adopt(term, instance));
  }

  /** Resumes a paused or interrupted instance (an interrupted state runs again only when the person says so). */
  async resume(instance: string): Promise<FlowSummary | undefined> {
    if (!flowsAllowed('Resuming a flow')) return undefined;
    const status = flowStatus(this.workspace, instance);
    let rerun = false;
    if (status.status === 'interrupted') {
      const again = 'Run It Again';
      const pick = await vscode.window.showWarningMessage(
        `The flow ${instance} was interrupted while "${status.state}" ran. Run "${status.state}" again?`,
        { modal: true, detail: 'Its earlier variables are kept. A command that had side effects may repeat them.' },
        again,
      );
      if (pick !== again) return undefined;
      rerun = true;
    } else if (status.status !== 'paused') {
      void vscode.window.showInformationMessage(`stategate: ${instance} is ${status.status}; only a paused or interrupted flow resumes.`);
      return undefined;
    }
    const term = this.terminals.get(instance) ?? this.terminal(`Flow: ${instance}`);
    term.reopen();
    term.note(`▶ resuming ${instance}${rerun ? ` (running ${status.state} again)` : ''}`);
    term.show();
    this.adopt(term, instance);
    return this.follow(term, () => resumeFlow(this.host(term, status.flow), instance, rerun ? { rerun } : {}));
  }

  pause(instance: string): void {
    pauseFlow(this.workspace, instance);
    this.terminals.get(instance)?.note(`⏸ pause asked: ${instance} pauses after the current state.`);
    this.changed();
  }

  stop(instance: string): FlowSummary {
    const s = stopFlow(this.workspace, instance);
    this.terminals.get(instance)?.note(`■ stop asked for ${instance}.`);
    this.changed();
    return s;
  }

  /** Shows the instance's terminal, or its flow file when it has none open. */
  async show(instance: string): Promise<void> {
    const term = this.terminals.get(instance);
    if (term && !term.isClosed) return term.show();
    const f = listFlows(this.workspace).find((x) => x.instance === instance);
    if (f && fs.existsSync(path.resolve(this.workspace, f.flow))) await vscode.window.showTextDocument(vscode.Uri.file(path.resolve(this.workspace, f.flow)));
  }

  isRunningHere(instance: string): boolean {
    return this.running.has(instance);
  }

  private terminal(name: string): FlowTerminal {
    const term: FlowTerminal = new FlowTerminal(name, () => {
      for (const [k, v] of this.terminals) if (v === term) this.terminals.delete(k);
      term.terminal.dispose();
      term.dispose();
    });
    return term;
  }

  private adopt(term: FlowTerminal, instance: string): void {
    this.terminals.set(instance, term);
  }

  private host(term: FlowTerminal, flow: string) {
    return vscodeFlowHost(nodeFlowHost({ workspace: this.workspace, sink: term }), flow);
  }

  /** Runs `go`, keeping the terminal told; a runner error (bad input) is shown, never lost. */
  private async follow(term: FlowTerminal, go: () => Promise<FlowSummary>, started?: (instance: string) => void): Promise<FlowSummary | undefined> {
    try {
      const s = await go();
      started?.(s.instance);
      term.finish(ending(s));
      return s;
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      term.finish(`■ the flow could not run: ${message}`);
      void vscode.window.showErrorMessage(`stategate: ${message}`);
      return undefined;
    } finally {
      this.changed();
    }
  }

  dispose(): void {
    for (const t of this.terminals.values()) t.dispose();
    this.terminals.clear();
  }
}
