// The statechart interpreter against XState v5 (docs/statecharts.md;
// where it is silent we do what XState does, and docs/compat.md lists the differences).
//
// fast-check generates random charts (nesting up to 4 levels, parallel
// regions, shallow and deep history with and without defaults, `always` with
// guards, `after` with numbers and expressions, `*`, guards on the context
// and the event, `reenter`, root transitions, `raise`, and assign actions
// that append to `context.trace`, so the order of exit, transition and entry
// actions is compared too) and random sequences of events and clock moves.
// Each chart becomes our IR (through the test chart builder) and an XState
// machine config whose guards and assigns are JS functions equivalent to the
// expressions. After the start and after every step, the configuration
// (XState's `snapshot.value` against our stateValue), the status and the
// context must be equal.
//
// The one deliberate difference in what is generated: docs/compat.md says `*`
// never matches done, timer or invocation events, while XState's `*` matches
// every event; the XState side gets a guard on its `*` transitions that
// leaves out XState's own events, so both follow docs/compat.md.
//
// STATEGATE_DIFF_CHARTS sets the number of charts (default 500);
// STATEGATE_DIFF_SEED the seed (default fixed; printed on failure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SimulatedClock, assign, createActor, createMachine, raise } from 'xstate';
import { advanceWatched } from './helpers/xstate-twin.js';
import { buildChart, type PlainAction, type PlainChart, type PlainState, type PlainTransition } from './helpers/chart-builder.js';
import { fireDueTimers, resolveTarget, sendEvent, startChart, stateValue, type ChartEffect, type ChartSnapshot } from '../../src/engine/statechart/index.js';
import type { JsonObject, Workflow } from '../../src/engine/model/index.js';

const CHARTS = Number(process.env.STATEGATE_DIFF_CHARTS ?? 500);
const SEED = Number(process.env.STATEGATE_DIFF_SEED ?? 20260406);
const MACHINE_ID = 'chart';
/**
 * Both sides stop a run at the same microstep limit. A lower one than the
 * real 1,000 keeps the many generated charts that loop cheap; the limit of
 * 1,000 itself is compared with XState's in statechart-interpreter.test.ts.
 */
const LIMIT = 100;

type Ctx = { trace: string; n: number; flag: boolean };
type Ev = { type: string };

/** An expression written both ways: our language's text and the JS XState runs. */
interface Term {
  readonly text: string;
  readonly js: (c: Ctx, e: Ev) => unknown;
}

type GAction = { kind: 'assign'; updates: [keyof Ctx, Term][] } | { kind: 'raise'; event: string };
type GTrigger = { kind: 'event'; event: string } | { kind: 'always' } | { kind: 'after'; delay: number | Term } | { kind: 'done' };

interface GTransition {
  trigger: GTrigger;
  /** One target, or two in different regions of one parallel state. */
  targets: GNode[];
  guard?: Term;
  actions: GAction[];
  reenter: boolean;
}

interface GNode {
  id: string;
  key: string;
  kind: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  parent?: GNode;
  children: GNode[];
  initial?: string;
  history?: 'shallow' | 'deep';
  historyDefault?: GNode;
  transitions: GTransition[];
  entry: GAction[];
  exit: GAction[];
}

type Step = { send: string; data?: { x: number } } | { tick: number };
type Ev2 = Ev & { data?: { x: number } };

interface Case {
  root: GNode;
  steps: Step[];
}

const KEYS = ['a', 'b', 'c', 'd'];
const EVENTS = ['A', 'B', 'C', 'D', 'R', '*'];
const SENT = ['A', 'B', 'C', 'D', 'R', 'Z'];
const TICKS = [0, 100, 150, 250, 500, 1000];
const DELAYS: (number | Term)[] = [100, 250, 500, { text: 'context.n * 100 + 50', js: (c) => c.n * 100 + 50 }];

