/**
 * The name a person reads for a state outside the diagram: the status bar,
 * the panel's header, notifications, the approval question, the chat. It is
 * the name the diagram gives the state (export/state-names.ts), so a
 * statechart's `hotfix.patching.writing_test` reads `writing_test` everywhere
 * and ids stay for code, files and the CLI's JSON. A flat workflow's states
 * are named by their ids already.
 */
import { diagramTree } from '../export/tree.js';
import { stateNamer } from '../export/state-names.js';
import type { Workflow } from '../model/index.js';

const namers = new WeakMap<Workflow, (id: string) => string>();

/** Names the states of `wf`; without a workflow (a run whose definition cannot be read), the ids themselves. */
export function stateNames(wf: Workflow | undefined): (id: string) => string {
  if (!wf) return (id) => id;
  let namer = namers.get(wf);
  if (!namer) namers.set(wf, (namer = stateNamer(diagramTree(wf))));
  return namer;
}
