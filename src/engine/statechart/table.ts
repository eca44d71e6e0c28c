/**
 * The interpreter's view of a statechart: every node numbered in document
 * order (pre-order, the root first), with its transitions resolved and
 * grouped by what triggers them. Built once per workflow IR (WeakMap by the
 * IR object), so a step never resolves a name or walks the IR's maps.
 *
 * Numbering in pre-order makes "is a descendant of" a range check: the
 * descendants of node `n` are exactly the nodes `n+1 .. end-1`.
 */
import type { ActionDef, ActionRef, ChartTransition, ExprSource, HistoryVariant, InvokeDef, StateKind, Workflow } from '../model/index.js';
import { NodeBuffers } from './buffers.js';
import { ROOT_ID, resolveTarget } from './targets.js';

/** An action ready to run: the definition, or the name of a named action the chart does not define. */
export type ActionStep = ActionDef | { readonly type: 'missing'; readonly name: string };

export interface TransitionRow {
  /** Numbers the chart's transitions (0..), where plans.ts keeps what it computed for each; -1 for the interpreter's own. */
  readonly serial: number;
  readonly source: number;
  /** Position in the source's `chart.transitions` (-1 for the interpreter's own initial transition). */
  readonly index: number;
  /** Resolved target nodes, in the order written (history nodes included as such). */
  readonly targets: readonly number[];
  /** Their ids, for the journal (frozen: every effect of this transition shares it). */
  readonly targetIds: readonly string[];
  readonly reenter: boolean;
  readonly guard?: ExprSource;
  readonly actions: readonly ActionStep[];
  /** Why the transition cannot be taken (a target that resolves to no state), if so. */
  readonly broken?: string;
  /** The trigger as written, for the journal: the event name, `always`, `after 500`, `done`, ... */
  readonly label: string;
}

/** The `after` transitions of one node with the same delay: one timer, its candidates tried in order. */
export interface AfterGroup {
  /** The delay as XState keys it: the number as a string, or the expression's text. */
  readonly key: string;
  readonly delay: number | ExprSource;
  readonly transitions: readonly TransitionRow[];
}

export interface WildcardRow {
  /** `*` or a prefix form `a.*` (XState's partial wildcard). */
  readonly descriptor: string;
  readonly transitions: readonly TransitionRow[];
}

export interface NodeRow {
  readonly index: number;
  /** The IR id (dotted path); `''` for the root. */
  readonly id: string;
  /** XState's id of the same node (`<chart id>.<path>`), used in internal event names. */
  readonly xid: string;
  readonly key: string;
  /** The root is a compound node. */
  readonly kind: StateKind;
  readonly parent: number;
  /** One past the last descendant (pre-order). */
  readonly end: number;
  readonly depth: number;
  /** Child nodes in document order, history nodes excluded (a parallel node's regions). */
  readonly states: readonly number[];
  /** History children in document order. */
  readonly histories: readonly number[];
  /** The initial child of a compound node, or -1. */
  readonly initial: number;
  readonly history?: HistoryVariant;
  /** A history node's default targets (resolved `historyDefault`), or undefined when it has none. */
  readonly historyDefault?: readonly number[];
  readonly entry: readonly ActionStep[];
  readonly exit: readonly ActionStep[];
  readonly invoke: readonly InvokeDef[];
  readonly exact: ReadonlyMap<string, readonly TransitionRow[]>;
  /** Wildcard descriptors, longest first (XState's order). */
  readonly wildcards: readonly WildcardRow[];
  readonly always: readonly TransitionRow[];
  /** Whether this node or an ancestor has `always` transitions (else eventless selection can skip it). */
  readonly alwaysAbove: boolean;
  /** In XState's order: integer delays ascending, then the others as written (JS object key order). */
  readonly after: readonly AfterGroup[];
  readonly done: readonly TransitionRow[];
  readonly invokeDone: ReadonlyMap<string, readonly TransitionRow[]>;
  readonly invokeError: ReadonlyMap<string, readonly TransitionRow[]>;
}

export interface ChartTable {
  readonly workflow: Workflow;
  readonly nodes: readonly NodeRow[];
  readonly byId: ReadonlyMap<string, number>;
  /** Whether any node has `always` transitions (else no eventless selection is needed). */
  readonly hasAlways: boolean;
  /**
   * plans.ts's memo, by transition serial (null: the transition's sets
   * depend on history). Filled on first use; the only part of the table
   * that changes after it is built.
   */
  readonly plans: (TransitionPlan | null | undefined)[];
  /** Per-node arrays reused across operations (buffers.ts). */
  readonly buffers: NodeBuffers;
}

/**
 * What a transition's sets are when they do not depend on the run's history
 * (no history node among its targets or met on the way down): the same in
 * every configuration, so plans.ts computes them once.
 */
