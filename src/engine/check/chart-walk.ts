/**
 * What the statechart rules walk: every node's chart part with its id (the
 * root is ''), every transition with its source, every action (inline ones
 * where they are written, named ones where they are defined) and every
 * expression. Built once per validation so each rule is a plain loop.
 */
import type { ActionDef, ActionRef, ChartNode, ChartTransition, ExprSource, InvokeDef, NameRef, StateNode, Workflow } from '../model/index.js';

export interface ChartSite {
  /** '' for the chart root. */
  readonly id: string;
  readonly node: ChartNode;
  readonly state?: StateNode;
}

export interface SourcedTransition {
  readonly source: string;
  readonly t: ChartTransition;
}

export interface ChartIndex {
  readonly wf: Workflow;
  /** The root first, then the states in document order. */
  readonly sites: readonly ChartSite[];
  readonly transitions: readonly SourcedTransition[];
  /** Every action reference (entry, exit, transition actions), in document order. */
  readonly refs: readonly ActionRef[];
  /** Every action definition: the chart's named ones, then the inline ones. */
  readonly actions: readonly ActionDef[];
  readonly invokes: readonly InvokeDef[];
}

const EMPTY_NODE: ChartNode = { transitions: [], entry: [], exit: [], invoke: [] };

export function indexChart(wf: Workflow): ChartIndex {
  const sites: ChartSite[] = [{ id: '', node: wf.chart?.root ?? EMPTY_NODE }];
  for (const state of wf.states.values()) if (state.chart) sites.push({ id: state.id, node: state.chart, state });
  const transitions: SourcedTransition[] = [];
  const refs: ActionRef[] = [];
  const invokes: InvokeDef[] = [];
  for (const site of sites) {
    const { node } = site;
    for (const r of node.entry) refs.push(r);
    for (const t of node.transitions) {
      transitions.push({ source: site.id, t });
      for (const r of t.actions) refs.push(r);
    }
    for (const r of node.exit) refs.push(r);
    for (const i of node.invoke) invokes.push(i);
  }
  const actions: ActionDef[] = [...(wf.chart?.actions.values() ?? [])].map((a) => a.action);
  for (const r of refs) if (r.kind === 'inline') actions.push(r.action);
  return { wf, sites, transitions, refs, actions, invokes };
}

/** An expression and what it is, for messages. */
export interface ExprSite {
  readonly expr: ExprSource;
  readonly what: 'guard' | 'delay' | 'assign';
}

/** Made once per index: two rules (6 and 10) walk the expressions of one validation. */
const expressionLists = new WeakMap<ChartIndex, readonly ExprSite[]>();

/** Every expression the chart writes as one: guards, named delays, assign updates. */
export function expressions(index: ChartIndex): readonly ExprSite[] {
  let list = expressionLists.get(index);
  if (!list) expressionLists.set(index, (list = collectExpressions(index)));
  return list;
}

function collectExpressions(index: ChartIndex): ExprSite[] {
  const out: ExprSite[] = [];
  for (const { t } of index.transitions) {
    if (t.guard) out.push({ expr: t.guard, what: 'guard' });
    if (t.trigger.kind === 'after' && typeof t.trigger.delay !== 'number') out.push({ expr: t.trigger.delay, what: 'delay' });
  }
  for (const a of index.actions) if (a.type === 'assign') for (const u of a.updates) out.push({ expr: u.expr, what: 'assign' });
  return out;
}

/** The node's id and every ancestor's, innermost first, ending with the root ''. */
export function ancestorsOrSelf(wf: Workflow, id: string): string[] {
  const out: string[] = [];
  for (let at: string | undefined = id; at !== undefined && at !== ''; at = wf.states.get(at)?.parent) out.push(at);
  out.push('');
  return out;
}

/** Whether `id` is `ancestor` or inside it ('' contains everything). */
export function isWithin(id: string, ancestor: string): boolean {
  return ancestor === '' || id === ancestor || id.startsWith(`${ancestor}.`);
}

/** The child of `parent` with key `name` (a compound's `initial`), when there is one. */
export function childNamed(wf: Workflow, parent: StateNode | undefined, name: NameRef | undefined): StateNode | undefined {
  if (!name) return undefined;
  const id = parent ? `${parent.id}.${name.name}` : name.name;
  const child = wf.states.get(id);
  return child && child.parent === parent?.id ? child : undefined;
}
