/**
 * A model turn's usage into the run (the run record's cost, meta.max_cost):
 * shared by the participant's tool loop and the pipeline runner. The notices
 * are the bound warnings the report crossed (75%, 90%) and, while the run is
 * past its cost bound, that bound (after every report), for the chat.
 * A run that cannot take the report (none active, ended) changes nothing.
 */
import type { Runner, UsageReport } from '../../engine/index.js';

export async function reportTurnUsage(runner: Runner, turn: { readonly usage?: UsageReport }): Promise<string[]> {
  if (!turn.usage) return [];
  try {
    const active = await runner.active();
    if (active.kind !== 'ok' || active.run.status !== 'running') return [];
    const outcome = await runner.reportUsage(turn.usage);
    if (outcome.error) return [];
    return outcome.exceeded ? [...outcome.notices, outcome.exceeded] : [...outcome.notices];
  } catch {
    return [];
  }
}
