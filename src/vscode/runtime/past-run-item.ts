/**
 * One row of "stategate: Past Runs…", free of VS Code so it is unit-tested
 * (test/unit/past-runs.test.ts): the run's status in the words and icon every
 * other view uses (STATUS_WORDS: "waiting for approval", not the raw
 * "running"), where it stands by the names the status bar and the panel give
 * its states (stateNames: `writing_test`, not `hotfix.patching.writing_test`),
 * and its ages in plain words.
 */
import { plainAge, shownRunStatus, stateNames, STATUS_WORDS, type RunSnapshot, type Workflow } from '../../engine/index.js';
import { chartConfiguration, configurationText } from './chart-summary.js';

export interface PastRunItem {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
  readonly runId: string;
}

/**
 * `wf`: the run's own definition (its kept text loaded), which names its states; undefined when it
 * cannot be loaded, and the row says the state's id.
 */
export function pastRunItem(r: RunSnapshot, activeId: string | undefined, now: number, wf: Workflow | undefined): PastRunItem {
  const words = STATUS_WORDS[shownRunStatus(r)];
  return {
    label: `$(${words.icon}) ${r.workflow.id}`,
    description: `${r.runId === activeId ? 'active · ' : ''}${words.label} in "${whereItStands(r, wf)}"`,
    detail: `started ${plainAge(now - Date.parse(r.createdAt))} ago · last change ${plainAge(now - Date.parse(r.updatedAt))} ago · run ${r.runId}`,
    runId: r.runId,
  };
}

/** A statechart run's every active state as the status bar lists them (`compiling | linting`); a flat run's state. */
function whereItStands(r: RunSnapshot, wf: Workflow | undefined): string {
  const configuration = chartConfiguration(r, wf);
  return configuration?.length ? configurationText(configuration, wf) : stateNames(wf)(r.state);
}
