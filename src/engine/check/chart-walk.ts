/**
 * What the statechart rules walk: every node's chart part with its id (the
 * root is ''), every transition with its source, every action (inline ones
 * where they are written, named ones where they are defined) and every
 * expression. Built once per validation so each rule is a plain loop.
 */
import type { ActionDef, ActionRef, ChartNode, ChartTransition, ExprSource, InvokeDef, NameRef, StateNode, Workflow } from '../model/index.js';
import { readsBinding } from '../expr/index.js';

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

// The index's many small objects are made by constructors, not literals, so V8 does not pretenure them
// (formats/tree-node.ts explains): they live through one validation and die with it.
class Site implements ChartSite {
  declare readonly id: string;
  declare readonly node: ChartNode;
  declare readonly state?: StateNode;
  constructor(id: string, node: ChartNode, state: StateNode | undefined) {
    this.id = id;
    this.node = node;
    if (state) this.state = state;
  }
}

class Sourced implements SourcedTransition {
  constructor(
    readonly source: string,
    readonly t: ChartTransition,
  ) {}
}

class Expression implements ExprSite {
  constructor(
    readonly expr: ExprSource,
    readonly what: ExprSite['what'],
  ) {}
}

export function indexChart(wf: Workflow): ChartIndex {
  const sites = new Array<ChartSite>();
  sites.push(new Site('', wf.chart?.root ?? EMPTY_NODE, undefined));
  for (const state of wf.states.values()) if (state.chart) sites.push(new Site(state.id, state.chart, state));
  const transitions = new Array<SourcedTransition>();
  const refs = new Array<ActionRef>();
  const invokes = new Array<InvokeDef>();
  for (const site of sites) {
    const { node } = site;
    for (const r of node.entry) refs.push(r);
    for (const t of node.transitions) {
      transitions.push(new Sourced(site.id, t));
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
  readonly what: 'guard' | 'delay' | 'assign' | 'data';
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
  const out = new Array<ExprSite>();
  for (const { t } of index.transitions) {
    if (t.guard) out.push(new Expression(t.guard, 'guard'));
    if (t.trigger.kind === 'after' && typeof t.trigger.delay !== 'number') out.push(new Expression(t.trigger.delay, 'delay'));
  }
  for (const a of index.actions) {
    if (a.type === 'assign') for (const u of a.updates) out.push(new Expression(u.expr, 'assign'));
    // A string of `data` is an expression when it reads a binding (as the interpreter decides), else text.
    else if (a.type !== 'invoke' && a.dataStrings) for (const x of a.dataStrings) if (readsBinding(x.text)) out.push(new Expression(x, 'data'));
  }
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
