/**
 * Invoke: a child run of another workflow. The parent waits in the invoking
 * state; the child starts at its own initial state with context = `input`,
 * enforced by its own states' rules. When the child reaches a final state it
 * succeeds or fails by the failure rule (`meta.failure_states`, else a state
 * named `failed`); the parent merges the child's whole context into its own
 * and moves to `on_complete` / `on_fail`. Without `on_fail` a failure moves the
 * parent to its `failed` state if it has one, else the parent frame fails.
 */
import type { InvokeTransition, JsonValue } from '../../model/index.js';
import { isInvokeProblem } from '../../model/index.js';
import { cloneJson, mergeShallow } from '../../model/json-value.js';
import type { Op } from '../cursor.js';
import { afterMove, failedStateOf, resumeFrame } from '../progress.js';
import type { ChildRun, MachineError } from '../run.js';
import { freshCounters, hashText } from '../run.js';

export function startInvoke(
  op: Op,
  frameIdx: number,
  event: string,
  t: InvokeTransition,
  data: JsonValue | undefined,
): MachineError | ChildRun {
  const parent = op.frame(frameIdx);
  const found = op.env.resolveInvoke(t.workflow.name, parent.workflow.file);
  if (isInvokeProblem(found)) return { code: 'invoke_unresolved', message: `cannot invoke "${t.workflow.name}": ${found.problem}` };
  if (!found) {
    return { code: 'invoke_unresolved', message: `no workflow "${t.workflow.name}" was found to invoke (by id, or by a name in a manifest.json registry)` };
  }
  const wf = found.workflow;
  const initial = wf.initial.name;
  if (!wf.states.has(initial)) {
    return { code: 'invoke_unresolved', message: `the invoked workflow "${wf.id}" has no initial state "${initial}"` };
  }
  parent.context = mergeShallow(parent.context, data);
  const input = cloneJson(t.input ?? {});
  const hash = hashText(found.text);
  const child: ChildRun = {
    workflow: { id: wf.id, ...(found.file === undefined ? {} : { file: found.file }), hash, definitionText: found.text },
    status: 'running',
    state: initial,
    context: input,
    counters: freshCounters(),
    visited: [initial],
    taken: [],
    event,
    from: parent.state,
    invoked: t.workflow.name,
    onComplete: t.onComplete.name,
    ...(t.onFail ? { onFail: t.onFail.name } : {}),
    startedAt: op.at,
  };
  parent.child = child;
  op.forgetWorkflow(frameIdx + 1);
  op.log({ frame: frameIdx }, {
    kind: 'invoke_start',
    event,
    from: parent.state,
    invoked: t.workflow.name,
    workflowId: wf.id,
    ...(found.file === undefined ? {} : { file: found.file }),
    hash,
    state: initial,
    input,
    ...(data === undefined ? {} : { data }),
  });
  // A child whose initial state is already final returns at once.
  afterMove(op, { frame: frameIdx + 1 }, wf);
  return child;
}

/** The child in frame `childIdx` ended: the parent resumes (or fails). */
export function completeChild(op: Op, childIdx: number, outcome: 'complete' | 'fail'): void {
  const parentIdx = childIdx - 1;
  const parent = op.frame(parentIdx);
  const child = parent.child;
  if (!child) return;
  delete parent.child;
  op.forgetWorkflow(childIdx);
  const parentWf = op.workflow(parentIdx);
  const to = outcome === 'complete' ? child.onComplete : (child.onFail ?? (parentWf ? failedStateOf(parentWf) : undefined));
  resumeFrame(op, parentIdx, to, child.context, { kind: 'child_done', outcome, from: parent.state, childState: child.state, patch: child.context });
}
