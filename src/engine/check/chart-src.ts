/**
 * Rule 8: every invoke `src` resolves. `agent:<name>` is any agent (VS Code
 * hands the task to the participant or the custom agent of that name);
 * `statechart:<id>[@version]` must be in the chart's `machine_registry` (with
 * that version, when one is given), or found by the resolver (the workspace's
 * `.stategate/registry.yaml` and chart ids); any other name must be in the
 * chart's `services` or, through the resolver, the workspace's.
 */
import type { ChartSrcResolver, Diagnostic, InvokeDef, Workflow } from '../model/index.js';
import { isInvokeProblem } from '../model/index.js';
import { parseSrc } from '../model/src-ref.js';
import { closestName, didYouMean } from '../util/suggest.js';
import type { ChartIndex } from './chart-walk.js';

export const CHART_UNKNOWN_SRC = 'chart-unknown-src';

export function srcRule(wf: Workflow, index: ChartIndex, resolveUncached: ChartSrcResolver | undefined, file: string | undefined, out: Diagnostic[]): void {
  // Asked once per name: a lookup reads the disk, and a chart may invoke the same service from many states.
  const memo = new Map<string, ReturnType<ChartSrcResolver>>();
  const resolve: ChartSrcResolver | undefined = resolveUncached && ((src, from) => {
    if (!memo.has(src)) memo.set(src, resolveUncached(src, from));
    return memo.get(src);
  });
  for (const invoke of index.invokes) {
    const problem = srcProblem(wf, invoke, resolve, file);
    if (problem) out.push({ severity: 'error', code: CHART_UNKNOWN_SRC, loc: invoke.src.loc, ...problem });
  }
}

function srcProblem(
  wf: Workflow,
  invoke: InvokeDef,
  resolve: ChartSrcResolver | undefined,
  file: string | undefined,
): Pick<Diagnostic, 'message' | 'data'> | undefined {
  const src = invoke.src.name;
  const ref = parseSrc(src);
  // `handler:` and `flow:` are checked against the chart's handlers and the disk by handler-rules.ts.
  if (ref.kind === 'handler' || ref.kind === 'flow') return undefined;
  if (ref.kind === 'agent') {
    return ref.name.trim() === '' ? { message: '`agent:` needs the name of the agent that takes the task, e.g. `agent:implementer`.' } : undefined;
  }
  if (ref.kind === 'statechart') {
    if (ref.id === '') return { message: '`statechart:` needs the id of the chart to run, e.g. `statechart:review_workflow`.' };
    const registry = wf.chart?.machineRegistry ?? [];
    if (registry.some((e) => e.id === ref.id && (ref.version === undefined || e.version === ref.version))) return undefined;
  } else if (wf.chart?.services?.some((s) => s.name === src)) {
    return undefined;
  }
  const found = resolve?.(src, file);
  if (isInvokeProblem(found)) return { message: `\`${src}\` cannot be looked up: ${found.problem}`, data: { src } };
  if (found || !resolve) return undefined; // without a resolver only what the chart itself says is checked
  if (ref.kind === 'statechart') {
    const ids = [...new Set((wf.chart?.machineRegistry ?? []).map((e) => e.id))];
    const sameId = (wf.chart?.machineRegistry ?? []).filter((e) => e.id === ref.id).map((e) => e.version ?? '(no version)');
    const closest = closestName(ref.id, ids);
    return {
      message: sameId.length
        ? `Statechart \`${ref.id}\` is registered with version ${sameId.join(', ')}, not ${ref.version}.`
        : `No statechart \`${ref.id}\`${ref.version ? ` version ${ref.version}` : ''} is registered in this chart's \`machine_registry\` or .stategate/registry.yaml, or found by id beside this file or in .stategate/workflows/.${didYouMean(closest)}`,
      data: { src, ...(closest !== undefined ? { closest: `statechart:${closest}` } : {}) },
    };
  }
  const services = (wf.chart?.services ?? []).map((s) => s.name);
  const closest = closestName(src, services);
  return {
    message:
      `\`${src}\` is not a known service. Use \`agent:<name>\` to hand the task to an agent, \`statechart:<id>\` to run a child chart, ` +
      `or list \`${src}\` under the chart's \`services\` (or in .stategate/registry.yaml).${didYouMean(closest)}`,
    data: { src, ...(closest !== undefined ? { closest } : {}) },
  };
}
