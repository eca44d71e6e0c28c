/**
 * Invocations: started when their state is entered (after its entry actions),
 * cancelled when it is exited (after its exit actions). An invocation is
 * handed out to whoever runs it (`agent:<name>` to an agent, a service to the
 * host) and completed later with `completeInvocation`, which delivers its
 * done or error event to the chart as an event of its own.
 *
 * `statechart:<id>[@version]` children run as machines of their own when
 * the host gives `options.children` (children.ts, child-runs.ts): the child
 * starts once the macrostep is over, and its invocation completes when the
 * child reaches its root final state (or fails), never by `run done|fail`.
 * Without `options.children` such an invocation is handed out like the others.
 */
import type { JsonValue, Workflow } from '../model/index.js';
import { evaluateData } from './expressions.js';
import type { ChartEvent, RunState } from './run-state.js';
import type { ChartInvocation } from './snapshot.js';
import { cancelChild, queueChildWork } from './children.js';
import { isHostRun, STATECHART_PREFIX } from '../model/src-ref.js';

/** Finds the machine a `statechart:<id>[@version]` src names (through the machine registry and the workspace). */
export type ChildChartResolver = (src: string) => Workflow | undefined;

function isChildChart(rs: RunState, inv: ChartInvocation): boolean {
  return rs.options.children !== undefined && inv.src.startsWith(STATECHART_PREFIX);
}

/** Starts the invocations of `index` (just entered). */
export function startInvocations(rs: RunState, index: number, event: ChartEvent): void {
  const node = rs.node(index);
  for (const def of node.invoke) {
    // A state XState "enters" again while it is still active (history restored below it) keeps its running
    // invocation: the task is not handed out twice (XState would start a second child under the same id).
    if (rs.invocations.some((inv) => inv.id === def.id && inv.state === node.id && inv.status === 'running')) continue;
    const errors: string[] = [];
    const input = def.input ? evaluateData(rs, def.input, event.binding, errors) : undefined;
    for (const message of errors) rs.effect({ type: 'action-error', state: node.id, action: `invoke ${def.id}`, message });
    const invocation: ChartInvocation = { id: def.id, state: node.id, src: def.src.name, status: 'running', ...(input ? { input } : {}) };
    rs.ownInvocations().push(invocation);
    rs.touched = true;
    rs.effect({ type: 'invoke-started', id: def.id, state: node.id, src: def.src.name, ...(input ? { input } : {}) });
    if (isChildChart(rs, invocation)) queueChildWork(rs, { kind: 'start', id: def.id, state: node.id });
  }
}

/** Cancels the invocations of `index` (being exited) and forgets the finished ones. */
export function cancelInvocations(rs: RunState, index: number): void {
  const id = rs.node(index).id;
  if (!rs.invocations.some((inv) => inv.state === id)) return;
  const kept: ChartInvocation[] = [];
  for (const inv of rs.invocations) {
    if (inv.state !== id) kept.push(inv);
    else if (inv.status === 'running') {
      cancelChild(rs, inv);
      rs.effect({ type: 'invoke-cancelled', id: inv.id, state: id });
    }
  }
  rs.setInvocations(kept);
  rs.touched = true;
}

/**
 * Marks the running invocation `invokeId` done (ok) or failed and returns the
 * event that reports it; an error message when no such invocation is running,
 * or when it runs a child statechart and `by` is not 'child' (such a child
 * ends by reaching its final state, not by being told), or a handler or flow
 * and `by` is not 'host' (its result is what the handler did: an agent that
 * could say "done" would skip it).
 */
export function finishInvocation(rs: RunState, invokeId: string, ok: boolean, data: JsonValue | undefined, by?: 'child' | 'host'): ChartEvent | string {
  const at = rs.invocations.findIndex((inv) => inv.id === invokeId && inv.status === 'running');
  if (at < 0) {
    const known = rs.invocations.filter((inv) => inv.status === 'running').map((inv) => inv.id);
    return `no running invocation "${invokeId}"${known.length ? ` (running: ${known.join(', ')})` : ' (none is running)'}`;
  }
  const found = rs.invocations[at] as ChartInvocation;
  if (by !== 'host' && isHostRun(found.src)) {
    return `invocation "${invokeId}" runs ${found.src}: it ends when the handler has run (in VS Code, or \`stategate run handlers\` in a person's terminal), not by run done|fail`;
  }
  if (by !== 'child' && isChildChart(rs, found)) {
    return (
      `invocation "${invokeId}" runs the child statechart ${found.src.slice(STATECHART_PREFIX.length)}: it ends when the child reaches ` +
      `its final state (or fails), not by run done|fail; send the child its events with \`stategate run send EVENT\``
    );
  }
  const list = rs.ownInvocations();
  list[at] = { ...(list[at] as ChartInvocation), status: ok ? 'done' : 'failed' };
  rs.effect({ type: 'invoke-completed', id: invokeId, ok, ...(data === undefined ? {} : { data }) });
  const type = ok ? `xstate.done.actor.${invokeId}` : `xstate.error.actor.${invokeId}`;
  return { kind: ok ? 'invoke-done' : 'invoke-error', invokeId, binding: data === undefined ? { type } : { type, data } };
}
