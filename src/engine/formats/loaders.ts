/**
 * What the engine's run-time code takes from the format loaders, for it to require lazily:
 * a process that only decides calls on a run whose definition is compiled (the hook,
 * store/compiled-definitions.ts) never evaluates a loader, the YAML reader or jsonc.
 * scripts/build.mjs points the hook's requires of this file at a bundle of its own (hook-formats.js).
 */
export { detectFormat, loadWorkflowText } from './index.js';
export { WorkflowRegistry } from './registry.js';
export { ChartRegistry } from './chart-registry.js';
export { AGENTS_FILE, agentsFileErrors, loadAgentsFile } from './agents-file.js';
