/**
 * Statechart IRs built by hand from a compact spec shaped like the YAML
 * (`states`, `regions`, `on`, `always`, `after`, `onDone`, history `variant` /
 * `target`, `meta`), for tests that need nesting without going through the
 * loader. Locations are all empty; nothing is validated.
 */
import type { ChartMeta, ChartNode, ChartTransition, ChartTrigger, SourceLoc, StateKind, StateNode, Workflow } from '../../../src/engine/model/index.js';

const loc: SourceLoc = { pointer: '', start: 0, end: 0 };

export type TransitionSpec = string | { readonly target?: string | readonly string[]; readonly guard?: string };

export interface NodeSpec {
  readonly type?: StateKind;
  readonly initial?: string;
  readonly states?: Readonly<Record<string, NodeSpec>>;
  /** A parallel state's regions, by region id. */
  readonly regions?: Readonly<Record<string, NodeSpec>>;
  readonly on?: Readonly<Record<string, TransitionSpec | readonly TransitionSpec[]>>;
  readonly always?: TransitionSpec | readonly TransitionSpec[];
  readonly after?: Readonly<Record<string, TransitionSpec>>;
  readonly onDone?: TransitionSpec;
  /** An invocation with its onDone / onError; `id` as written (absent: the loader's own, `<state>:invoke:0`). */
  readonly invoke?: { readonly id?: string; readonly src: string; readonly onDone?: TransitionSpec; readonly onError?: TransitionSpec };
  readonly variant?: 'shallow' | 'deep';
  readonly target?: string;
  readonly meta?: ChartMeta;
}

export interface ChartSpec {
  readonly id: string;
  readonly initial: string;
  readonly states: Readonly<Record<string, NodeSpec>>;
  readonly on?: NodeSpec['on'];
  readonly meta?: ChartMeta;
}

function invokeId(spec: NodeSpec, id: string): string {
  return spec.invoke?.id ?? `${id}:invoke:0`;
}

function transitions(spec: NodeSpec, id: string): ChartTransition[] {
  const out: ChartTransition[] = [];
  const add = (trigger: ChartTrigger, t: TransitionSpec | readonly TransitionSpec[]): void => {
    for (const one of Array.isArray(t) ? (t as readonly TransitionSpec[]) : [t as TransitionSpec]) {
      const target = typeof one === 'string' ? one : one.target;
      const targets = target === undefined ? [] : (Array.isArray(target) ? (target as readonly string[]) : [target as string]).map((name) => ({ name, loc }));
      const guard = typeof one === 'string' || one.guard === undefined ? {} : { guard: { text: one.guard, loc } };
      out.push({ trigger, targets, ...guard, actions: [], reenter: false, loc });
    }
  };
  for (const [event, t] of Object.entries(spec.on ?? {})) add({ kind: 'event', event }, t);
  if (spec.always) add({ kind: 'always' }, spec.always);
  for (const [delay, t] of Object.entries(spec.after ?? {})) add({ kind: 'after', delay: /^\d+$/.test(delay) ? Number(delay) : { text: delay, loc } }, t);
  if (spec.onDone) add({ kind: 'done' }, spec.onDone);
  if (spec.invoke?.onDone) add({ kind: 'invoke-done', invokeId: invokeId(spec, id) }, spec.invoke.onDone);
  if (spec.invoke?.onError) add({ kind: 'invoke-error', invokeId: invokeId(spec, id) }, spec.invoke.onError);
  return out;
}

function chartPart(spec: NodeSpec, id: string, region: boolean): ChartNode {
  const invoke = spec.invoke ? [{ id: invokeId(spec, id), ...(spec.invoke.id ? { idLoc: loc } : {}), src: { name: spec.invoke.src, loc }, loc }] : [];
  return {
    transitions: transitions(spec, id),
    entry: [],
    exit: [],
    invoke,
    ...(spec.type === 'history' ? { history: spec.variant ?? 'shallow' } : {}),
    ...(spec.target ? { historyDefault: { name: spec.target, loc } } : {}),
    ...(region ? { region: true } : {}),
    ...(spec.meta ? { meta: spec.meta } : {}),
  };
}

export function chartWorkflow(spec: ChartSpec): Workflow {
  const states = new Map<string, StateNode>();
  const add = (key: string, node: NodeSpec, parent: string | undefined, region: boolean): string => {
    const id = parent === undefined ? key : `${parent}.${key}`;
    const kind: StateKind = region ? 'compound' : (node.type ?? (node.regions ? 'parallel' : node.states ? 'compound' : 'atomic'));
    const state: StateNode = {
      key,
      id,
      kind,
      ...(parent !== undefined ? { parent } : {}),
      children: [],
      ...(node.initial ? { initial: { name: node.initial, loc } } : {}),
      rules: { disallowedTools: [], blockedEnv: [], envOverrides: {} },
      on: [],
      keyLoc: loc,
      loc,
      chart: chartPart(node, id, region),
    };
    states.set(id, state);
    const children = [
      ...Object.entries(node.states ?? {}).map(([k, n]) => add(k, n, id, false)),
      ...Object.entries(node.regions ?? {}).map(([k, n]) => add(k, n, id, true)),
    ];
    states.set(id, { ...state, children });
    return id;
  };
  const topLevel = Object.entries(spec.states).map(([k, n]) => add(k, n, undefined, false));
  return {
    format: 'statechart',
    id: spec.id,
    initial: { name: spec.initial, loc },
    context: {},
    meta: { approvalMode: 'ask', captureOutput: false, debug: false, raw: {} },
    states,
    topLevel,
    guards: new Map(),
    interrupts: [],
    loc,
    chart: {
      root: { transitions: transitions({ on: spec.on ?? {} }, ''), entry: [], exit: [], invoke: [], ...(spec.meta ? { meta: spec.meta } : {}) },
      actions: new Map(),
      machineRegistry: [],
    },
  };
}
