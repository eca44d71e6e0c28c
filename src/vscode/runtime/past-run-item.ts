/**
 * One row of "stategate: Past Runs…", free of VS Code so it is unit-tested
 * (test/unit/past-runs.test.ts): the run's status in the words and icon every
 * other view uses (STATUS_WORDS: "waiting for approval", not the raw
 * "running"), its state, and its ages in plain words.
 */
import { plainAge, shownRunStatus, STATUS_WORDS, type RunSnapshot } from '../../engine/index.js';

export interface PastRunItem {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
  readonly runId: string;
}

export function pastRunItem(r: RunSnapshot, activeId: string | undefined, now: number): PastRunItem {
  const words = STATUS_WORDS[shownRunStatus(r)];
  return {
    label: `$(${words.icon}) ${r.workflow.id}`,
    description: `${r.runId === activeId ? 'active · ' : ''}${words.label} in "${r.state}"`,
    detail: `started ${plainAge(now - Date.parse(r.createdAt))} ago · last change ${plainAge(now - Date.parse(r.updatedAt))} ago · run ${r.runId}`,
    runId: r.runId,
  };
}
