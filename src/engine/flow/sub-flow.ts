/**
 * `sub-flow`: another flow file run as a frame of the same instance. Its path
 * is relative to the flow that names it; its variables start from its own
 * `variables` with the state's other arguments on top (templated), and come
 * back to the parent as `<state>::<var>`. In a run started from a person's
 * trust, the sub-flow (and each it names) runs only as a person trusted it
 * (load.ts, TrustCheck).
 */
import * as path from 'node:path';
import type { FlowStep } from '../model/index.js';
import { StateFailure } from './failure.js';
import { loadFlowTree, type LoadedFlow } from './load.js';
import type { ChildStart } from './entry.js';
import type { TrustCheck } from './types.js';
import { asText, declaredVariables, renderText, renderValue, type Variables } from './template.js';

/** Sub-flows inside sub-flows stop here: a flow that names itself would otherwise recurse until memory runs out. */
export const MAX_SUB_FLOW_DEPTH = 16;

export function enterSubFlow(step: FlowStep, vars: Variables, parent: LoadedFlow, workspace: string, depth: number, trust?: TrustCheck): ChildStart {
  if (depth + 1 >= MAX_SUB_FLOW_DEPTH) throw new StateFailure(`sub-flows are nested ${MAX_SUB_FLOW_DEPTH} deep: does a flow run itself?`);
  const file = renderText(asText(step.arguments.workflow), vars);
  let flow: LoadedFlow;
  try {
    flow = loadFlowTree(file, path.dirname(parent.file), workspace, new Set(), trust);
  } catch (err) {
    throw new StateFailure(`sub-flow not run: ${(err as Error).message}`);
  }
  return { flow, variables: initialVariables(flow, step, vars), entry: { kind: 'start' } };
}

/** The child's `variables` defaults, then the state's arguments other than `workflow`. */
function initialVariables(flow: LoadedFlow, step: FlowStep, vars: Variables): Record<string, string> {
  const out = declaredVariables(flow.workflow);
  for (const [k, v] of Object.entries(step.arguments)) if (k !== 'workflow') out[k] = asText(renderValue(v, vars));
  return out;
}

/** A child's variables as the parent reads them. */
export function namespaced(state: string, vars: Variables): Record<string, string> {
  return Object.fromEntries(Object.entries(vars).map(([k, v]) => [`${state}::${k}`, v]));
}
