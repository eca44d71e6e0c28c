/**
 * Before a run starts over a live one (running, waiting or paused), the person is asked:
 * replace it, or keep it. Keep is the default (Enter), and Escape and Cancel keep too, so a stray click on a lens in
 * another editor group never throws a run away. A caller that means to replace (a test, a
 * script) passes `{ replace: true }` to the command and is not asked.
 */
import * as vscode from 'vscode';
import { describeLiveRun, isLiveRun, REPLACED_RUN_LISTED, stateNames, type Runner } from '../../engine/index.js';

export const REPLACE_RUN = 'Replace Run';
export const KEEP_RUN = 'Keep Current Run';

/** True when the new run may start: nothing live is active, the caller said replace, or the person chose Replace. */
export async function mayReplaceActive(runner: Runner, next: string, replace: boolean): Promise<boolean> {
  if (replace) return true;
  const active = await runner.active();
  if (active.kind !== 'ok' || !isLiveRun(active.run)) return true;
  const choice = await vscode.window.showWarningMessage(
    `Replace the active run with "${next}"?`,
    { modal: true, detail: `The run ${describeLiveRun(active.run, Date.now(), stateNames(runner.env.load(active.run.workflow.definitionText)))}.\nReplacing stops it. ${REPLACED_RUN_LISTED}` },
    // Keep first: VS Code makes the first item the focused, primary button, so Enter keeps too. Not a close
    // affordance, since that would hand the primary place to Replace; VS Code adds Cancel, which keeps as well.
    { title: KEEP_RUN },
    { title: REPLACE_RUN },
  );
  return choice?.title === REPLACE_RUN;
}
