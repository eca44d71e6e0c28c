/**
 * Code lenses on a flow: "▶ Run flow" at its top, and on each state how many
 * references lead in (`start-at`, targets, parallel tasks) and how many of its
 * own targets lead out to a state.
 */
import type { Lens } from '../lenses.js';
import type { FlowModel } from './occurrences.js';

const ROUTES: ReadonlySet<string | undefined> = new Set(['start-at', 'next', 'on-error', 'goto', 'task']);

export function flowCodeLenses(m: FlowModel): Lens[] {
  const { wf } = m;
  const top = { pointer: '', start: wf.loc.start, end: wf.loc.start };
  const lenses: Lens[] = [{ loc: top, title: '▶ Run flow', action: { kind: 'run-flow' } }];
  const ins = new Map<string, number>();
  const outs = new Map<string, number>();
  const bump = (map: Map<string, number>, k: string): void => void map.set(k, (map.get(k) ?? 0) + 1);
  for (const o of m.all) {
    if (o.kind !== 'state' || o.role !== 'reference' || !ROUTES.has(o.slot) || !wf.states.has(o.name)) continue;
    bump(ins, o.name);
    if (o.owner !== undefined) bump(outs, o.owner);
  }
  for (const s of wf.states.values()) {
    lenses.push({ loc: s.keyLoc, title: `↘ ${ins.get(s.key) ?? 0} in · ${outs.get(s.key) ?? 0} out`, action: { kind: 'references', state: s.key } });
  }
  return lenses;
}