type G = fc.GeneratorValue;
const int = (g: G, min: number, max: number): number => g(fc.integer, { min, max });
const chance = (g: G, percent: number): boolean => int(g, 0, 99) < percent;
const pick = <T>(g: G, list: readonly T[]): T => list[int(g, 0, list.length - 1)] as T;

function guardTerm(g: G): Term {
  const k = int(g, 0, 3);
  switch (int(g, 0, 7)) {
    case 0:
      return { text: `context.n > ${k}`, js: (c) => c.n > k };
    case 1:
      return { text: 'context.n % 2 == 0', js: (c) => c.n % 2 === 0 };
    case 2:
      return { text: 'context.flag', js: (c) => c.flag };
    case 3:
      return { text: 'not context.flag', js: (c) => !c.flag };
    case 4:
      return { text: `'t${k}.' in context.trace`, js: (c) => c.trace.includes(`t${k}.`) };
    case 5: {
      const type = pick(g, SENT);
      return { text: `event.type == '${type}'`, js: (_c, e) => e.type === type };
    }
    case 6:
      // Events without data (raised, internal) fail this guard on our side (journaled) and give undefined > k in JS: false both ways.
      return { text: `event.data.x > ${k}`, js: (_c, e) => ((e as Ev2).data?.x as number) > k };
    default:
      return { text: `context.n >= ${k} and not context.flag`, js: (c) => c.n >= k && !c.flag };
  }
}

function genAction(g: G, token: () => string): GAction {
  const tok = token();
  switch (int(g, 0, 9)) {
    case 0:
      return { kind: 'assign', updates: [['n', { text: 'context.n + 1', js: (c) => c.n + 1 }]] };
    case 1:
      return { kind: 'assign', updates: [['flag', { text: 'not context.flag', js: (c) => !c.flag }]] };
    case 2:
      // Both updates read the context from before the assign.
      return {
        kind: 'assign',
        updates: [
          ['n', { text: 'context.n + 1', js: (c) => c.n + 1 }],
          ['trace', { text: `context.trace + '${tok}' + context.n + '.'`, js: (c) => `${c.trace}${tok}${c.n}.` }],
        ],
      };
    case 3:
      return { kind: 'assign', updates: [['trace', { text: `context.trace + event.type + '.'`, js: (c, e) => `${c.trace}${e.type}.` }]] };
    case 4:
      return process.env.NORAISE ? { kind: 'assign', updates: [] } : { kind: 'raise', event: pick(g, ['A', 'B', 'R']) };
    default:
      return { kind: 'assign', updates: [['trace', { text: `context.trace + '${tok}.'`, js: (c) => `${c.trace}${tok}.` }]] };
  }
}

function genActions(g: G, token: () => string, max: number): GAction[] {
  const out: GAction[] = [];
  const n = int(g, 0, max);
  for (let i = 0; i < n; i++) out.push(genAction(g, token));
  return out;
}

