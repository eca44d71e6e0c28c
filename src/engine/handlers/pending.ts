/**
 * The handler work a statechart run is waiting for (docs/statechart-handlers.md):
 * its queued handler calls (`invoke` actions, `send`s to a handler), then its
 * running `handler:NAME` and `flow:FILE` invocations, its running child
 * statecharts' included (depth first, in start order). Each comes with what
 * it runs, resolved against the chart that declares it (the run's own copy,
 * or the copy a child keeps), and that chart's file and text, which a person
 * must trust.
 */
import * as path from 'node:path';
import type { HandlerDef, JsonObject, Workflow } from '../model/index.js';
import type { RunSnapshot } from '../machine/run.js';
import type { ChartSnapshot } from '../statechart/snapshot.js';
import { parseSrc } from '../model/src-ref.js';

/** What a handler runs, its flow file resolved against the chart's folder. */
export type HandlerWork =
  | { readonly kind: 'command'; readonly argv: readonly string[] }
  | { readonly kind: 'flow'; readonly file: string }
  | { readonly kind: 'mcp'; readonly server: string; readonly tool: string };

/** The chart a handler belongs to: the one a person trusts for it. */
export interface HandlerChart {
  readonly workflow: Workflow;
  /** Undefined: a chart with no file (nothing a person could have trusted). */
  readonly file?: string;
  readonly text: string;
}

export interface PendingHandler {
  /** The call's id (`call-<n>`) or the invocation's id. */
  readonly id: string;
  /** `action`: a queued call (it leaves the queue when run); `service`: a running invocation (completed with its result). */
  readonly source: 'action' | 'service';
  /** The handler's name, or `flow:FILE` for a flow service. */
  readonly handler: string;
  readonly state: string;
  readonly params?: JsonObject;
  readonly chart: HandlerChart;
  /** Undefined: the chart does not declare the handler (it fails with a reason). */
  readonly work?: HandlerWork;
}

function resolveDef(def: HandlerDef | undefined, chartFile: string | undefined): HandlerWork | undefined {
  if (!def) return undefined;
  if (def.kind === 'command') return { kind: 'command', argv: def.argv };
  if (def.kind === 'mcp') return { kind: 'mcp', server: def.server, tool: def.tool };
  return { kind: 'flow', file: chartFile ? path.resolve(path.dirname(chartFile), def.file) : path.resolve(def.file) };
}

/** `load`: a child's kept definition text to its IR (the run's env.load). */
export function pendingHandlers(run: RunSnapshot, wf: Workflow, load: (text: string) => Workflow | undefined): PendingHandler[] {
  const own: HandlerChart = { workflow: wf, text: run.workflow.definitionText, ...(run.workflow.file === undefined ? {} : { file: run.workflow.file }) };
  const out: PendingHandler[] = [];
  for (const c of run.handlerCalls ?? []) {
    const work = resolveDef(wf.chart?.handlers?.get(c.handler), own.file);
    out.push({ id: c.id, source: 'action', handler: c.handler, state: c.state, ...(c.params ? { params: c.params } : {}), chart: own, ...(work ? { work } : {}) });
  }
  if (run.chart) services(run.chart, own, load, out, 0);
  return out;
}

/** Children nest at most this deep (as the interpreter allows): a bound on the walk, whatever the snapshot says. */
const MAX_DEPTH = 16;

function services(s: ChartSnapshot, chart: HandlerChart, load: (text: string) => Workflow | undefined, out: PendingHandler[], depth: number): void {
  for (const inv of s.invocations) {
    if (inv.status !== 'running') continue;
    const child = inv.child;
    if (child) {
      const cw = child.snapshot.status === 'running' && depth < MAX_DEPTH ? load(child.text) : undefined;
      if (cw) services(child.snapshot, { workflow: cw, text: child.text, ...(child.file === undefined ? {} : { file: child.file }) }, load, out, depth + 1);
      continue;
    }
    const ref = parseSrc(inv.src);
    let work: HandlerWork | undefined;
    if (ref.kind === 'handler') work = resolveDef(chart.workflow.chart?.handlers?.get(ref.name), chart.file);
    else if (ref.kind === 'flow') work = resolveDef({ kind: 'flow', file: ref.file, loc: chart.workflow.loc }, chart.file);
    else continue;
    out.push({ id: inv.id, source: 'service', handler: ref.kind === 'handler' ? ref.name : inv.src, state: inv.state, ...(inv.input ? { params: inv.input } : {}), chart, ...(work ? { work } : {}) });
  }
}

/** Whether invocation `id` still runs somewhere in the snapshot's tree. */
export function stillRunning(s: ChartSnapshot, id: string, depth = 0): boolean {
  return s.invocations.some(
    (inv) => inv.status === 'running' && (inv.id === id || (depth < MAX_DEPTH && inv.child?.snapshot.status === 'running' && stillRunning(inv.child.snapshot, id, depth + 1))),
  );
}
