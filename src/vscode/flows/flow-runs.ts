/**
 * Running flows in the window: start (trust, first-run confirmation), resume,
 * pause and stop instances, each run writing to a terminal of its own. The
 * runner (engine flow/) does the work; this keeps which instance runs in
 * which terminal.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { abortFlowRuns, flowStatus, flowTrustCheck, loadWorkflowText, nodeFlowHost, pauseFlow, resumeFlow, startFlow, stopFlow, type FlowSink, type FlowSummary, type FlowTrust, type Workflow } from '../../engine/index.js';
import { flowFileOf } from './flow-file.js';
import { confirmFirstRun, flowsAllowed } from './flow-trust.js';
import { FlowTerminal } from './flow-terminal.js';
import { vscodeFlowHost } from './vscode-host.js';

export class FlowRuns implements vscode.Disposable {
  /** Terminals by instance, while open. */
  private readonly terminals = new Map<string, FlowTerminal>();

  constructor(
    private readonly folder: vscode.WorkspaceFolder,
    private readonly changed: () => void,
    /** A run started and named its instance. */
    private readonly started: (instance: string) => void = () => {},
  ) {}

  get workspace(): string {
    return this.folder.uri.fsPath;
  }

  /** Runs the flow file: refused in Restricted Mode, asked on its first run. Resolves with the summary, or undefined when not run. */
  async run(file: string, name?: string): Promise<FlowSummary | undefined> {
    if (!flowsAllowed('Running a flow')) return undefined;
    const approved = await this.approved(file);
    if (!approved) return undefined;
    const title = approved.wf.name ?? approved.wf.id;
    const term = this.terminal(`Flow: ${title}`);
    term.show();
    // Only what the person allowed runs: a file or registry changed since the question is refused.
    return this.follow(term, () => startFlow(this.host(term, title), { file, trust: flowTrustCheck(this.trustDir(), approved.trust), ...(name ? { name } : {}) }));
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
    // The flow file is read again on resume: a changed file (or registry, or sub-flow) is confirmed again,
    // and the resumed run loads only what was allowed.
    const file = flowFileOf(this.workspace, instance);
    const approved = file ? await this.approved(file) : undefined;
    if (file && !approved) return undefined;
    const trust = approved ? { trust: flowTrustCheck(this.trustDir(), approved.trust) } : {};
    const term = this.terminals.get(instance) ?? this.terminal(`Flow: ${instance}`);
    term.reopen();
    term.note(`▶ resuming ${instance}${rerun ? ` (running ${status.state} again)` : ''}`);
    term.show();
    this.terminals.set(instance, term);
    return this.follow(term, () => resumeFlow(this.host(term, status.flow), instance, { ...(rerun ? { rerun } : {}), ...trust }));
  }

  /**
   * The flow file's workflow and what was trusted of it (the engine's flowTrust text) once the person
   * has allowed this content of it (now or on an earlier run); undefined otherwise, with the reason shown.
   */
  private async approved(file: string): Promise<{ readonly wf: Workflow; readonly trust: FlowTrust } | undefined> {
    let content: string;
    try {
      content = fs.readFileSync(file, 'utf8');
    } catch (err) {
      void vscode.window.showErrorMessage(`stategate: cannot read the flow ${file}: ${(err as Error).message}`);
      return undefined;
    }
    const wf = loadWorkflowText(content, file).workflow;
    if (!wf || wf.format !== 'flow') {
      void vscode.window.showErrorMessage(`stategate: ${path.basename(file)} is not a flow (a flow has start-at and states with a tool); see the Problems panel.`);
      return undefined;
    }
    const trust = await confirmFirstRun(this.workspace, file, content, wf);
    return trust === undefined ? undefined : { wf, trust };
  }

  /** The trust record's folder (the engine's one trust store, flow-trust.ts). */
  private trustDir(): string {
    return path.join(this.workspace, '.stategate');
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
    const file = flowFileOf(this.workspace, instance);
    if (file) await vscode.window.showTextDocument(vscode.Uri.file(file));
  }

  private terminal(name: string): FlowTerminal {
    const term: FlowTerminal = new FlowTerminal(name, () => {
      for (const [k, v] of this.terminals) if (v === term) this.terminals.delete(k);
      term.terminal.dispose();
      term.dispose();
    });
    return term;
  }

  /**
   * The host of a run writing to `term`. The runner names a new instance in its first progress
   * line (`flow F: instance N`, control.ts), which is when the terminal becomes that instance's.
   */
  private host(term: FlowTerminal, flow: string) {
    const sink: FlowSink = {
      progress: (line) => {
        const named = /^flow .+: instance (\S+)$/.exec(line);
        if (named) (this.terminals.set(named[1]!, term), this.started(named[1]!));
        term.progress(line);
      },
      output: (state, chunk, stream) => term.output(state, chunk, stream),
    };
    return vscodeFlowHost(nodeFlowHost(this.workspace, sink, { interactive: false }), flow);
  }

  /** Runs `go`, keeping the terminal told; a runner error (bad input) is shown, never lost. */
  private async follow(term: FlowTerminal, go: () => Promise<FlowSummary>): Promise<FlowSummary | undefined> {
    this.changed();
    try {
      // The runner's last progress line already says how it ended (and, paused, why).
      const s = await go();
      term.finish();
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

  /** The window closes: what its flows run is ended (process groups killed); the instances stay on disk, resumable. */
  dispose(): void {
    abortFlowRuns();
    for (const t of this.terminals.values()) t.dispose();
    this.terminals.clear();
  }
}
