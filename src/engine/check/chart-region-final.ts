/**
 * Rule 5: each region of a parallel state has a final state among its
 * children, so the parallel state can complete (`onAllDone`). docs/statecharts.md: not
 * an error when the parallel state or an ancestor has an event transition
 * that leaves it (the parallel state then ends by that event instead, as the
 * seed's pipeline does with REGION_FAILED).
 */
import type { Diagnostic, StateNode, Workflow } from '../model/index.js';
import { resolveTarget } from '../statechart/targets.js';
import { ancestorsOrSelf, isWithin } from './chart-walk.js';

export const CHART_REGION_FINAL = 'chart-region-final';

export function regionFinalRule(wf: Workflow, out: Diagnostic[]): void {
  for (const state of wf.states.values()) {
    if (state.kind !== 'parallel') continue;
    const lacking = state.children.map((id) => wf.states.get(id) as StateNode).filter((region) => !hasFinalChild(wf, region));
    if (lacking.length === 0 || leftByEvent(wf, state)) continue;
    for (const region of lacking) {
      out.push({
        severity: 'error',
        code: CHART_REGION_FINAL,
        message:
          `Region \`${region.key}\` of parallel state \`${state.id}\` has no final state, so \`${state.id}\` can never complete. ` +
          `Add a \`type: final\` state to the region, or give \`${state.id}\` (or a state around it) an event transition that leaves it.`,
        loc: region.keyLoc,
        data: { region: region.id },
      });
    }
  }
}

function hasFinalChild(wf: Workflow, region: StateNode): boolean {
  return region.children.some((id) => wf.states.get(id)?.kind === 'final');
}

/** An `on` transition of the parallel state or an ancestor (the root included) whose target is outside it. */
function leftByEvent(wf: Workflow, parallel: StateNode): boolean {
  for (const id of ancestorsOrSelf(wf, parallel.id)) {
    const node = id === '' ? wf.chart?.root : wf.states.get(id)?.chart;
    for (const t of node?.transitions ?? []) {
      if (t.trigger.kind !== 'event') continue;
      for (const ref of t.targets) {
        const to = resolveTarget(wf, id, ref);
        if (to !== undefined && !isWithin(to, parallel.id)) return true;
      }
    }
  }
  return false;
}
