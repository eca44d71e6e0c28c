/**
 * A statechart run's configuration in short form for the status bar and the
 * panel's header: `pipeline › compiling | linting`. Each active state by the
 * name the diagram gives it (stateNames: the state's own name, its parents'
 * only where another state has the same one), regions separated by ` | `;
 * the tooltip lists them one a line. Pure, unit-tested.
 */
import { configurationPaths, isChartWorkflow, stateNames, type RunSnapshot, type Workflow } from '../../engine/index.js';

/** The active atomic and final states of a statechart run; undefined for a flat run. */
export function chartConfiguration(run: RunSnapshot, wf: Workflow | undefined): string[] | undefined {
  return wf && run.chart && isChartWorkflow(wf) ? configurationPaths(wf, run.chart) : undefined;
}

/** `compiling | linting`: what follows `<workflow id> › `. */
export function configurationText(configuration: readonly string[], wf: Workflow | undefined): string {
  const name = stateNames(wf);
  return configuration.length ? configuration.map(name).join(' | ') : '(no active state)';
}

export function configurationSummary(wf: Workflow, configuration: readonly string[]): string {
  return `${wf.id} › ${configurationText(configuration, wf)}`;
}
