/**
 * Code lenses on a statechart: "▶ Start run" at the chart, and on each state
 * how many transitions lead in (targets and `initial`s that resolve to it) and
 * out (targets of its own transitions).
 */
import type { SourceLoc } from '../../model/index.js';
import type { Lens } from '../lenses.js';
import type { ChartModel } from './occurrences.js';
import { resolveTarget } from '../../statechart/targets.js';

export function chartCodeLenses(m: ChartModel, options: { readonly diagram?: boolean } = {}): Lens[] {
  const { wf } = m;
  const top: SourceLoc = wf.idLoc ?? wf.statesLoc ?? wf.loc;
  const lenses: Lens[] = [{ loc: top, title: '▶ Start run', action: { kind: 'start-run' } }];
  if (options.diagram) lenses.push({ loc: top, title: '◈ Show diagram', action: { kind: 'show-diagram' } });
  const ins = new Map<string, number>();
  const outs = new Map<string, number>();
  const bump = (map: Map<string, number>, k: string): void => void map.set(k, (map.get(k) ?? 0) + 1);
  for (const site of m.sites) {
    const to = resolveTarget(wf, site.source, site.ref);
    if (to === undefined) continue;
    bump(ins, to);
    if (site.source !== '') bump(outs, site.source);
  }
  for (const o of m.all) if (o.slot === 'initial') bump(ins, o.name);
  for (const s of wf.states.values()) {
    lenses.push({ loc: s.keyLoc, title: `↘ ${ins.get(s.id) ?? 0} in · ${outs.get(s.id) ?? 0} out`, action: { kind: 'references', state: s.id } });
  }
  return lenses;
}

