/**
 * One status vocabulary for every view (status bar, panel, run record, Flows view): what a
 * run's or a flow's status reads as, and its codicon. A view says "paused" for a paused
 * run, "stopped" for a stopped one, and never the run record's seed status (planning /
 * executing / reviewing), which describes the work, not whether the run goes on.
 */
import type { RunSnapshot } from './run.js';

/** A run's status, `waiting` for a running run with an approval parked, and a flow's `interrupted`. */
export type ShownStatus = 'running' | 'waiting' | 'paused' | 'interrupted' | 'completed' | 'failed' | 'stopped';

export interface StatusWords {
  /** The word a view shows. */
  readonly label: string;
  /** A codicon name (VS Code's `$(name)`, ThemeIcon, <vscode-icon name>). */
  readonly icon: string;
  /** A theme color id for the icon, where the status asks for attention or tells an outcome. */
  readonly color?: string;
}

export const STATUS_WORDS: Readonly<Record<ShownStatus, StatusWords>> = {
  running: { label: 'running', icon: 'sync~spin', color: 'charts.blue' },
  waiting: { label: 'waiting for approval', icon: 'bell', color: 'charts.yellow' },
  paused: { label: 'paused', icon: 'debug-pause', color: 'charts.yellow' },
  interrupted: { label: 'interrupted', icon: 'warning', color: 'charts.orange' },
  completed: { label: 'completed', icon: 'pass', color: 'charts.green' },
  failed: { label: 'failed', icon: 'error', color: 'charts.red' },
  stopped: { label: 'stopped', icon: 'debug-stop' },
};

/** What a run shows as: its status, `waiting` while an approval is parked. */
export function shownRunStatus(run: Pick<RunSnapshot, 'status' | 'pendingApproval'>): ShownStatus {
  return run.status === 'running' && run.pendingApproval ? 'waiting' : run.status;
}

/** "0 lessons recorded", "1 checkpoint", "2 checkpoints": a count in plain words. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
