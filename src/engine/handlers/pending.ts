/**
 * The handler work a statechart run is waiting for (docs/statechart-handlers.md):
 * its queued handler calls (`invoke` actions, `send`s to a handler), then its
 * running `handler:NAME` and `flow:FILE` invocations, in that order. Each
 * comes with what it runs, resolved against the run's own copy of the chart.
 */
import * as path from 'node:path';
import type { HandlerDef, JsonObject, Workflow } from '../model/index.js';
import type { RunSnapshot } from '../machine/run.js';
import { parseSrc } from '../statechart/src-ref.js';

/** What a handler runs, its flow file resolved against the chart's folder. */
export type HandlerWork =
  | { readonly kind: 'command'; readonly argv: readonly string[] }
  | { readonly kind: 'flow'; readonly file: string }
  | { readonly kind: 'mcp'; readonly server: string; readonly tool: string };

export interface PendingHandler {
  /** The call's id (`call-<n>`) or the invocation's id. */
  readonly id: string;
  /** `action`: a queued call (it leaves the queue when run); `service`: a running invocation (completed with its result). */
  readonly source: 'action' | 'service';
  /** The handler's name, or `flow:FILE` for a flow service. */
  readonly handler: string;
  readonly state: string;
  readonly params?: JsonObject;
  /** Undefined: the chart does not declare the handler (it fails with a reason). */
  readonly work?: HandlerWork;
}

function resolveDef(def: HandlerDef | undefined, chartFile: string | undefined): HandlerWork | undefined {
  if (!def) return undefined;
  if (def.kind === 'command') return { kind: 'command', argv: def.argv };
  if (def.kind === 'mcp') return { kind: 'mcp', server: def.server, tool: def.tool };
  return { kind: 'flow', file: chartFile ? path.resolve(path.dirname(chartFile), def.file) : path.resolve(def.file) };
}

export function pendingHandlers(run: RunSnapshot, wf: Workflow): PendingHandler[] {
  const handlers = wf.chart?.handlers;
  const file = run.workflow.file;
  const out: PendingHandler[] = [];
  for (const c of run.handlerCalls ?? []) {
    const work = resolveDef(handlers?.get(c.handler), file);
    out.push({ id: c.id, source: 'action', handler: c.handler, state: c.state, ...(c.params ? { params: c.params } : {}), ...(work ? { work } : {}) });
  }
  for (const inv of run.chart?.invocations ?? []) {
    if (inv.status !== 'running') continue;
    const ref = parseSrc(inv.src);
    let work: HandlerWork | undefined;
    if (ref.kind === 'handler') work = resolveDef(handlers?.get(ref.name), file);
    else if (ref.kind === 'flow') work = resolveDef({ kind: 'flow', file: ref.file, loc: wf.loc }, file);
    else continue;
    out.push({ id: inv.id, source: 'service', handler: ref.kind === 'handler' ? ref.name : inv.src, state: inv.state, ...(inv.input ? { params: inv.input } : {}), ...(work ? { work } : {}) });
  }
  return out;
}
