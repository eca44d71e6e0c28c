/**
 * Runs a statechart run's handlers as they become due while VS Code is open
 * (docs/statechart-handlers.md): on every change of the active run, if it has
 * pending handler calls or running `handler:`/`flow:` invocations, they run
 * through the engine (runPendingHandlers), one pass at a time. Nothing runs
 * in Restricted Mode; a chart file no person trusted yet is shown in a modal
 * with what its handlers run (flow-trust.ts), and a no fails the handler with
 * its error event, as the CLI does. Flow handlers' output goes to the
 * "stategate handlers" output channel.
 */
import * as vscode from 'vscode';
import { nodeFlowHost, pendingOf, runPendingHandlers, type ChartInvocation, type FlowHost } from '../../engine/index.js';
import { confirmHandlers } from '../flows/flow-trust.js';
import type { RunService, RunSituation } from './run-service.js';

/** Whether a running `handler:`/`flow:` invocation is in the tree (a running child statechart's included). */
function hostRun(invocations: readonly ChartInvocation[], depth = 0): boolean {
  return invocations.some((i) => i.status === 'running' && (/^(handler|flow):/.test(i.src) || (depth < 16 && i.child !== undefined && hostRun(i.child.snapshot.invocations, depth + 1))));
}

export class ChartHandlers implements vscode.Disposable {
  private running = false;
  /** A change came while a pass ran: look again when it ends. */
  private again = false;
  private readonly subscription: vscode.Disposable;
  private channel: vscode.OutputChannel | undefined;

  constructor(private readonly service: RunService) {
    this.subscription = service.onDidChange((s) => this.due(s));
    this.due(service.current);
  }

  private due(s: RunSituation): void {
    if (s.kind !== 'active' || s.run.status !== 'running') return;
    const hasCalls = (s.run.handlerCalls?.length ?? 0) > 0;
    const hasServices = s.run.chart !== undefined && hostRun(s.run.chart.invocations);
    if (!hasCalls && !hasServices) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.pass();
  }

  /** Handlers already said to be waiting (for the person to trust the folder or a file). */
  private readonly toldWaiting = new Set<string>();

  private async pass(): Promise<void> {
    this.running = true;
    try {
      do {
        this.again = false;
        if (!(await pendingOf(this.service.runner)).length) break;
        const workspace = this.service.runner.workspaceRoot;
        // A "no" holds for the rest of the pass: one modal per file, not one per pending handler.
        const declined = new Set<string>();
        const reports = await this.service.act((runner) =>
          runPendingHandlers(runner, {
            workspaceTrusted: vscode.workspace.isTrusted,
            confirm: async (q) => {
              if (declined.has(q.file)) return false;
              const yes = await confirmHandlers(workspace, q);
              if (!yes) declined.add(q.file);
              return yes;
            },
            flowHost: this.flowHost(workspace),
          }),
        );
        for (const r of reports) {
          // A handler left waiting (Restricted Mode) is said once, not on every change of the run.
          if (r.waiting && this.toldWaiting.has(r.id)) continue;
          if (r.waiting) this.toldWaiting.add(r.id);
          if (!r.ok) void vscode.window.showWarningMessage(`stategate: handler ${r.handler} (${r.id}) ${r.reason ?? 'failed'}`);
        }
      } while (this.again);
    } catch (err) {
      void vscode.window.showErrorMessage(`stategate: running the chart's handlers failed: ${(err as Error).message}`);
    } finally {
      this.running = false;
    }
  }

  private flowHost(workspace: string): FlowHost {
    const channel = (this.channel ??= vscode.window.createOutputChannel('stategate handlers'));
    return nodeFlowHost(workspace, { progress: (line) => channel.appendLine(line), output: (_state, chunk) => channel.append(chunk) }, { interactive: false });
  }

  dispose(): void {
    this.subscription.dispose();
    this.channel?.dispose();
  }
}