function genCase(g: G): Case {
  let budget = 22;
  let tokens = 0;
  const token = (): string => `t${tokens++}`;
  const all: GNode[] = [];
  const node = (key: string, kind: GNode['kind'], parent: GNode | undefined): GNode => {
    const id = parent && parent.id ? `${parent.id}.${key}` : key;
    const n: GNode = { id, key, kind, children: [], transitions: [], entry: [], exit: [], ...(parent ? { parent } : {}) };
    all.push(n);
    budget--;
    return n;
  };
  const fillCompound = (n: GNode, depth: number, min: number): void => {
    const count = int(g, min, 3);
    for (let i = 0; i < count; i++) n.children.push(genState(n, KEYS[i] as string, depth + 1));
    n.initial = pick(g, n.children).key;
    if (chance(g, 30) && budget > 0) {
      const h = node('h', 'history', n);
      h.history = chance(g, 50) ? 'deep' : 'shallow';
      n.children.splice(int(g, 0, n.children.length), 0, h);
    }
  };
  const genState = (parent: GNode, key: string, depth: number): GNode => {
    const roll = int(g, 0, 99);
    const canNest = depth < 4 && budget > 3;
    const kind: GNode['kind'] = canNest && roll < 30 ? 'compound' : canNest && roll < 50 ? 'parallel' : roll > 88 ? 'final' : 'atomic';
    const n = node(key, kind, parent);
    if (kind === 'compound') fillCompound(n, depth, 1);
    if (kind === 'parallel') {
      const regions = int(g, 2, 3);
      for (let i = 0; i < regions; i++) {
        const region = node(KEYS[i] as string, 'compound', n);
        n.children.push(region);
        fillCompound(region, depth + 1, 1);
      }
    }
    return n;
  };

  const root: GNode = { id: '', key: MACHINE_ID, kind: 'compound', children: [], transitions: [], entry: [], exit: [] };
  fillCompound(root, 0, 2);
  // A run that is done right away compares little: the root starts in a state that is not final.
  const startable = root.children.filter((n) => n.kind !== 'final' && n.kind !== 'history');
  if (startable.length) root.initial = pick(g, startable).key;
  const targets = all.filter((n) => n.kind !== 'history' || n.parent);
  for (const h of all.filter((n) => n.kind === 'history')) {
    if (!chance(g, 40)) continue;
    const parent = h.parent as GNode;
    const inside = all.filter((n) => n.kind !== 'history' && n.id.startsWith(`${parent.id}.`));
    if (inside.length) h.historyDefault = pick(g, inside);
  }
  const parallels = all.filter((n) => n.kind === 'parallel');
  const descendants = (n: GNode): GNode[] => all.filter((d) => d.kind !== 'history' && d.id.startsWith(`${n.id}.`));
  const genTargets = (): GNode[] => {
    if (!chance(g, 80)) return [];
    if (parallels.length && chance(g, 8)) {
      // Two targets, in two different regions of one parallel state.
      const p = pick(g, parallels);
      const [r1, r2] = [p.children[0] as GNode, p.children[1] as GNode];
      return [pick(g, [r1, ...descendants(r1)]), pick(g, [r2, ...descendants(r2)])];
    }
    return [pick(g, targets)];
  };
  const transition = (source: GNode, trigger: GTrigger): GTransition => {
    const t: GTransition = {
      trigger,
      targets: genTargets(),
      ...(chance(g, 40) ? { guard: guardTerm(g) } : {}),
      actions: genActions(g, token, 2),
      reenter: chance(g, 20),
    };
    if (trigger.kind === 'always') {
      const roll = int(g, 0, 199);
      if (roll < 50) {
        // Waits for the flag and clears it: several of these in parallel regions become enabled together,
        // and XState takes them in the order their states were entered, not in document order.
        t.guard = { text: 'context.flag', js: (c) => c.flag };
        const tok = token();
        t.actions.unshift({ kind: 'assign', updates: [['trace', { text: `context.trace + '${tok}.'`, js: (c) => `${c.trace}${tok}.` }]] });
        t.actions.push({ kind: 'assign', updates: [['flag', { text: 'false', js: () => false }]] });
      } else if (roll < 170) {
        // Mostly an eventless transition that stops by itself (n only grows).
        const k = int(g, 1, 4);
        t.guard = { text: `context.n < ${k}`, js: (c) => c.n < k };
        t.actions.push({ kind: 'assign', updates: [['n', { text: 'context.n + 1', js: (c) => c.n + 1 }]] });
      } else if (roll < 198) {
        // Targetless or to its own source, no actions: it changes nothing, and XState then stops looking for
        // eventless transitions until the next event.
        t.actions = [];
        t.targets = chance(g, 50) || source.kind !== 'atomic' ? [] : [source];
        t.reenter = false;
      }
      // The rest may loop, which must fail both alike.
    }
    return t;
  };
  for (const n of [root, ...all]) {
    if (n.kind === 'history') continue;
    if (chance(g, 50)) n.entry = genActions(g, token, 2);
    if (chance(g, 50)) n.exit = genActions(g, token, 2);
    if (n.kind === 'final') continue;
    const events = int(g, 0, 2);
    const used = new Set<string>();
    for (let i = 0; i < events; i++) {
      const event = pick(g, EVENTS);
      if (used.has(event)) continue;
      used.add(event);
      const candidates = int(g, 1, 2);
      for (let j = 0; j < candidates; j++) n.transitions.push(transition(n, { kind: 'event', event }));
    }
    if (chance(g, 25)) n.transitions.push(transition(n, { kind: 'always' }));
    if (chance(g, 20)) {
      const delay = pick(g, DELAYS);
      const candidates = int(g, 1, 2);
      for (let j = 0; j < candidates; j++) n.transitions.push(transition(n, { kind: 'after', delay }));
    }
    if ((n.kind === 'compound' || n.kind === 'parallel') && n !== root && chance(g, 40)) n.transitions.push(transition(n, { kind: 'done' }));
  }
  const steps: Step[] = [];
  const count = int(g, 3, 10);
  for (let i = 0; i < count; i++) {
    if (!chance(g, 70)) steps.push({ tick: pick(g, TICKS) });
    else if (chance(g, 20)) steps.push({ send: pick(g, SENT), data: { x: int(g, 0, 4) } });
    else steps.push({ send: pick(g, SENT) });
  }
  return { root, steps };
}

