/**
 * Moves a statechart run on time while VS Code is open: one real timer, armed
 * for the active run's earliest pending `after` (timer-plan.ts), re-armed on
 * every change of the run (whoever made it), disarmed when the run is paused,
 * stopped or finished and when the window closes. Waking up goes through the
 * same path as any CLI command: the Runner loads the run under the store's
 * lock and fires what is due by then, so a run another process moved in the
 * meantime is read fresh, never overwritten.
 */
import * as vscode from 'vscode';
import type { RunService, RunSituation } from './run-service.js';
import { timerPlan } from './timer-plan.js';

export class ChartTimers implements vscode.Disposable {
  private handle: ReturnType<typeof setTimeout> | undefined;
  private armedFor: number | undefined;
  private tried: number | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly service: RunService) {
    this.subscription = service.onDidChange((s) => this.arm(s));
    this.arm(service.current);
  }

  private arm(s: RunSituation): void {
    const plan = timerPlan(s.kind === 'active' ? s.run : undefined, Date.parse(this.service.runner.env.now()), this.tried);
    if (plan && plan.due === this.armedFor && this.handle) return;
    this.disarm();
    if (!plan) return;
    this.armedFor = plan.due;
    this.handle = setTimeout(() => this.wake(plan.due), plan.delayMs);
  }

  private wake(due: number): void {
    this.handle = undefined;
    this.armedFor = undefined;
    this.tried = due;
    // Loading a statechart run fires its due timers (Runner.state), under the lock; act() refreshes, which re-arms.
    void this.service.act((r) => r.state()).catch(() => {
      // No active run any more, or it cannot be read: the refresh that follows shows why.
    });
  }

  private disarm(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
    this.armedFor = undefined;
  }

  dispose(): void {
    this.disarm();
    this.subscription.dispose();
  }
}
