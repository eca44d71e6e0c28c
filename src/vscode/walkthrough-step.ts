/**
 * Ticks a step of stategate's walkthrough (package.json, contributes.walkthroughs) when the extension
 * sees that it is done: VS Code's own `welcome.markStepComplete` command, given the step's full id
 * (`publisher.name#walkthrough#step`), stores the tick in the profile's walkthrough progress, so the
 * walkthrough shows it whenever it is opened, in this window or a later one.
 *
 * Why not completion events alone: VS Code's walkthrough service (gettingStartedService.ts in
 * microsoft/vscode, src/vs/workbench/contrib/welcomeGettingStarted/browser/; code-server 4.139 has
 * the same) registers an extension's steps up to five seconds after the extension loads, or only
 * when the Welcome page first opens; an event before that is recorded as seen and never ticks, and
 * an `onContext` expression already true at registration is recorded as seen without ticking. A run
 * started before the window opened is exactly that case. docs/design/walkthrough.md has the details.
 */
import * as vscode from 'vscode';

export type WalkthroughStep = 'openWorkflow' | 'startRun' | 'watchPanel' | 'enableEnforcement';

export const WALKTHROUGH_ID = 'gettingStarted';
/** VS Code's command (gettingStarted.contribution.ts in microsoft/vscode); not in the palette. */
const MARK_STEP_COMPLETE = 'welcome.markStepComplete';
/** The registration's own delay (up to 5 s, more on a busy machine) plus a margin: retried this often, this far apart. */
const ATTEMPTS = 60;
const RETRY_MS = 500;
/**
 * A tick that succeeded is given again this long after: idempotent, and a tick given while the
 * walkthrough service was still reading the profile's progress was seen lost once (one e2e run in
 * three on a loaded machine: the step's tick missing, a later one's present).
 */
const CONFIRM_AFTER_MS = [5_000, 15_000, 30_000];

const marked = new Set<string>();

export function markWalkthroughStep(extensionId: string, step: WalkthroughStep): void {
  const id = `${extensionId}#${WALKTHROUGH_ID}#${step}`;
  if (marked.has(id)) return;
  marked.add(id);
  const give = (): Thenable<unknown> => vscode.commands.executeCommand(MARK_STEP_COMPLETE, id);
  const attempt = (n: number): void => {
    give().then(
      () => {
        for (const ms of CONFIRM_AFTER_MS) setTimeout(() => give().then(undefined, () => undefined), ms).unref?.();
      },
      (err: unknown) => {
        // "does not exist in registry": the steps are not registered yet (the tick is stored already,
        // but an open walkthrough redraws only on a tick of a registered step). Any other error (an
        // editor without VS Code's walkthroughs) leaves the walkthrough as it is. Given up, the step
        // may be ticked again when it is seen again.
        if (n + 1 < ATTEMPTS && /does not exist/.test(String(err))) setTimeout(() => attempt(n + 1), RETRY_MS);
        else marked.delete(id);
      },
    );
  };
  attempt(0);
}
