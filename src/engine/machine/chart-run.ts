/**
 * Statechart runs in the one run store: the dispatch point between the flat
 * machine (operations.ts) and the statechart interpreter (../statechart/).
 * A statechart run keeps the interpreter's snapshot in `run.chart`; `state`
 * and `context` mirror it (the first active atomic state, the chart's
 * context) so views and the status bar that read `state` keep working.
 * Every operation journals one `chart` entry with the interpreter's effects
 * and the state and context it left, which is what replay reads.
 */
import type { ChartAgent, JsonObject, JsonValue, Workflow } from '../model/index.js';
import { selectAgent } from './agents.js';
import { envBinding, type CapturedEnv } from './chart-env.js';
import { cloneJson } from '../model/json-value.js';
import type * as chart from '../statechart/index.js';
import { interpreter } from '../statechart/lazy.js';
import { parseSrc } from '../model/src-ref.js';
import type { ChartEffect, ChartResult, ChartSnapshot } from '../statechart/index.js';
import type { MachineEnv } from './cursor.js';
import { freshCounters, resetStateCounters, RUN_SNAPSHOT_VERSION } from './run.js';
import { evidenceView } from './evidence.js';
import type { ChartOp, Counters, JournalEntry, MachineError, RunSnapshot, RunStatus } from './run.js';

/**
 * Whether the statechart interpreter runs this workflow: a statechart whose
 * nodes carry their `chart` part (an IR of nested states without it, as built
 * by hand in tests, still runs on the flat machine).
 */
export function isChartWorkflow(wf: Workflow): boolean {
  if (wf.format !== 'statechart') return false;
  for (const node of wf.states.values()) return node.chart !== undefined;
  return true;
}

/** The run's workflow when it is a statechart (undefined: a flat workflow, or one that no longer loads). */
export function chartWorkflow(run: RunSnapshot, env: MachineEnv): Workflow | undefined {
  if (!run.chart) return undefined;
  const wf = env.load(run.workflow.definitionText);
  return wf && isChartWorkflow(wf) ? wf : undefined;
}

/** The run's clock in ms since the epoch: the env's time (the store honours STATEGATE_NOW). */
export function chartClock(env: MachineEnv): number {
  return Date.parse(env.now());
}

/** Status of a run from the interpreter's status (paused/stopped are the store's, kept as they are). */
function runStatus(s: ChartSnapshot, previous: RunStatus): RunStatus {
  if (s.status === 'done') return 'completed';
  if (s.status === 'failed') return 'failed';
  return previous === 'paused' || previous === 'stopped' ? previous : 'running';
}

/** What `state` and `send` report on a statechart run (README.md, "The command line"). */
export interface ChartView {
  value: chart.StateValue;
  configuration: string[];
  timers: { state: string; transition: number; due: string; due_ms: number }[];
  invocations: InvocationView[];
  output?: JsonValue;
  chart_error?: string;
}

/**
 * An invocation as `state` shows it: a child statechart with its own view (not its definition text);
 * `kind` says who runs it (docs/statechart-handlers.md): `agent`, `statechart`, `command`/`flow`/`mcp`
 * (a handler, named in `handler`), or `service`.
 */
export type InvocationView = Omit<chart.ChartInvocation, 'child'> & {
  kind: InvocationKind;
  handler?: string;
  child?: { id: string; version?: string; file?: string; status: chart.ChartStatus; context: JsonObject } & ChartView;
};

export type InvocationKind = 'agent' | 'statechart' | 'command' | 'flow' | 'mcp' | 'service';

/** Who runs an invocation of `src`, by its prefix and the chart's handlers (an undeclared handler: `command`, which fails when run). */
export function invocationKind(wf: Workflow, src: string): { kind: InvocationKind; handler?: string } {
  const ref = parseSrc(src);
  if (ref.kind === 'handler') return { kind: wf.chart?.handlers?.get(ref.name)?.kind ?? 'command', handler: ref.name };
  return { kind: ref.kind };
}

/** The run's queued handler calls as `state` lists them beside the invocations (status `pending`, `action: true`). */
export type HandlerCallView = Omit<InvocationView, 'status'> & { status: 'pending'; action: true; params?: JsonObject };

export function handlerCallViews(run: RunSnapshot, wf: Workflow): HandlerCallView[] {
  return (run.handlerCalls ?? []).map((c) => ({
    id: c.id,
    state: c.state,
    src: `handler:${c.handler}`,
    status: 'pending' as const,
    ...invocationKind(wf, `handler:${c.handler}`),
    action: true as const,
    ...(c.params ? { params: c.params } : {}),
  }));
}

