/**
 * `parallel`: its tasks started together, each an inline `{tool, arguments,
 * output}` or the name of a state of the flow (that state's tool, arguments
 * and output; its routing is not used). Each task's output is captured as its
 * own `output` says; the state's exit code is the first non-zero one in task
 * order (0 when all succeed), and its stdout the tasks' stdout in task order.
 */
import type { FlowOutput, FlowStep, JsonObject, Workflow } from '../model/index.js';
import type { ToolOutcome } from './host.js';
import { runEffect, type EffectCall, type EffectContext } from './effects.js';
import type { CustomFlowTool } from '../formats/flow-tool-registry.js';
import { renderValue, type Variables } from './template.js';

export interface TaskCall {
  /** The state a state-name task names (its `--answers` key); undefined for an inline task. */
  readonly state?: string;
  readonly tool: string;
  readonly args: JsonObject;
  readonly output?: FlowOutput;
}

/** The tasks of a parallel step with their arguments templated (an undefined variable throws before any starts). */
export function parallelTasks(step: FlowStep, wf: Workflow, vars: Variables): TaskCall[] {
  return (step.tasks ?? []).map((t) => {
    const src = t.kind === 'call' ? t : wf.states.get(t.state.name)?.flow;
    if (!src) return { tool: `(missing state ${t.kind === 'state' ? t.state.name : ''})`, args: {} };
    return { ...(t.kind === 'state' ? { state: t.state.name } : {}), tool: src.tool, args: renderValue(src.arguments, vars) as JsonObject, ...(src.output ? { output: src.output } : {}) };
  });
}

/** A state-name task runs as that state (a sibling of the parallel state: same sub-flow level), an inline one as the parallel state. */
function taskCall(path: string, name: string, task: TaskCall, tools: ReadonlyMap<string, CustomFlowTool> | undefined): EffectCall {
  const custom = tools?.get(task.tool);
  const call = task.state === undefined
    ? { path, name, tool: task.tool, args: task.args }
    : { path: path.replace(/[^/]*$/, task.state), name: task.state, tool: task.tool, args: task.args };
  return custom ? { ...call, custom } : call;
}

export interface TaskResult {
  readonly task: TaskCall;
  readonly outcome: ToolOutcome;
}

export async function runParallel(ctx: EffectContext, path: string, name: string, tasks: readonly TaskCall[], tools?: ReadonlyMap<string, CustomFlowTool>): Promise<{ results: TaskResult[]; outcome: ToolOutcome }> {
  const outcomes = await Promise.all(tasks.map((task) => runEffect(ctx, taskCall(path, name, task, tools)).catch((err: unknown): ToolOutcome => ({ exitCode: 1, stdout: '', message: (err as Error).message }))));
  const results = tasks.map((task, i) => ({ task, outcome: outcomes[i] as ToolOutcome }));
  const failed = results.find((r) => r.outcome.exitCode !== 0);
  const stdout = results.map((r) => r.outcome.stdout).join('');
  const message = failed?.outcome.message ?? (failed ? `parallel task ${results.indexOf(failed) + 1} (\`${failed.task.tool}\`) exited with ${failed.outcome.exitCode}` : undefined);
  return { results, outcome: { exitCode: failed?.outcome.exitCode ?? 0, stdout, ...(message !== undefined ? { message } : {}) } };
}
