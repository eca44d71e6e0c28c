/**
 * A statechart run's configuration in short form for the status bar and the
 * panel's header: `pipeline › build.compiling | lint.linting`. The active
 * states' common ancestor is left out (it is in every path), regions are
 * separated by ` | `; the tooltip gives the full paths. Pure, unit-tested.
 */
import { configurationPaths, isChartWorkflow, type RunSnapshot, type Workflow } from '../../engine/index.js';

/** The active atomic and final states of a statechart run; undefined for a flat run. */
export function chartConfiguration(run: RunSnapshot, wf: Workflow | undefined): string[] | undefined {
  return wf && run.chart && isChartWorkflow(wf) ? configurationPaths(wf, run.chart) : undefined;
}

/** The dotted prefix every path shares, up to a whole segment ('' when none, or for a single path). */
function commonAncestor(paths: readonly string[]): string[] {
  if (paths.length < 2) return [];
  const split = paths.map((p) => p.split('.'));
  const out: string[] = [];
  for (let i = 0; split.every((s) => i < s.length - 1 && s[i] === split[0]![i]); i++) out.push(split[0]![i]!);
  return out;
}

/** `build.compiling | lint.linting`: what follows `<workflow id> › `. */
export function configurationText(configuration: readonly string[]): string {
  const drop = commonAncestor(configuration).length;
  const short = configuration.map((p) => p.split('.').slice(drop).join('.'));
  return short.length ? short.join(' | ') : '(no active state)';
}

export function configurationSummary(workflowId: string, configuration: readonly string[]): string {
  return `${workflowId} › ${configurationText(configuration)}`;
}