/* ---------------------------------- ours ---------------------------------- */

function delayKey(delay: number | Term): string {
  return typeof delay === 'number' ? String(delay) : delay.text;
}

function plainAction(a: GAction): PlainAction {
  if (a.kind === 'raise') return { type: 'raise', event: a.event };
  return { type: 'assign', assign: Object.fromEntries(a.updates.map(([k, term]) => [k, term.text])) };
}

function toPlain(c: Case): PlainChart {
  // Structure first, so target names can be chosen by our own resolution rule.
  const skeleton = buildChart(plainOf(c.root, () => undefined) as PlainChart);
  const nameFor = (source: GNode, target: GNode): string => {
    const candidates = [target.key];
    const parts = target.id.split('.');
    for (let i = parts.length - 2; i >= 0; i--) candidates.push(parts.slice(i).join('.'));
    for (const name of candidates) if (resolveTarget(skeleton, source.id, name) === target.id) return name;
    return `#${target.id}`;
  };
  return plainOf(c.root, nameFor) as PlainChart;
}

function plainOf(n: GNode, nameFor: (source: GNode, target: GNode) => string | undefined): PlainState & PlainChart {
  const out: PlainState & PlainChart = { states: {} };
  if (n.parent === undefined) {
    out.id = MACHINE_ID;
    out.context = { trace: '', n: 0, flag: false };
  } else if (n.kind !== 'compound' || !n.children.length) {
    out.type = n.kind;
  }
  if (n.initial) out.initial = n.initial;
  if (n.history) out.history = n.history;
  if (n.historyDefault) {
    const name = nameFor(n, n.historyDefault);
    if (name) out.target = name;
  }
  for (const child of n.children) out.states[child.key] = plainOf(child, nameFor);
  if (n.entry.length) out.entry = n.entry.map(plainAction);
  if (n.exit.length) out.exit = n.exit.map(plainAction);
  const tr = (t: GTransition): PlainTransition => {
    const names = t.targets.map((target) => nameFor(n, target) as string);
    return {
      ...(names.length === 1 ? { target: names[0] } : names.length ? { target: names } : {}),
      ...(t.guard ? { guard: t.guard.text } : {}),
      ...(t.actions.length ? { actions: t.actions.map(plainAction) } : {}),
      ...(t.reenter ? { reenter: true } : {}),
    };
  };
  for (const t of n.transitions) {
    const trigger = t.trigger;
    const list = (holder: Record<string, unknown>, key: string): PlainTransition[] => (holder[key] ??= []) as PlainTransition[];
    if (trigger.kind === 'event') list((out.on ??= {}), trigger.event).push(tr(t));
    if (trigger.kind === 'always') list(out as unknown as Record<string, unknown>, 'always').push(tr(t));
    if (trigger.kind === 'after') list((out.after ??= {}), delayKey(trigger.delay)).push(tr(t));
    if (trigger.kind === 'done') list(out as unknown as Record<string, unknown>, 'onDone').push(tr(t));
  }
  return out;
}

