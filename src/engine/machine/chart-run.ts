/**
 * Statechart runs in the one run store: the dispatch point between the flat
 * machine (operations.ts) and the statechart interpreter (../statechart/).
 * A statechart run keeps the interpreter's snapshot in `run.chart`; `state`
 * and `context` mirror it (the first active atomic state, the chart's
 * context) so views and the status bar that read `state` keep working.
 * Every operation journals one `chart` entry with the interpreter's effects
 * and the state and context it left, which is what replay reads.
 */
import type { JsonObject, JsonValue, Workflow } from '../model/index.js';
import { cloneJson } from '../model/json-value.js';
import * as chart from '../statechart/index.js';
import type { ChartEffect, ChartResult, ChartSnapshot } from '../statechart/index.js';
import type { MachineEnv } from './cursor.js';
import { freshCounters, resetStateCounters, RUN_SNAPSHOT_VERSION } from './run.js';
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

/** What `state` and `send` report on a statechart run (DESIGN.md "The CLI"). */
export interface ChartView {
  value: chart.StateValue;
  configuration: string[];
  timers: { state: string; transition: number; due: string; due_ms: number }[];
  invocations: chart.ChartInvocation[];
  output?: JsonValue;
  chart_error?: string;
}

export function chartView(wf: Workflow, s: ChartSnapshot): ChartView {
  return {
    value: chart.stateValue(wf, s),
    configuration: chart.configurationPaths(wf, s),
    timers: s.timers.map((t) => ({ state: t.state, transition: t.transition, due: new Date(t.due).toISOString(), due_ms: t.due })),
    invocations: [...s.invocations],
    ...(s.output === undefined ? {} : { output: s.output }),
    ...(s.error === undefined ? {} : { chart_error: s.error }),
  };
}

/** The run after a chart result: the snapshot stored, state/context mirrored, the `chart` journal entry. */
function applyResult(run: RunSnapshot, wf: Workflow, r: ChartResult, op: ChartOp, at: string, event?: string): { run: RunSnapshot; entry: JournalEntry } {
  const s = r.snapshot;
  const state = chart.configurationPaths(wf, s)[0] ?? run.state;
  const status = runStatus(s, run.status);
  const steps = r.effects.filter((e) => e.type === 'transition').length;
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
 * The run's counters after a step: transitions counted; the per-state ones
 * (iterations, files, edit lines, bytes) start again when any state was
 * exited, as they do on a state change of a flat run.
 */
function stateCounters(run: RunSnapshot, r: ChartResult, steps: number): Counters {
  const next = { ...run.counters, filesEdited: [...run.counters.filesEdited], transitions: run.counters.transitions + steps };
  if (r.effects.some((e) => e.type === 'exit')) resetStateCounters(next);
  return next;
}

export interface ChartStartOptions {
  runId: string;
  file?: string;
  hash: string;
  context?: JsonObject;
}

export function startChartRun(wf: Workflow, definitionText: string, opts: ChartStartOptions, env: MachineEnv): { run: RunSnapshot; journal: JournalEntry[] } {
  const at = env.now();
  const r = chart.startChart(wf, { now: chartClock(env), ...(opts.context ? { context: opts.context } : {}) });
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

function outcome(before: RunSnapshot, after: RunSnapshot, wf: Workflow, transitioned: boolean, event?: string, error?: MachineError): ChartOutcome {
  return {
    ...(event === undefined ? {} : { event }),
    transitioned,
    from: before.state,
    to: after.state,
    status: after.status,
    ...chartView(wf, after.chart as ChartSnapshot),
    ...(error ? { error } : {}),
  };
}

type Step = (wf: Workflow, s: ChartSnapshot, now: number) => ChartResult;

/** One interpreter operation on a running run, journaled; a refusal leaves the run as it was. */
export function step(run: RunSnapshot, wf: Workflow, env: MachineEnv, op: ChartOp, event: string | undefined, fn: Step): { run: RunSnapshot; journal: JournalEntry[]; outcome: ChartOutcome } {
  const at = env.now();
  if (run.status !== 'running') {
    const error: MachineError = { code: 'not_running', message: `the run is ${run.status}` };
    return { run, journal: [], outcome: outcome(run, run, wf, false, event, error) };
  }
  const r = fn(wf, run.chart as ChartSnapshot, chartClock(env));
  if (r.error && r.snapshot === run.chart) {
    const error: MachineError = { code: r.snapshot.status === 'running' ? 'unknown_event' : 'final_state', message: r.error };
    const rejected: JournalEntry = { kind: 'rejected', at, ...(event === undefined ? { event: op } : { event }), state: run.state, code: error.code, message: r.error };
    return { run, journal: [rejected], outcome: outcome(run, run, wf, false, event, error) };
  }
  const { run: next, entry } = applyResult(run, wf, r, op, at, event);
  return { run: next, journal: [entry], outcome: outcome(run, next, wf, r.transitioned, event) };
}

export function sendChartEvent(run: RunSnapshot, wf: Workflow, event: string, data: JsonValue | undefined, env: MachineEnv) {
  return step(run, wf, env, 'send', event, (w, s, now) => chart.sendEvent(w, s, data === undefined ? { type: event } : { type: event, data }, { now }));
}

export function completeChartInvocation(run: RunSnapshot, wf: Workflow, id: string, ok: boolean, data: JsonValue | undefined, env: MachineEnv) {
  return step(run, wf, env, ok ? 'done' : 'fail', id, (w, s, now) => chart.completeInvocation(w, s, { id, ok, ...(data === undefined ? {} : { data }) }, { now }));
}

/** Fires the timers due by the run's clock; nothing to journal when none is due. */
export function fireChartTimers(run: RunSnapshot, wf: Workflow, env: MachineEnv): { run: RunSnapshot; journal: JournalEntry[] } {
  if (run.status !== 'running' || !run.chart) return { run, journal: [] };
  const r = chart.fireDueTimers(wf, run.chart, chartClock(env));
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