export interface TransitionPlan {
  /** Its domain (domain.ts `transitionDomain`); the exit set is the domain's active descendants. */
  readonly domain: number;
  /** Its entry set in document order (entry.ts `addEntrySet` with nothing else entering). */
  readonly entry: readonly number[];
  /**
   * Whether computing the entry set may complete a parallel state's regions,
   * which looks at what the microstep's earlier transitions enter: then the
   * plan's entry set holds only for the microstep's first transition.
   */
  readonly fillsRegions: boolean;
}

/**
 * What the domain and entry-set computations read: the numbered nodes and
 * the history records. A RunState is one; plans.ts passes one with no
 * records, to find the transitions whose sets never depend on history.
 */
export interface ChartView {
  readonly nodes: readonly NodeRow[];
  node(index: number): NodeRow;
  readonly history: { get(history: number): readonly number[] | undefined };
}

export const ROOT = 0;

const tables = new WeakMap<Workflow, ChartTable>();

/** The last workflow asked for and its table: a run's operations ask for the same one again and again. */
let lastWorkflow: Workflow | undefined;
let lastTable: ChartTable | undefined;

/** The table of `workflow`, built on first use. */
export function chartTable(workflow: Workflow): ChartTable {
  if (workflow === lastWorkflow) return lastTable as ChartTable;
  let table = tables.get(workflow);
  if (!table) {
    table = buildTable(workflow);
    tables.set(workflow, table);
  }
  lastWorkflow = workflow;
  lastTable = table;
  return table;
}

/** Whether `node` is a strict descendant of `ancestor` (every node is one of `-1`, "outside the root"). */
export function isDescendant(nodes: readonly NodeRow[], node: number, ancestor: number): boolean {
  if (ancestor < 0) return true;
  return node > ancestor && node < (nodes[ancestor] as NodeRow).end;
}

export function isAtomicKind(kind: StateKind): boolean {
  return kind === 'atomic' || kind === 'final';
}

interface Draft {
  id: string;
  key: string;
  kind: StateKind;
  parent: number;
  depth: number;
  childIds: readonly string[];
  end: number;
}