export function chartView(wf: Workflow, s: ChartSnapshot, load?: (text: string) => Workflow | undefined): ChartView {
  return {
    value: interpreter().stateValue(wf, s),
    configuration: interpreter().configurationPaths(wf, s),
    timers: s.timers.map((t) => ({ state: t.state, transition: t.transition, due: new Date(t.due).toISOString(), due_ms: t.due })),
    invocations: s.invocations.map((inv) => invocationView(wf, inv, load)),
    ...(s.output === undefined ? {} : { output: s.output }),
    ...(s.error === undefined ? {} : { chart_error: s.error }),
  };
}

function invocationView(wf: Workflow, inv: chart.ChartInvocation, load: ((text: string) => Workflow | undefined) | undefined): InvocationView {
  const { child, ...own } = inv;
  const rest = { ...own, ...invocationKind(wf, inv.src) };
  const cw = child && load?.(child.text);
  if (!child || !cw) return rest;
  const { text: _text, snapshot, ...about } = child;
  return { ...rest, child: { ...about, status: snapshot.status, context: snapshot.context, ...chartView(cw, snapshot, load) } };
}

/** Runs `statechart:` invocations as child machines: found through the env, loaded as the run's own definition is. */
export function childCharts(env: MachineEnv): chart.ChildCharts {
  return {
    resolve(src, from) {
      const found = env.resolveChart ? env.resolveChart(src, from) : { problem: `\`${src}\` cannot be looked up: this host finds no child charts.` };
      if ('problem' in found) return found;
      const wf = env.load(found.text);
      if (!wf || !isChartWorkflow(wf)) return { problem: `\`${src}\` names ${found.file}, which does not load as a statechart (run \`stategate validate ${found.file}\`).` };
      return { workflow: wf, text: found.text, file: found.file };
    },
    load: (text) => env.load(text),
  };
}

/** What a run was started with that expressions read: its captured `env` and its agents (machine/chart-env.ts, machine/agents.ts). */
export interface ChartInputs {
  readonly chartEnv?: CapturedEnv;
  readonly agents?: readonly ChartAgent[];
}

/** The `env` and `agents` bindings of expressions on a run with `inputs`. */
export function inputBindings(inputs: ChartInputs): Pick<chart.StepOptions, 'env' | 'agents'> {
  const env = envBinding(inputs.chartEnv);
  const agents = inputs.agents;
  return { ...(env ? { env } : {}), ...(agents?.length ? { agents: (role: string, hint: JsonValue) => selectAgent(agents, role, hint) } : {}) };
}

/** The interpreter's options for an operation on `run`: the run's clock, its file, child charts through the env, the state's evidence, its env and agents. */
function stepOptions(file: string | undefined, env: MachineEnv, counters?: Counters, inputs: ChartInputs = {}): chart.StepOptions {
  return {
    now: chartClock(env),
    children: childCharts(env),
    ...(file === undefined ? {} : { file }),
    ...(counters ? { evidence: evidenceView(counters.evidence) } : {}),
    ...inputBindings(inputs),
  };
}

/** The run after a chart result: the snapshot stored, state/context mirrored, the `chart` journal entry. */
export function applyResult(run: RunSnapshot, wf: Workflow, r: ChartResult, op: ChartOp, at: string, event?: string): { run: RunSnapshot; entry: JournalEntry } {
  const s = r.snapshot;
  const state = interpreter().configurationPaths(wf, s)[0] ?? run.state;
  const status = runStatus(s, run.status);
  const steps = interpreter().countTransitions(r.effects);
  const next: RunSnapshot = {
    ...run,
    chart: s,
    state,
    context: s.context,
    status,
    counters: stateCounters(run, r, steps),
    visited: run.visited.includes(state) ? run.visited : [...run.visited, state],
    updatedAt: at,
  };
  // An interrupt fired on a statechart run lasts while its handler state is active (chart-ops.ts).
  if (next.interrupt && !s.configuration.includes(next.interrupt.target)) delete next.interrupt;
  const kept = keptNodeCounters(run, r);
  if (kept) next.nodeCounters = kept;
  else delete next.nodeCounters;
  queueHandlerCalls(next, wf, r.effects, at);
  const entry: JournalEntry = {
    kind: 'chart',
    at,
    op,
    ...(event === undefined ? {} : { event }),
    transitioned: r.transitioned,
    effects: cloneJson(r.effects as unknown as JsonValue) as unknown as ChartEffect[],
    state,
    context: cloneJson(s.context),
    ...(status !== run.status ? { status } : {}),
  };
  return { run: next, entry };
}

