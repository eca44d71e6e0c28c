// A Runner on a workspace folder whose commits can be cut short where a kill -9
// would cut them: after one named step of a commit (the store's afterStep
// hook), before the rest of it runs. Used by the tests of what a killed writer
// leaves behind and of what the next writer makes of it.
import * as path from 'node:path';
import { Runner } from '../../../src/engine/runs/runner';
import type { CommitStep } from '../../../src/engine/store/run-store';

export interface KillableRunner {
  readonly runner: Runner;
  /** From now on every commit throws `killed after <step>` right after `step`; undefined lets commits finish again. */
  killAfter(step: CommitStep | undefined): void;
}

/** The Runner of `<cwd>/.stategate` with `cwd` as its workspace, committing normally until killAfter is called. */
export function killableRunner(cwd: string): KillableRunner {
  let stopAt: CommitStep | undefined;
  const runner = new Runner({
    dir: path.join(cwd, '.stategate'),
    workspaceRoot: cwd,
    afterCommitStep: (step) => {
      if (step === stopAt) throw new Error(`killed after ${step}`);
    },
  });
  return {
    runner,
    killAfter: (step) => {
      stopAt = step;
    },
  };
}
