/**
 * Done events. Entering a final state makes its compound parent done (its
 * `onDone` event is queued); a parallel state is done when every region is
 * in a final state (`onAllDone`), which can make an enclosing parallel state
 * done in turn. A final state of the root completes the run: every active
 * state's exit actions run (innermost first, as XState does) and the run's
 * output is its context.
 */
import { runActions } from './actions.js';
import { cancelInvocations } from './invoke.js';
import type { ChartEvent, RunState } from './run-state.js';
import { cancelTimers } from './timers.js';

/** Whether `index` is in a final configuration: a final child active (compound), every region final (parallel). */
export function isInFinalState(rs: RunState, index: number): boolean {
  const node = rs.node(index);
  if (node.kind === 'compound') return node.states.some((c) => rs.active[c] === 1 && rs.node(c).kind === 'final');
  if (node.kind === 'parallel') return node.states.every((c) => isInFinalState(rs, c));
  return node.kind === 'final';
}

/**
 * After final state `index` was entered: queue the done events it causes.
 * `completed` holds the parallel states already reported done in this microstep.
 */
export function finalEntered(rs: RunState, index: number, completed: Set<number>): void {
  const parent = rs.node(index).parent;
  const parentNode = rs.node(parent);
  let marker = parentNode.kind === 'parallel' ? parent : parentNode.parent;
  if (parentNode.kind === 'compound') queueDone(rs, parent);
  while (marker >= 0 && rs.node(marker).kind === 'parallel' && !completed.has(marker) && isInFinalState(rs, marker)) {
    completed.add(marker);
    queueDone(rs, marker);
    marker = rs.node(marker).parent;
  }
  if (marker >= 0) return;
  rs.status = 'done';
  rs.output = rs.context;
}

function queueDone(rs: RunState, index: number): void {
  const node = rs.node(index);
  rs.queue.push({ kind: 'done', node: index, binding: { type: `xstate.done.state.${node.xid}` } });
  rs.effect({ type: 'state-done', state: node.id });
}

/** The run reached a final state of the root: exit actions of every active state, innermost first; timers and invocations end. */
export function completeRun(rs: RunState, event: ChartEvent): void {
  for (let i = rs.nodes.length - 1; i >= 0; i--) {
    if (!rs.active[i]) continue;
    const node = rs.node(i);
    runActions(rs, node.exit, event, node.id);
    cancelTimers(rs, i);
    cancelInvocations(rs, i);
  }
  rs.output = rs.context;
  rs.effect({ type: 'run-done', output: rs.output });
}
