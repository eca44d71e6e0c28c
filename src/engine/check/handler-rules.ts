/**
 * Handlers (docs/statechart-handlers.md): once the chart has a `handlers:`
 * table, every `invoke` action names one of its entries (without one, an
 * invoke action is only journaled, as the seed's examples expect); every
 * `handler:NAME` service names an entry;
 * a `flow:FILE` service and a `{flow: FILE}` handler name a file that
 * exists beside the chart (an `{mcp: ...}` handler's server is looked up
 * when it runs: MCP configuration is per machine). A `send` whose target is neither `parent`, an invoke
 * id nor a handler is reported once the chart declares handlers (before
 * that, a send target is the host's business, as in the seed's examples).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic, HandlerDef, SourceLoc, Workflow } from '../model/index.js';
import { parseSrc } from '../model/src-ref.js';
import type { ChartIndex } from './chart-walk.js';
import { closestName, didYouMean } from '../util/suggest.js';

export const CHART_UNKNOWN_HANDLER = 'chart-unknown-handler';
export const CHART_FLOW_MISSING = 'chart-flow-missing';
export const CHART_UNKNOWN_SEND_TARGET = 'chart-unknown-send-target';

export function handlerRules(wf: Workflow, index: ChartIndex, file: string | undefined, out: Diagnostic[]): void {
  const handlers = wf.chart?.handlers;
  const names = [...(handlers?.keys() ?? [])];
  // A chart without a `handlers:` table names handlers for its host only (the seed's own examples do):
  // the call is journaled and nothing runs, as before handlers existed. With a table, a name must be in it.
  if (handlers) {
    for (const action of index.actions) {
      if (action.type !== 'invoke' || handlers.has(action.handler)) continue;
      const closest = closestName(action.handler, names);
      out.push({
        severity: 'error',
        code: CHART_UNKNOWN_HANDLER,
        message: `This \`invoke\` action names the handler \`${action.handler}\`, which the chart's \`handlers:\` does not declare.${didYouMean(closest)}`,
        loc: action.loc,
        data: { handler: action.handler, ...(closest !== undefined ? { closest } : {}) },
      });
    }
  }
  const invokeIds = new Set(index.invokes.map((i) => i.id));
  if (handlers) {
    for (const action of index.actions) {
      if (action.type !== 'send' || action.to === 'parent' || invokeIds.has(action.to) || handlers.has(action.to)) continue;
      const closest = closestName(action.to, [...names, ...invokeIds, 'parent']);
      out.push({
        severity: 'warning',
        code: CHART_UNKNOWN_SEND_TARGET,
        message: `\`send\` to \`${action.to}\`: not \`parent\`, an invoke id of this chart or a declared handler, so the event goes nowhere.${didYouMean(closest)}`,
        loc: action.loc,
        data: { target: action.to },
      });
    }
  }
  for (const invoke of index.invokes) {
    const ref = parseSrc(invoke.src.name);
    if (ref.kind === 'handler') {
      if (!handlers?.has(ref.name)) {
        const closest = closestName(ref.name, names);
        out.push({
          severity: 'error',
          code: CHART_UNKNOWN_HANDLER,
          message: `\`${invoke.src.name}\` names a handler the chart's \`handlers:\` does not declare${handlers ? '' : ' (the chart has none)'}.${didYouMean(closest)}`,
          loc: invoke.src.loc,
          data: { handler: ref.name, ...(closest !== undefined ? { closest: `handler:${closest}` } : {}) },
        });
      }
    } else if (ref.kind === 'flow') {
      flowFile(ref.file, invoke.src.loc, file, out, `\`${invoke.src.name}\``);
    }
  }
  for (const [name, def] of handlers ?? []) checkDef(name, def, file, out);
}

function checkDef(name: string, def: HandlerDef, file: string | undefined, out: Diagnostic[]): void {
  if (def.kind === 'flow') flowFile(def.file, def.loc, file, out, `Handler \`${name}\``);
}

function flowFile(rel: string, loc: SourceLoc, file: string | undefined, out: Diagnostic[], what: string): void {
  if (rel.trim() === '') {
    out.push({ severity: 'error', code: CHART_FLOW_MISSING, message: `${what} needs the flow file to run, relative to this chart, e.g. \`flow:build.flow.yaml\`.`, loc });
    return;
  }
  if (file === undefined) return; // without the chart's file there is nothing to resolve against
  const abs = path.resolve(path.dirname(file), rel);
  if (fs.existsSync(abs)) return;
  out.push({ severity: 'error', code: CHART_FLOW_MISSING, message: `${what} runs the flow ${rel}, but ${abs} does not exist.`, loc, data: { file: rel } });
}