/* --------------------------------- XState --------------------------------- */

function xid(n: GNode): string {
  return n.id ? `${MACHINE_ID}.${n.id}` : MACHINE_ID;
}

function xAction(a: GAction): unknown {
  if (a.kind === 'raise') return raise({ type: a.event });
  return assign(({ context, event }: { context: Ctx; event: Ev }) => {
    const out: Record<string, unknown> = {};
    for (const [key, term] of a.updates) out[key] = term.js(context, event);
    return out;
  });
}

function xConfig(n: GNode, delays: Record<string, (args: { context: Ctx; event: Ev }) => unknown>): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  if (n.kind === 'parallel' || n.kind === 'final') c.type = n.kind;
  if (n.kind === 'history') {
    c.type = 'history';
    c.history = n.history;
    if (n.historyDefault) c.target = `#${xid(n.historyDefault)}`;
  }
  if (n.initial) c.initial = n.initial;
  if (n.children.length) c.states = Object.fromEntries(n.children.map((child) => [child.key, xConfig(child, delays)]));
  if (n.entry.length) c.entry = n.entry.map(xAction);
  if (n.exit.length) c.exit = n.exit.map(xAction);
  const on: Record<string, unknown[]> = {};
  const after: Record<string, unknown[]> = {};
  const always: unknown[] = [];
  const onDone: unknown[] = [];
  for (const t of n.transitions) {
    const trigger = t.trigger;
    const wildcard = trigger.kind === 'event' && trigger.event === '*';
    const guard = t.guard;
    const x: Record<string, unknown> = {
      ...(t.targets.length ? { target: t.targets.map((target) => `#${xid(target)}`) } : {}),
      actions: t.actions.map(xAction),
      reenter: t.reenter,
    };
    if (guard || wildcard) {
      // docs/compat.md: `*` matches sent and raised events only (XState's matches its own events too).
      x.guard = ({ context, event }: { context: Ctx; event: Ev }) =>
        (!wildcard || !event.type.startsWith('xstate.')) && (!guard || Boolean(guard.js(context, event)));
    }
    if (trigger.kind === 'event') (on[trigger.event] ??= []).push(x);
    if (trigger.kind === 'always') always.push(x);
    if (trigger.kind === 'done') onDone.push(x);
    if (trigger.kind === 'after') {
      const key = delayKey(trigger.delay);
      if (typeof trigger.delay !== 'number') {
        const term = trigger.delay;
        delays[key] = ({ context, event }) => term.js(context, event);
      }
      (after[key] ??= []).push(x);
    }
  }
  if (Object.keys(on).length) c.on = on;
  if (Object.keys(after).length) c.after = after;
  if (always.length) c.always = always;
  if (onDone.length) c.onDone = onDone;
  return c;
}

function xMachine(c: Case): ReturnType<typeof createMachine> {
  const delays: Record<string, (args: { context: Ctx; event: Ev }) => unknown> = {};
  const config = {
    ...xConfig(c.root, delays),
    id: MACHINE_ID,
    context: { trace: '', n: 0, flag: false },
    options: { maxIterations: LIMIT },
  };
  return createMachine(config as never, { delays } as never);
}

/* -------------------------------- compare --------------------------------- */

const STATUS: Record<string, string> = { running: 'active', done: 'done', failed: 'error' };

function describeCase(c: Case, plain: PlainChart): string {
  return `chart:\n${JSON.stringify(plain, null, 1)}\nsteps: ${JSON.stringify(c.steps)}`;
}

let totalSteps = 0;
/** How the compared runs ended (running, done, failed, or stopped at a deliberate difference). */
const outcomes: Record<string, number> = {};

