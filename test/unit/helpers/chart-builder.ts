// Builds statechart IR (model.ts) from a plain JS chart object, for the
// interpreter's tests, without the YAML/JSON loader. The plain form is close
// to XState's config (so the differential test can translate one chart to
// both): `states` in document order, `type: 'parallel'` whose `states` are
// its regions, `history: 'shallow' | 'deep'` with an optional `target`,
// `on` / `always` / `after` / `onDone` / `invoke`, entry / exit / transition
// actions as names (of `actions`) or inline objects. Ids are dotted paths;
// targets are kept as written (the interpreter resolves them).
import type {
  ActionDef,
  ActionRef,
  ChartNode,
  ChartTransition,
  ChartTrigger,
  InvokeDef,
  JsonObject,
  NamedAction,
  SourceLoc,
  StateKind,
  StateNode,
  Workflow,
} from '../../../src/engine/model/index.js';

export type PlainAction =
  | string
  | { type: 'assign'; assign: Record<string, string> }
  | { type: 'raise'; event: string; data?: JsonObject }
  | { type: 'emit'; event: string; data?: JsonObject }
  | { type: 'send'; to: string; event: string; data?: JsonObject }
  | { type: 'log'; message?: string; data?: JsonObject }
  | { type: 'invoke'; handler: string; params?: JsonObject };

export interface PlainTransition {
  target?: string | string[];
  guard?: string;
  actions?: PlainAction[];
  reenter?: boolean;
}

export type PlainTransitions = string | PlainTransition | PlainTransition[];

export interface PlainInvoke {
  id: string;
  src: string;
  input?: JsonObject;
  onDone?: PlainTransitions;
  onError?: PlainTransitions;
}

export interface PlainState {
  type?: StateKind;
  initial?: string;
  states?: Record<string, PlainState>;
  history?: 'shallow' | 'deep';
  /** A history node's default target. */
  target?: string;
  on?: Record<string, PlainTransitions>;
  always?: PlainTransitions;
  /** Keys: milliseconds, or an expression giving milliseconds. */
  after?: Record<string, PlainTransitions>;
  onDone?: PlainTransitions;
  entry?: PlainAction[];
  exit?: PlainAction[];
  invoke?: PlainInvoke[];
}

export interface PlainChart extends Omit<PlainState, 'type' | 'history' | 'target'> {
  id?: string;
  context?: JsonObject;
  actions?: Record<string, PlainAction>;
  states: Record<string, PlainState>;
}

const LOC: SourceLoc = { pointer: '', start: 0, end: 0 };

export function buildChart(chart: PlainChart): Workflow {
  const states = new Map<string, StateNode>();
  const topLevel = addStates(states, chart.states, undefined, false);
  const actions = new Map<string, NamedAction>();
  for (const [name, action] of Object.entries(chart.actions ?? {})) {
    const ref = toActionRef(action);
    if (ref.kind === 'named') throw new Error(`named action ${name} must be inline`);
    actions.set(name, { name, nameLoc: LOC, action: ref.action });
  }
  const firstKey = Object.keys(chart.states)[0] ?? '';
  return {
    format: 'statechart',
    id: chart.id ?? 'chart',
    initial: { name: chart.initial ?? firstKey, loc: LOC },
    context: chart.context ?? {},
    meta: { approvalMode: 'ask', captureOutput: false, debug: false, raw: {} },
    states,
    topLevel,
    guards: new Map(),
    interrupts: [],
    loc: LOC,
    chart: { root: chartNode(chart, undefined), actions, machineRegistry: [] },
  };
}

function addStates(out: Map<string, StateNode>, plain: Record<string, PlainState>, parent: string | undefined, regions: boolean): string[] {
  const ids: string[] = [];
  for (const [key, state] of Object.entries(plain)) {
    const id = parent === undefined ? key : `${parent}.${key}`;
    ids.push(id);
    const kind: StateKind = state.type ?? (state.history ? 'history' : state.states && Object.keys(state.states).length ? 'compound' : 'atomic');
    const node: StateNode = {
      key,
      id,
      kind,
      ...(parent === undefined ? {} : { parent }),
      children: [],
      ...(kind === 'compound' ? { initial: { name: state.initial ?? Object.keys(state.states ?? {})[0] ?? '', loc: LOC } } : {}),
      rules: { disallowedTools: [], blockedEnv: [], envOverrides: {} },
      on: [],
      keyLoc: LOC,
      loc: LOC,
      chart: chartNode(state, regions),
    };
    out.set(id, node);
    const children = addStates(out, state.states ?? {}, id, kind === 'parallel');
    (node as { children: readonly string[] }).children = children;
  }
  return ids;
}

function chartNode(state: PlainState, region: boolean | undefined): ChartNode {
  const transitions: ChartTransition[] = [];
  const add = (trigger: ChartTrigger, plain: PlainTransitions | undefined): void => {
    if (plain === undefined) return;
    const list = typeof plain === 'string' ? [{ target: plain }] : Array.isArray(plain) ? plain : [plain];
    for (const t of list) {
      const targets = t.target === undefined ? [] : Array.isArray(t.target) ? t.target : [t.target];
      transitions.push({
        trigger,
        targets: targets.map((name) => ({ name, loc: LOC })),
        ...(t.guard ? { guard: { text: t.guard, loc: LOC } } : {}),
        actions: (t.actions ?? []).map(toActionRef),
        reenter: t.reenter ?? false,
        loc: LOC,
      });
    }
  };
  for (const [event, plain] of Object.entries(state.on ?? {})) add({ kind: 'event', event }, plain);
  add({ kind: 'always' }, state.always);
  for (const [delay, plain] of Object.entries(state.after ?? {})) {
    add({ kind: 'after', delay: /^\d+(\.\d+)?$/.test(delay) ? Number(delay) : { text: delay, loc: LOC } }, plain);
  }
  add({ kind: 'done' }, state.onDone);
  const invoke: InvokeDef[] = [];
  for (const inv of state.invoke ?? []) {
    invoke.push({ id: inv.id, src: { name: inv.src, loc: LOC }, ...(inv.input ? { input: inv.input } : {}), loc: LOC });
    add({ kind: 'invoke-done', invokeId: inv.id }, inv.onDone);
    add({ kind: 'invoke-error', invokeId: inv.id }, inv.onError);
  }
  return {
    transitions,
    entry: (state.entry ?? []).map(toActionRef),
    exit: (state.exit ?? []).map(toActionRef),
    invoke,
    ...(state.history ? { history: state.history } : state.type === 'history' ? { history: 'shallow' as const } : {}),
    ...(state.target !== undefined && (state.history || state.type === 'history') ? { historyDefault: { name: state.target, loc: LOC } } : {}),
    ...(region ? { region: true } : {}),
  };
}

function toActionRef(action: PlainAction): ActionRef {
  if (typeof action === 'string') return { kind: 'named', name: { name: action, loc: LOC } };
  let def: ActionDef;
  switch (action.type) {
    case 'assign':
      def = {
        type: 'assign',
        updates: Object.entries(action.assign).map(([key, text]) => ({ key, keyLoc: LOC, expr: { text, loc: LOC } })),
        loc: LOC,
      };
      break;
    default:
      def = { ...action, loc: LOC } as ActionDef;
  }
  return { kind: 'inline', action: def };
}
