/**
 * A live run (running, waiting for an approval, or paused) is never replaced by
 * starting another unless the caller says so (`Runner.start(…, { replace: true })`):
 * one click on a lens in another editor group must not throw away a run. These are
 * the words every shell uses to say what would be replaced, so the modal, the chat
 * and the CLI's refusal read the same.
 */
import type { RunSnapshot } from '../machine/run.js';
import { countOf } from '../machine/status-words.js';

/** Running, waiting for an approval (a running run with one parked), or paused: not yet ended. */
export function isLiveRun(run: Pick<RunSnapshot, 'status'>): boolean {
  return run.status === 'running' || run.status === 'paused';
}

/** "3 minutes", "1 hour 5 minutes", "less than a minute": how long ago a run started, in plain words. */
export function plainAge(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'less than a minute';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h ? `${countOf(h, 'hour')}${m ? ` ${countOf(m, 'minute')}` : ''}` : countOf(m, 'minute');
}

/** `"hotfix" is waiting for an approval in state "review", started 4 minutes ago`: what a live run is doing, for a person. */
export function describeLiveRun(
  run: Pick<RunSnapshot, 'status' | 'state' | 'createdAt' | 'workflow' | 'pendingApproval'>,
  now: number,
  /** The names a person reads (machine/state-display.ts); the ids by default (the CLI's words). */
  name: (id: string) => string = (id) => id,
): string {
  const doing = run.status === 'paused' ? 'is paused' : run.pendingApproval ? 'is waiting for an approval' : 'is running';
  return `"${run.workflow.id}" ${doing} in state "${name(run.state)}", started ${plainAge(now - Date.parse(run.createdAt))} ago`;
}

/** Where a replaced run's journal stays listed, for the confirmation and the refusal. */
export const REPLACED_RUN_LISTED = 'Its journal is kept: it stays listed in "stategate: Past Runs…" and `stategate run list`.';