/**
 * The handler calls a step made, queued on the run for the host to run
 * (docs/statechart-handlers.md): each `invoke` action naming a declared
 * handler, and each `send` to a declared handler (its params are the event
 * and its data). Only the run's own chart's: a child machine's calls stay
 * journaled effects of the child.
 */
function queueHandlerCalls(run: RunSnapshot, wf: Workflow, effects: readonly ChartEffect[], at: string): void {
  const handlers = wf.chart?.handlers;
  if (!handlers?.size || run.status !== 'running') return;
  let state = run.state;
  for (const e of effects) {
    if (e.type === 'enter' || e.type === 'exit') state = e.state;
    let call: { handler: string; params?: JsonObject } | undefined;
    if (e.type === 'call' && handlers.has(e.handler)) call = { handler: e.handler, ...(e.params ? { params: e.params } : {}) };
    else if (e.type === 'send' && handlers.has(e.to)) call = { handler: e.to, params: { event: e.event, ...(e.data ? { data: e.data } : {}) } };
    if (!call) continue;
    const seq = (run.handlerSeq ?? 0) + 1;
    run.handlerSeq = seq;
    run.handlerCalls = [...(run.handlerCalls ?? []), { id: `call-${seq}`, ...call, state, at }];
  }
}

/**
 * The run's counters after a step: transitions counted; the per-state ones
 * (iterations, files, edit lines, bytes) start again when any state was
 * exited, as they do on a state change of a flat run.
 */
function stateCounters(run: RunSnapshot, r: ChartResult, steps: number): Counters {
  const next = { ...run.counters, filesEdited: [...run.counters.filesEdited], transitions: run.counters.transitions + steps };
  if (anyExit(r.effects)) resetStateCounters(next);
  return next;
}

/** Whether a state was exited, a child machine's included (the agent is held to the child's states). */
export function anyExit(effects: readonly ChartEffect[]): boolean {
  return effects.some((e) => e.type === 'exit' || (e.type === 'child' && anyExit(e.effects)));
}

/**
 * The per-node limit counters after a step (docs/statecharts.md: a limit counts per
 * node that declares it and resets when that node is exited): those of the
 * nodes the step exited are dropped, a sibling's change deep inside a node
 * leaves that node's counters as they were. Undefined: none left.
 */
function keptNodeCounters(run: RunSnapshot, r: ChartResult): RunSnapshot['nodeCounters'] {
  const all = run.nodeCounters;
  if (!all) return undefined;
  const exited = new Set(r.effects.flatMap((e) => (e.type === 'exit' ? [e.state] : [])));
  const active = new Set(r.snapshot.configuration);
  const kept = Object.entries(all).filter(([id]) => !exited.has(id) && active.has(id));
  if (!kept.length) return undefined;
  if (kept.length === Object.keys(all).length) return all;
  const out: NonNullable<RunSnapshot['nodeCounters']> = {};
  for (const [id, c] of kept) Object.defineProperty(out, id, { value: c, enumerable: true, writable: true, configurable: true });
  return out;
}

export interface ChartStartOptions {
  runId: string;
  file?: string;
  hash: string;
  context?: JsonObject;
  /** The chart's declared variables as the starting process had them (captureChartEnv). */
  chartEnv?: CapturedEnv;
  /** The agents `agents.select` picks from (mergeAgents). */
  agents?: ChartAgent[];
}

export function startChartRun(wf: Workflow, definitionText: string, opts: ChartStartOptions, env: MachineEnv): { run: RunSnapshot; journal: JournalEntry[] } {
  const at = env.now();
  const r = interpreter().startChart(wf, { ...stepOptions(opts.file, env, undefined, opts), ...(opts.context ? { context: opts.context } : {}) });
  const base: RunSnapshot = {
    version: RUN_SNAPSHOT_VERSION,
    runId: opts.runId,
    workflow: { id: wf.id, ...(opts.file === undefined ? {} : { file: opts.file }), hash: opts.hash, definitionText },
    status: 'running',
    state: '',
    context: {},
    counters: freshCounters(),
    visited: [],
    taken: [],
    createdAt: at,
    updatedAt: at,
    ...(opts.chartEnv ? { chartEnv: opts.chartEnv } : {}),
    ...(opts.agents?.length ? { agents: opts.agents } : {}),
  };
  const { run, entry } = applyResult(base, wf, r, 'start', at);
  const start: JournalEntry = {
    kind: 'start',
    at,
    runId: opts.runId,
    workflowId: wf.id,
    hash: opts.hash,
    ...(opts.file === undefined ? {} : { file: opts.file }),
    state: run.state,
    context: cloneJson(run.context),
    // What the run was started with, journaled so a replay reads the same (never more than the chart names).
    ...(opts.chartEnv ? { env: { ...opts.chartEnv } } : {}),
    ...(opts.agents?.length ? { agents: opts.agents.map((a) => ({ ...a })) } : {}),
  };
  return { run, journal: [start, entry] };
}

