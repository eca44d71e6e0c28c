/**
 * The flow runner (docs/flows.md): what the CLI (`stategate flow ...`)
 * and the extension (the Flows view) call. A host (host.ts) performs the
 * effects; everything else is here. Instances live in
 * `<workspace>/.stategate/flows/<instance>/` (instance.json, log.jsonl): a
 * view may watch that folder.
 */
export type * from './host.js';
export * from './types.js';
export { startFlow, resumeFlow, stopFlow, pauseFlow, flowStatus, listFlows, STOPPED_EXIT } from './control.js';
export { abortFlowRuns } from './runner.js';
export { declaredVariables, renderKnown } from './template.js';
export { FAILURE_EXIT } from './failure.js';
export { flowsDir, instanceDir, instanceFile } from './instance-store.js';
