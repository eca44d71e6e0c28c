/**
 * Every name of a statechart with where it is written: states (their keys,
 * region ids, and each step of a target or `initial` that names them),
 * named actions (definition and each use in entry/exit/actions) and context
 * keys (the `context` entry, each `assign` of it, each `context.key` inside
 * an expression). Targets are resolved by the one resolution function the
 * validator and the interpreter use (statechart/targets.ts), so a reference
 * here is exactly what the chart means.
 */
import { expressionReferences, parseExpression } from '../../expr/index.js';
import type { NameRef, SourceLoc, Workflow } from '../../model/index.js';
import { resolveTarget } from '../../statechart/targets.js';
import { expressions, indexChart, type ChartIndex } from '../../check/chart-walk.js';
import { targetSites, type TargetSite } from '../../check/chart-targets.js';
import { nodeLoc } from '../../formats/jsonc.js';
import { chartTree, propertyValue } from './tree.js';

export type ChartSymbolKind = 'state' | 'action' | 'context';

export interface ChartOccurrence {
  readonly kind: ChartSymbolKind;
  /** A state's id (its dotted path), an action's name, a context key. */
  readonly name: string;
  readonly role: 'definition' | 'reference';
  /** The name as written (for a step of a dotted target: that step only). */
  readonly loc: SourceLoc;
  /** A state reference: the node it is resolved from ('' is the chart) and the whole target. */
  readonly from?: string;
  readonly ref?: NameRef;
  /** A state reference: a compound's (or the chart's) `initial`, or a transition/history/interrupt target. */
  readonly slot?: 'initial' | 'target';
}

export interface ChartModel {
  readonly wf: Workflow;
  readonly index: ChartIndex;
  readonly sites: readonly TargetSite[];
  readonly all: readonly ChartOccurrence[];
}

const models = new WeakMap<Workflow, ChartModel>();

/** The chart's names, computed once per loaded chart (every provider asks about the same one). */
export function chartModel(wf: Workflow, text: string, json: boolean): ChartModel {
  let m = models.get(wf);
  if (!m) {
    const index = indexChart(wf);
    const sites = targetSites(index);
    m = { wf, index, sites, all: collect(wf, index, sites, text, json) };
    models.set(wf, m);
  }
  return m;
}

function collect(wf: Workflow, index: ChartIndex, sites: readonly TargetSite[], text: string, json: boolean): ChartOccurrence[] {
  const out: ChartOccurrence[] = [];
  for (const s of wf.states.values()) out.push({ kind: 'state', name: s.id, role: 'definition', loc: s.keyLoc });
  // `initial` names a child of its node.
  const initial = (ref: NameRef | undefined, parent: string): void => {
    if (!ref || ref.name === '') return;
    const id = parent === '' ? ref.name : `${parent}.${ref.name}`;
    if (wf.states.get(id)?.parent === (parent === '' ? undefined : parent)) out.push({ kind: 'state', name: id, role: 'reference', loc: ref.loc, from: parent, ref, slot: 'initial' });
  };
  initial(wf.initial, '');
  for (const s of wf.states.values()) initial(s.initial, s.id);
  for (const site of sites) out.push(...targetSteps(wf, text, site));
  for (const a of wf.chart?.actions.values() ?? []) out.push({ kind: 'action', name: a.name, role: 'definition', loc: a.nameLoc });
  for (const r of index.refs) if (r.kind === 'named' && r.name.name !== '') out.push({ kind: 'action', name: r.name.name, role: 'reference', loc: r.name.loc });
  out.push(...contextOccurrences(wf, index, text, json));
  return out;
}

/**
 * One reference per step of a target (`review.tests.running` names three
 * states), each resolved as the prefix up to it. A target written with
 * escapes or folded (its range is not as long as its name) is one reference
 * to the state it resolves to.
 */
function targetSteps(wf: Workflow, text: string, site: TargetSite): ChartOccurrence[] {
  const { ref, source } = site;
  const name = ref.name;
  if (name === '') return [];
  const base = { kind: 'state' as const, role: 'reference' as const, from: source, ref, slot: 'target' as const };
  if (ref.loc.end - ref.loc.start !== name.length || text.slice(ref.loc.start, ref.loc.end) !== name) {
    const id = resolveTarget(wf, source, ref);
    return id === undefined ? [] : [{ ...base, name: id, loc: ref.loc }];
  }
  const out: ChartOccurrence[] = [];
  let at = 0;
  for (;;) {
    const dot = name.indexOf('.', at + 1);
    const end = dot === -1 ? name.length : dot;
    const stepStart = name[at] === '.' || name[at] === '#' ? at + 1 : at;
    const id = stepStart < end ? resolveTarget(wf, source, name.slice(0, end)) : undefined;
    if (id !== undefined) out.push({ ...base, name: id, loc: { pointer: ref.loc.pointer, start: ref.loc.start + stepStart, end: ref.loc.start + end } });
    if (dot === -1) return out;
    at = dot;
  }
}

/** Context keys: the declarations under `context`, the keys `assign` writes, `context.key` in expressions. */
function contextOccurrences(wf: Workflow, index: ChartIndex, text: string, json: boolean): ChartOccurrence[] {
  const out: ChartOccurrence[] = [];
  const context = propertyValue(propertyValue(chartTree(text, json), 'statechart'), 'context');
  for (const p of context?.type === 'object' ? (context.children ?? []) : []) {
    const key = p.children?.[0];
    if (key && typeof key.value === 'string') out.push({ kind: 'context', name: key.value, role: 'definition', loc: nodeLoc(key, '/statechart/context') });
  }
  for (const a of index.actions) {
    if (a.type === 'assign') for (const u of a.updates) out.push({ kind: 'context', name: u.key, role: 'reference', loc: u.keyLoc });
  }
  for (const site of expressions(index)) {
    const { loc, text: expr } = site.expr;
    // Exact offsets only when the string is written as its text (no escapes, no folding).
    if (loc.end - loc.start !== expr.length) continue;
    const parsed = parseExpression(expr);
    if (!parsed.ok) continue;
    for (const r of expressionReferences(parsed.expr)) {
      const key = r.path[0];
      if (r.kind !== 'context' || key === undefined || expr.slice(r.offset, r.offset + 8 + key.length) !== `context.${key}`) continue;
      const start = loc.start + r.offset + 8;
      out.push({ kind: 'context', name: key, role: 'reference', loc: { pointer: loc.pointer, start, end: start + key.length } });
    }
  }
  return out;
}

/** The innermost occurrence whose name contains `offset` (its ends included). */
export function chartOccurrenceAt(m: ChartModel, offset: number): ChartOccurrence | undefined {
  let best: ChartOccurrence | undefined;
  for (const o of m.all) {
    if (offset < o.loc.start || offset > o.loc.end) continue;
    if (!best || o.loc.end - o.loc.start < best.loc.end - best.loc.start) best = o;
  }
  return best;
}

export function sameChartSymbol(m: ChartModel, sym: Pick<ChartOccurrence, 'kind' | 'name'>): ChartOccurrence[] {
  return m.all.filter((o) => o.kind === sym.kind && o.name === sym.name);
}