function buildTable(workflow: Workflow): ChartTable {
  const drafts: Draft[] = [];
  const byId = new Map<string, number>();
  const visit = (id: string, key: string, kind: StateKind, parent: number, depth: number, childIds: readonly string[]): void => {
    const index = drafts.length;
    const draft: Draft = { id, key, kind, parent, depth, childIds, end: 0 };
    drafts.push(draft);
    byId.set(id, index);
    for (const child of childIds) {
      const node = workflow.states.get(child);
      if (node) visit(child, node.key, node.kind, index, depth + 1, node.children);
    }
    draft.end = drafts.length;
  };
  visit(ROOT_ID, workflow.id, 'compound', -1, 0, workflow.topLevel);

  const named = workflow.chart?.actions;
  const toStep = (ref: ActionRef): ActionStep => {
    if (ref.kind === 'inline') return ref.action;
    return named?.get(ref.name.name)?.action ?? { type: 'missing', name: ref.name.name };
  };
  const resolveAll = (sourceId: string, names: readonly string[]): { targets: number[]; broken?: string } => {
    const targets: number[] = [];
    for (const name of names) {
      const id = resolveTarget(workflow, sourceId, name);
      const index = id === undefined ? undefined : byId.get(id);
      if (index === undefined) return { targets, broken: `target "${name}" of state "${sourceId || '(root)'}" names no state` };
      targets.push(index);
    }
    return { targets };
  };

  let serial = 0;
  const nodes: NodeRow[] = drafts.map((d, index) => {
    const chart = index === ROOT ? workflow.chart?.root : workflow.states.get(d.id)?.chart;
    const xid = index === ROOT ? workflow.id : `${workflow.id}.${d.id}`;
    const states: number[] = [];
    const histories: number[] = [];
    for (const child of d.childIds) {
      const c = byId.get(child);
      if (c === undefined) continue;
      ((drafts[c] as Draft).kind === 'history' ? histories : states).push(c);
    }
    let initial = -1;
    if (d.kind === 'compound') {
      const name = index === ROOT ? workflow.initial.name : workflow.states.get(d.id)?.initial?.name;
      const found = name === undefined ? undefined : byId.get(index === ROOT ? name : `${d.id}.${name}`);
      initial = found !== undefined && (drafts[found] as Draft).parent === index ? found : (states[0] ?? -1);
    }

    const exact = new Map<string, TransitionRow[]>();
    const wild = new Map<string, TransitionRow[]>();
    const always: TransitionRow[] = [];
    const afterByKey: Record<string, { delay: number | ExprSource; transitions: TransitionRow[] }> = {};
    const done: TransitionRow[] = [];
    const invokeDone = new Map<string, TransitionRow[]>();
    const invokeError = new Map<string, TransitionRow[]>();
    const push = <K>(map: Map<K, TransitionRow[]>, key: K, row: TransitionRow): void => {
      const list = map.get(key);
      if (list) list.push(row);
      else map.set(key, [row]);
    };
    (chart?.transitions ?? []).forEach((t: ChartTransition, i: number) => {
      const { targets, broken } = resolveAll(d.id, t.targets.map((r) => r.name));
      const row: TransitionRow = {
        serial: serial++,
        source: index,
        index: i,
        targets,
        targetIds: Object.freeze(targets.map((s) => (drafts[s] as Draft).id)),
        reenter: t.reenter,
        ...(t.guard ? { guard: t.guard } : {}),
        actions: t.actions.map(toStep),
        ...(broken ? { broken } : {}),
        label: triggerLabel(t),
      };
      const trigger = t.trigger;
      switch (trigger.kind) {
        case 'event':
          push(isWildcard(trigger.event) ? wild : exact, trigger.event, row);
          break;
        case 'always':
          always.push(row);
          break;
        case 'after': {
          const key = typeof trigger.delay === 'number' ? String(trigger.delay) : trigger.delay.text;
          // A plain object keeps XState's key order (integer keys ascending first), which orders same-time timers.
          const group = Object.prototype.hasOwnProperty.call(afterByKey, key) ? afterByKey[key] : undefined;
          if (group) group.transitions.push(row);
          else Object.defineProperty(afterByKey, key, { value: { delay: trigger.delay, transitions: [row] }, enumerable: true });
          break;
        }
        case 'done':
          done.push(row);
          break;
        case 'invoke-done':
          push(invokeDone, trigger.invokeId, row);
          break;
        case 'invoke-error':
          push(invokeError, trigger.invokeId, row);
          break;
      }
    });
    const wildcards = [...wild].map(([descriptor, transitions]) => ({ descriptor, transitions }));
    wildcards.sort((a, b) => b.descriptor.length - a.descriptor.length);

    let historyDefault: number[] | undefined;
    if (d.kind === 'history') {
      const ref = workflow.states.get(d.id)?.chart?.historyDefault;
      if (ref) historyDefault = resolveAll(d.id, [ref.name]).targets;
    }
    return {
      index,
      id: d.id,
      xid,
      key: d.key,
      kind: d.kind,
      parent: d.parent,
      end: d.end,
      depth: d.depth,
      states,
      histories,
      initial,
      ...(chart?.history ? { history: chart.history } : d.kind === 'history' ? { history: 'shallow' as const } : {}),
      ...(historyDefault && historyDefault.length ? { historyDefault } : {}),
      entry: (chart?.entry ?? []).map(toStep),
      exit: (chart?.exit ?? []).map(toStep),
      invoke: chart?.invoke ?? [],
      exact,
      wildcards,
      always,
      alwaysAbove: always.length > 0,
      after: Object.keys(afterByKey).map((key) => ({ key, ...(afterByKey[key] as { delay: number | ExprSource; transitions: TransitionRow[] }) })),
      done,
      invokeDone,
      invokeError,
    };
  });
  // Parents come before children (pre-order), so one pass settles alwaysAbove.
  for (const node of nodes) {
    if (node.parent >= 0 && (nodes[node.parent] as NodeRow).alwaysAbove) (node as { alwaysAbove: boolean }).alwaysAbove = true;
  }
  return {
    workflow,
    nodes,
    byId,
    hasAlways: nodes.some((node) => node.always.length > 0),
    plans: new Array<TransitionPlan | null | undefined>(serial).fill(undefined),
    buffers: new NodeBuffers(nodes.length),
  };
}

function isWildcard(event: string): boolean {
  return event === '*' || event.endsWith('.*');
}

function triggerLabel(t: ChartTransition): string {
  const trigger = t.trigger;
  switch (trigger.kind) {
    case 'event':
      return trigger.event;
    case 'always':
      return 'always';
    case 'after':
      return `after ${typeof trigger.delay === 'number' ? trigger.delay : trigger.delay.text}`;
    case 'done':
      return 'done';
    case 'invoke-done':
      return `${trigger.invokeId} done`;
    case 'invoke-error':
      return `${trigger.invokeId} error`;
  }
}

/** Whether an event name matches a wildcard descriptor (`*`, or `a.b.*`: XState's token rule). */
export function matchesWildcard(eventType: string, descriptor: string): boolean {
  if (descriptor === '*') return true;
  const partial = descriptor.split('.');
  const tokens = eventType.split('.');
  for (let i = 0; i < partial.length; i++) {
    const token = partial[i];
    if (token === '*') return i === partial.length - 1;
    if (token !== tokens[i]) return false;
  }
  return true;
}
