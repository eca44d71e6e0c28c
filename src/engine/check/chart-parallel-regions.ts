/** Rule 4: a parallel state has at least two regions (one region is just a compound state). */
import type { Diagnostic, Workflow } from '../model/index.js';

export const CHART_PARALLEL_REGIONS = 'chart-parallel-regions';

export function parallelRegionsRule(wf: Workflow, out: Diagnostic[]): void {
  for (const state of wf.states.values()) {
    if (state.kind !== 'parallel' || state.children.length >= 2) continue;
    const count = state.children.length === 0 ? 'no regions' : 'one region';
    out.push({
      severity: 'error',
      code: CHART_PARALLEL_REGIONS,
      message: `Parallel state \`${state.id}\` has ${count}; a parallel state runs at least two regions at once. Add a region, or make it a compound state.`,
      loc: state.keyLoc,
      data: { regions: state.children.length },
    });
  }
}
