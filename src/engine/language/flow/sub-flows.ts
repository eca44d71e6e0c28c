/**
 * The variables a `sub-flow` state brings back (`{{ <state>::<var> }}`): the
 * child flow's declared variables and its `output: var()` captures, read from
 * its file, which is resolved against the parent flow's folder as the runner
 * does (flow/load.ts). Unknown children offer nothing: completion says only
 * what is known.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadFlow } from '../../formats/flow.js';
import type { Workflow } from '../../model/index.js';

/** Loads the flow a sub-flow state names, or undefined when it cannot be found or read. */
export type LoadSubFlow = (workflowArgument: string) => Workflow | undefined;

export function subFlowLoader(file: string | undefined): LoadSubFlow {
  return (ref) => {
    // A templated path is chosen at run time; without the flow's own file there is nothing to resolve against.
    if (ref.includes('{{') || file === undefined) return undefined;
    const full = path.resolve(path.dirname(file), ref);
    let text: string;
    try {
      text = fs.readFileSync(full, 'utf8');
    } catch {
      return undefined;
    }
    return loadFlow(text, { file: full }).workflow;
  };
}

/** The variable names a flow defines: `variables` and every `output: var()` (parallel tasks' included). */
export function flowVariableNames(wf: Workflow): string[] {
  const out = new Set(Object.keys(wf.flow?.variables ?? {}));
  for (const s of wf.states.values()) {
    if (s.flow?.output?.kind === 'var') out.add(s.flow.output.name);
    for (const t of s.flow?.tasks ?? []) if (t.kind === 'call' && t.output?.kind === 'var') out.add(t.output.name);
  }
  return [...out];
}