/**
 * Whether this operation scheduled an `after` timer for a state that already
 * had that timer pending. That happens when XState enters a state that is
 * still active (restoring history below it); XState then loses track of the
 * older timer, which fires even after the state was exited and entered
 * again. docs/statecharts.md says a state's timers are cancelled when it is exited, and
 * ours are (docs/compat.md), so the comparison stops there.
 */
function timerScheduledTwice(before: ChartSnapshot | undefined, effects: readonly ChartEffect[]): boolean {
  const pending = new Set((before?.timers ?? []).map((t) => `${t.state}#${t.transition}`));
  for (const e of effects) {
    if (e.type === 'timer-scheduled') {
      const key = `${e.state}#${e.transition}`;
      if (pending.has(key)) return true;
      pending.add(key);
    } else if (e.type === 'timer-cancelled' || e.type === 'timer-fired') {
      pending.delete(`${e.state}#${e.transition}`);
    }
  }
  return false;
}

function runCase(c: Case): void {
  const plain = toPlain(c);
  const wf: Workflow = buildChart(plain);
  const clock = new SimulatedClock();
  const actor = createActor(xMachine(c), { clock });
  actor.subscribe({ error: () => undefined });
  actor.start();
  let now = 0;
  let before: ChartSnapshot | undefined;
  let result = startChart(wf, { now, maxMicrosteps: LIMIT });
  /** Compares after an operation; false when the comparison ends here. */
  const compare = (where: string): boolean => {
    const snapshot = result.snapshot;
    const x = actor.getSnapshot() as { value: unknown; status: string; context: JsonObject };
    const ours = { value: stateValue(wf, snapshot), status: STATUS[snapshot.status], context: snapshot.context };
    const theirs = { value: x.value, status: x.status, context: x.context };
    try {
      assert.deepEqual(ours, theirs);
    } catch {
      throw new Error(
        `differs from XState ${where}:\n  ours:   ${JSON.stringify(ours)}\n  xstate: ${JSON.stringify(theirs)}${snapshot.error ? `\n  our error: ${snapshot.error}` : ''}\n${describeCase(c, plain)}`,
      );
    }
    const outcome = timerScheduledTwice(before, result.effects) ? 'timer scheduled twice' : x.status === 'active' ? undefined : snapshot.status;
    if (outcome) outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    return outcome === undefined;
  };
  if (!compare('after the start')) return;
  for (const [i, step] of c.steps.entries()) {
    totalSteps++;
    before = result.snapshot;
    if ('send' in step) {
      const event = step.data ? { type: step.send, data: step.data } : { type: step.send };
      actor.send(event);
      result = sendEvent(wf, result.snapshot, event, { now, maxMicrosteps: LIMIT });
    } else {
      now += step.tick;
      advanceWatched(clock, now);
      result = fireDueTimers(wf, result.snapshot, now, { maxMicrosteps: LIMIT });
    }
    if (!compare(`after step ${i} (${JSON.stringify(step)})`)) return;
  }
  outcomes.running = (outcomes.running ?? 0) + 1;
}

test(`the interpreter agrees with XState v5 on ${CHARTS} random charts (seed ${SEED})`, () => {
  const started = performance.now();
  const details = fc.check(
    fc.property(fc.gen(), (g) => runCase(genCase(g))),
    { seed: SEED, numRuns: CHARTS, ...(process.env.STATEGATE_DIFF_NO_SHRINK ? { endOnFailure: true } : {}) },
  );
  if (details.failed) {
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    assert.fail(`seed ${details.seed} (STATEGATE_DIFF_SEED=${details.seed}), after ${details.numRuns} charts, shrunk ${details.numShrinks} times:\n${cause}`);
  }
  const ms = Math.round(performance.now() - started);
  console.log(`differential: ${CHARTS} charts, ${totalSteps} steps (shrinking included), ${ms} ms, seed ${SEED}; runs ended:`, outcomes);
});
