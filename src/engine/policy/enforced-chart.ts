/**
 * Which machine of a statechart run holds the agent: while a child statechart
 * runs (`invoke: {src: statechart:...}`), the innermost running child, the
 * same one events go to first, as a flat child run is "enforced by its own
 * states' rules" (docs/format.md); otherwise the run's
 * own chart.
 */
import type { Workflow } from '../model/index.js';
import { chartWorkflow } from '../machine/chart-run.js';
import type { MachineEnv } from '../machine/cursor.js';
import type { RunSnapshot } from '../machine/run.js';
import type { ChartSnapshot } from '../statechart/index.js';
import { interpreter } from '../statechart/lazy.js';

export interface EnforcedChart {
  readonly workflow: Workflow;
  readonly snapshot: ChartSnapshot;
  /** For messages: `child statechart code_review (invocation review of reviewing), ` or '' for the run's own chart. */
  readonly where: string;
  /** The machines around the child, innermost first (the run's own chart last): their events lead out of it too. */
  readonly outer: readonly { readonly workflow: Workflow; readonly configuration: readonly string[] }[];
}

/** The machine whose active configuration decides the agent's calls; undefined for a flat run (or one that no longer loads). */
export function enforcedChart(run: RunSnapshot, env: MachineEnv): EnforcedChart | undefined {
  const wf = run.chart ? chartWorkflow(run, env) : undefined;
  if (!wf || !run.chart) return undefined;
  const { configurationPaths, innermostChild } = interpreter();
  const child = innermostChild(run.chart, (text) => env.load(text));
  if (!child) return { workflow: wf, snapshot: run.chart, where: '', outer: [] };
  const via = child.path.map((inv) => `invocation ${inv.id} of ${inv.state}`).join(', then ');
  const outer = [{ workflow: wf, configuration: configurationPaths(wf, run.chart) }];
  for (const inv of child.path.slice(0, -1)) {
    const cw = inv.child && env.load(inv.child.text);
    if (cw && inv.child) outer.unshift({ workflow: cw, configuration: configurationPaths(cw, inv.child.snapshot) });
  }
  return { workflow: child.workflow, snapshot: child.snapshot, where: `child statechart ${child.workflow.id} (${via}), `, outer };
}