export interface ChartOutcome extends ChartView {
  transitioned: boolean;
  from: string;
  to: string;
  status: RunStatus;
  event?: string;
  error?: MachineError;
}

function outcome(before: RunSnapshot, after: RunSnapshot, wf: Workflow, env: MachineEnv, transitioned: boolean, event?: string, error?: MachineError): ChartOutcome {
  return {
    ...(event === undefined ? {} : { event }),
    transitioned,
    from: before.state,
    to: after.state,
    status: after.status,
    ...chartView(wf, after.chart as ChartSnapshot, (text) => env.load(text)),
    ...(error ? { error } : {}),
  };
}

type Step = (wf: Workflow, s: ChartSnapshot, options: chart.StepOptions) => ChartResult;

/** One interpreter operation on a running run, journaled; a refusal leaves the run as it was. */
export function step(run: RunSnapshot, wf: Workflow, env: MachineEnv, op: ChartOp, event: string | undefined, fn: Step): { run: RunSnapshot; journal: JournalEntry[]; outcome: ChartOutcome } {
  const at = env.now();
  if (run.status !== 'running') {
    const error: MachineError = { code: 'not_running', message: `the run is ${run.status}` };
    return { run, journal: [], outcome: outcome(run, run, wf, env, false, event, error) };
  }
  const r = fn(wf, run.chart as ChartSnapshot, stepOptions(run.workflow.file, env, run.counters, run));
  if (r.error && r.snapshot === run.chart) {
    const error: MachineError = { code: r.snapshot.status === 'running' ? 'unknown_event' : 'final_state', message: r.error };
    const rejected: JournalEntry = { kind: 'rejected', at, ...(event === undefined ? { event: op } : { event }), state: run.state, code: error.code, message: r.error };
    return { run, journal: [rejected], outcome: outcome(run, run, wf, env, false, event, error) };
  }
  const { run: next, entry } = applyResult(run, wf, r, op, at, event);
  return { run: next, journal: [entry], outcome: outcome(run, next, wf, env, r.transitioned, event) };
}

export function sendChartEvent(run: RunSnapshot, wf: Workflow, event: string, data: JsonValue | undefined, env: MachineEnv) {
  return step(run, wf, env, 'send', event, (w, s, o) => interpreter().sendEvent(w, s, data === undefined ? { type: event } : { type: event, data }, o));
}

/** `byHost`: the host ran the invocation's handler or flow (only it may complete one: statechart/invoke.ts). */
export function completeChartInvocation(run: RunSnapshot, wf: Workflow, id: string, ok: boolean, data: JsonValue | undefined, env: MachineEnv, byHost = false) {
  return step(run, wf, env, ok ? 'done' : 'fail', id, (w, s, o) => interpreter().completeInvocation(w, s, { id, ok, ...(data === undefined ? {} : { data }), ...(byHost ? { byHost } : {}) }, o));
}

/** Fires the timers due by the run's clock; nothing to journal when none is due. */
export function fireChartTimers(run: RunSnapshot, wf: Workflow, env: MachineEnv): { run: RunSnapshot; journal: JournalEntry[] } {
  if (run.status !== 'running' || !run.chart) return { run, journal: [] };
  const { now, ...rest } = stepOptions(run.workflow.file, env, run.counters, run);
  const r = interpreter().fireDueTimers(wf, run.chart, now, rest);
  if (r.snapshot === run.chart) return { run, journal: [] };
  const { run: next, entry } = applyResult(run, wf, r, 'timers', env.now());
  return { run: next, journal: [entry] };
}

/**
 * Runs `op` on a run whose due timers were fired first (every command that
 * loads a statechart run does this, with the run's clock); the journal has
 * the timers' entry, then the operation's. A flat run goes to `op` as it is.
 */
export function withDueTimers<O>(run: RunSnapshot, env: MachineEnv, op: (run: RunSnapshot) => { run: RunSnapshot; journal: JournalEntry[]; outcome: O }) {
  const wf = chartWorkflow(run, env);
  if (!wf) return op(run);
  const fired = fireChartTimers(run, wf, env);
  const r = op(fired.run);
  return { ...r, journal: [...fired.journal, ...r.journal] };
}
