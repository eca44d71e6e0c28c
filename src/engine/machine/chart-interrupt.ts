/**
 * Statewright interrupts on a statechart run (DESIGN.md "Gating agents": the
 * chart root may carry `interrupts`): a save in the editor or an agent's
 * write of a watched file moves the run from the root to the interrupt's
 * target, exiting every active state. There is no `$return` in a chart: the
 * way back is an event of the handler, through a history state to resume
 * where the work stood (examples/hotfix.statechart.yaml).
 */
import type { Workflow } from '../model/index.js';
import * as chart from '../statechart/index.js';
import type { MachineEnv } from './cursor.js';
import { step } from './chart-run.js';
import { matchInterrupt } from './patterns/interrupts.js';
import type { FileChangedOutcome } from './operations.js';
import type { JournalEntry, RunSnapshot } from './run.js';

export function chartFileChanged(run: RunSnapshot, wf: Workflow, relPath: string, env: MachineEnv): { run: RunSnapshot; journal: JournalEntry[]; outcome: FileChangedOutcome } {
  const quiet = (reason: NonNullable<FileChangedOutcome['reason']>) => ({ run, journal: [], outcome: { interrupted: false, file: relPath, state: run.state, status: run.status, reason } });
  if (run.status !== 'running' || !run.chart) return quiet('not_running');
  const def = matchInterrupt(wf, relPath);
  if (!def) return quiet('no_match');
  const target = chart.resolveTarget(wf, chart.ROOT_ID, def.target);
  if (target === undefined) return quiet('invalid_definition');
  // As on a flat run, an interrupt does not fire again while the run stands in its handler.
  if (run.chart.configuration.includes(target)) return quiet('already_in_handler');
  const from = chart.configurationPaths(wf, run.chart).join(' | ');
  const r = step(run, wf, env, 'interrupt', def.name, (w, s, now) => chart.interruptChart(w, s, def.name, target, { now }));
  if (!r.outcome.transitioned) return quiet(r.run.status === 'running' ? 'invalid_definition' : 'final_state');
  return { run: r.run, journal: r.journal, outcome: { interrupted: true, file: relPath, state: r.run.state, status: r.run.status, interrupt: { name: def.name, from, to: target } } };
}
