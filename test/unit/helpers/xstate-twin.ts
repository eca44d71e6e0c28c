// Runs a plain test chart (chart-builder.ts) on XState v5 as well, so a
// hand-written statechart test can check that XState agrees with the
// expected values it asserts. Guards, assigns and expression delays are
// evaluated by our expression language (the differential test uses native JS
// instead; here the charts are written once, as text). Targets are resolved
// by our rule and handed to XState as `#id`s; XState's `*` is kept off its own
// events, as docs/compat.md's `*` is. Everything else is XState's.
import { SimulatedClock, assign, createActor, createMachine, raise } from 'xstate';
import type { JsonObject, Workflow } from '../../../src/engine/model/index.js';
import { evaluateText, isTruthy } from '../../../src/engine/expr/index.js';
import { resolveTarget } from '../../../src/engine/statechart/index.js';
import type { PlainAction, PlainChart, PlainState, PlainTransitions } from './chart-builder.js';

type Args = { context: JsonObject; event: { type: string; data?: JsonObject } };

function evaluate(text: string, { context, event }: Args): unknown {
  const result = evaluateText(text, { context, event: event.data === undefined ? { type: event.type } : { type: event.type, data: event.data } });
  if (!result.ok) throw new Error(`${text}: ${result.error.message}`);
  return result.value;
}

export interface Twin {
  send(type: string, data?: JsonObject): void;
  tick(ms: number): void;
  readonly value: unknown;
  readonly status: string;
  readonly context: JsonObject;
}

/** XState's actor for the chart, on a simulated clock starting at 0. */
export function xstateTwin(chart: PlainChart, workflow: Workflow, options: { maxIterations?: number } = {}): Twin {
  const id = workflow.id;
  const delays: Record<string, (args: Args) => unknown> = {};
  const xid = (stateId: string): string => (stateId ? `#${id}.${stateId}` : `#${id}`);
  const action = (a: PlainAction): unknown => {
    if (typeof a === 'string') return action(chart.actions?.[a] as PlainAction);
    if (a.type === 'raise') return raise({ type: a.event });
    if (a.type === 'assign') {
      return assign(((args: Args) => Object.fromEntries(Object.entries(a.assign).map(([key, text]) => [key, evaluate(text, args)]))) as never);
    }
    return () => undefined; // emit, send, log, invoke: effects only
  };
  const transitions = (sourceId: string, plain: PlainTransitions, wildcard = false): unknown[] => {
    const list = typeof plain === 'string' ? [{ target: plain }] : Array.isArray(plain) ? plain : [plain];
    return list.map((t) => {
      const targets = t.target === undefined ? [] : Array.isArray(t.target) ? t.target : [t.target];
      return {
        ...(targets.length
          ? {
              target: targets.map((name) => {
                const resolved = resolveTarget(workflow, sourceId, name);
                if (resolved === undefined) throw new Error(`target ${name} of ${sourceId} does not resolve`);
                return xid(resolved);
              }),
            }
          : {}),
        actions: (t.actions ?? []).map(action),
        reenter: t.reenter ?? false,
        ...(t.guard || wildcard
          ? { guard: (args: Args) => (!wildcard || !args.event.type.startsWith('xstate.')) && (!t.guard || isTruthy(evaluate(t.guard, args) as never)) }
          : {}),
      };
    });
  };
  const config = (state: PlainState, stateId: string): Record<string, unknown> => {
    const c: Record<string, unknown> = {};
    const children = Object.entries(state.states ?? {});
    const kind = state.type ?? (state.history ? 'history' : children.length ? 'compound' : 'atomic');
    if (kind === 'parallel' || kind === 'final') c.type = kind;
    if (kind === 'history') {
      c.type = 'history';
      c.history = state.history ?? 'shallow';
      if (state.target) c.target = xid(resolveTarget(workflow, stateId, state.target) as string);
    }
    if (kind === 'compound') c.initial = state.initial ?? children[0]?.[0];
    if (children.length) c.states = Object.fromEntries(children.map(([key, child]) => [key, config(child, stateId ? `${stateId}.${key}` : key)]));
    if (state.entry) c.entry = state.entry.map(action);
    if (state.exit) c.exit = state.exit.map(action);
    if (state.on) c.on = Object.fromEntries(Object.entries(state.on).map(([event, t]) => [event, transitions(stateId, t, event === '*' || event.endsWith('.*'))]));
    if (state.always) c.always = transitions(stateId, state.always);
    if (state.onDone) c.onDone = transitions(stateId, state.onDone);
    if (state.after) {
      c.after = Object.fromEntries(
        Object.entries(state.after).map(([delay, t]) => {
          if (!/^\d+(\.\d+)?$/.test(delay)) delays[delay] = (args) => evaluate(delay, args);
          return [delay, transitions(stateId, t)];
        }),
      );
    }
    return c;
  };
  const machine = createMachine(
    { ...config(chart, ''), id, context: workflow.context, options: { maxIterations: options.maxIterations ?? 1000 } } as never,
    { delays } as never,
  );
  const clock = new SimulatedClock();
  const actor = createActor(machine, { clock });
  actor.subscribe({ error: () => undefined });
  actor.start();
  const snapshot = (): { value: unknown; status: string; context: JsonObject } => actor.getSnapshot() as never;
  return {
    send: (type, data) => actor.send(data === undefined ? { type } : ({ type, data } as never)),
    tick: (ms) => advanceWatched(clock, clock.now() + ms),
    get value() {
      return snapshot().value;
    },
    get status() {
      return snapshot().status;
    },
    get context() {
      return snapshot().context;
    },
  };
}

/**
 * Moves XState's clock to `to` the way a watched run lives through the time:
 * to each pending timeout's end in turn (what it schedules then counts from
 * that moment), then to `to`. Our `fireDueTimers` gives a run that was not
 * loaded for that long the same end (docs/statecharts.md, "Timers after a
 * pause"); `clock.increment` would start every chained timer at `to` instead.
 */
export function advanceWatched(clock: SimulatedClock, to: number): void {
  const pending = (clock as unknown as { timeouts: Map<number, { start: number; timeout: number }> }).timeouts;
  for (;;) {
    let next = Infinity;
    for (const t of pending.values()) next = Math.min(next, t.start + t.timeout);
    if (!(next <= to) || next <= clock.now()) break;
    clock.set(next);
  }
  clock.set(to);
}
