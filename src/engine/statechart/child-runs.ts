/**
 * Running child statecharts. A child is a machine like the run's own, kept in
 * its invocation (`child`: the definition text and the child's snapshot) and
 * driven by the same operations (`Operations`, passed in by index.ts so the
 * step files do not import the operations built on them):
 *
 * - started once the parent's macrostep is over (as XState starts invoked
 *   actors), with context = the child's defaults overlaid with the `input`;
 * - an event sent to the run goes to the innermost running child first (in
 *   start order, depth first); one the child does not handle goes to its
 *   parent, and so on up to the run's own chart;
 * - due timers fire across the tree in due order (a machine's own before its
 *   children's at the same time);
 * - a child reaching its root final state completes its invocation (`onDone`,
 *   `event.data.output` = the child's context); a failed child, or one ending
 *   in a final state of its `meta.failure_states`, fails it (`onError`, with
 *   `event.data.error` saying why).
 *
 * - a child's `emit EVENT` (and its `send` to `parent`) is delivered to the
 *   parent as EVENT, with its data, once the child's step is over: the
 *   parent's `on` handles it like an event sent to the run (unhandled, it is
 *   dropped, as an event no state takes).
 *
 * What a child did is journaled as one `child` effect holding its effects.
 */
import type { JsonObject, JsonValue, Workflow } from '../model/index.js';
import { MAX_CHILD_DEPTH } from './child-types.js';
import { runningChildren, treeDue } from './children.js';
import type { ChartEffect } from './effects.js';
import { finishInvocation } from './invoke.js';
import { macrostep, MAX_MICROSTEPS } from './macrostep.js';
import type { EventBinding, RunState, StepOptions } from './run-state.js';
import type { ChartInvocation, ChartSnapshot, ChildChart } from './snapshot.js';
import { nextDue, takeDueTimer } from './timers.js';

export interface ChildResult {
  readonly snapshot: ChartSnapshot;
  readonly transitioned: boolean;
  readonly effects: readonly ChartEffect[];
  readonly error?: string;
}

/** The interpreter's operations, run on a child. */
export interface Operations {
  start(wf: Workflow, options: StepOptions & { readonly context?: JsonObject }): ChildResult;
  send(wf: Workflow, s: ChartSnapshot, event: EventBinding, options: StepOptions): ChildResult;
  /** Fires the one timer due first in the machine's tree (unchanged snapshot: none was due). */
  fireNext(wf: Workflow, s: ChartSnapshot, options: StepOptions): ChildResult;
  complete(wf: Workflow, s: ChartSnapshot, outcome: { readonly id: string; readonly ok: boolean; readonly data?: JsonValue }, options: StepOptions): ChildResult;
}

/** Does the queued child work (starts, sends) and what it causes, until none is left. */
export function settleChildren(rs: RunState, ops: Operations): void {
  let rounds = 0;
  const limit = rs.options.maxMicrosteps ?? MAX_MICROSTEPS;
  while (rs.status === 'running' && rs.childWork?.length) {
    if (++rounds > limit) {
      rs.fail(`more than ${limit} child machine starts and completions for one event: invoked charts keep finishing and being started again; the run is failed`);
      return;
    }
    const work = rs.childWork.shift() as NonNullable<RunState['childWork']>[number];
    const inv = rs.invocations.find((i) => i.id === work.id && i.state === work.state && i.status === 'running');
    if (!inv) continue; // cancelled since (its state was exited in the same macrostep)
    if (work.kind === 'start') {
      startChild(rs, inv, ops);
      continue;
    }
    if (inv.child?.snapshot.status !== 'running') continue;
    const wf = childWorkflow(rs, inv);
    if (wf) applyChild(rs, inv, wf, ops.send(wf, inv.child.snapshot, work.event, childOptions(rs, inv.child.file)));
  }
}

/** Offers `event` to the running children, innermost first; true when one of them took it. */
export function routeToChildren(rs: RunState, event: EventBinding, ops: Operations): boolean {
  for (const inv of runningChildren(rs.invocations)) {
    const child = inv.child as ChildChart;
    const wf = childWorkflow(rs, inv);
    if (!wf) return true;
    const r = ops.send(wf, child.snapshot, event, childOptions(rs, child.file));
    if (r.transitioned || r.snapshot.status !== 'running') {
      applyChild(rs, inv, wf, r);
      return true;
    }
    // Not handled: only what went wrong on the way (a guard that failed to evaluate) is kept.
    if (r.effects.length) rs.effect({ type: 'child', id: inv.id, state: inv.state, effects: r.effects });
  }
  return false;
}

/** Fires the timer due first among the machine's own and its children's; false when none is due. */
export function fireNext(rs: RunState, ops: Operations): boolean {
  const now = rs.options.now;
  let best: ChartInvocation | undefined;
  let bestDue = Infinity;
  for (const inv of runningChildren(rs.invocations)) {
    const due = treeDue((inv.child as ChildChart).snapshot);
    if (due !== undefined && due <= now && due < bestDue) {
      best = inv;
      bestDue = due;
    }
  }
  const own = nextDue(rs.timers);
  if (own !== undefined && own <= now && own <= bestDue) {
    const due = takeDueTimer(rs);
    if (due) {
      macrostep(rs, due.event);
      return true;
    }
  }
  if (!best) return false;
  const child = best.child as ChildChart;
  const wf = childWorkflow(rs, best);
  if (!wf) return true;
  const r = ops.fireNext(wf, child.snapshot, childOptions(rs, child.file));
  if (r.snapshot === child.snapshot) return false;
  applyChild(rs, best, wf, r);
  return true;
}

/** Completes invocation `id` where it runs inside a child; undefined when no child has it, else the child's refusal if any. */
export function completeInChildren(rs: RunState, outcome: { readonly id: string; readonly ok: boolean; readonly data?: JsonValue }, ops: Operations): { error?: string } | undefined {
  for (const inv of runningChildren(rs.invocations)) {
    const child = inv.child as ChildChart;
    if (!hasInvocation(child.snapshot, outcome.id)) continue;
    const wf = childWorkflow(rs, inv);
    if (!wf) return {};
    const r = ops.complete(wf, child.snapshot, outcome, childOptions(rs, child.file));
    if (r.error && r.snapshot === child.snapshot) return { error: r.error };
    applyChild(rs, inv, wf, r);
    return {};
  }
  return undefined;
}

function hasInvocation(s: ChartSnapshot, id: string): boolean {
  return s.invocations.some((inv) => inv.status === 'running' && (inv.id === id || (inv.child?.snapshot.status === 'running' && hasInvocation(inv.child.snapshot, id))));
}

/** Starts the child machine of `inv`: resolved, depth-checked, started; a failure to start fails the invocation. */
function startChild(rs: RunState, inv: ChartInvocation, ops: Operations): void {
  const children = rs.options.children;
  if (!children) return;
  const depth = (rs.options.depth ?? 0) + 1;
  const max = children.maxDepth ?? MAX_CHILD_DEPTH;
  if (depth > max) {
    fail(rs, inv, `${inv.src} would run ${depth} machines deep (the limit is ${max}): the charts invoke each other without end; the child is not started`);
    return;
  }
  const found = children.resolve(inv.src, { workflow: rs.table.workflow, ...(rs.options.file === undefined ? {} : { file: rs.options.file }) });
  if ('problem' in found) {
    fail(rs, inv, found.problem);
    return;
  }
  const wf = found.workflow;
  const r = ops.start(wf, { ...childOptions(rs, found.file), ...(inv.input ? { context: inv.input } : {}) });
  const child: ChildChart = {
    id: wf.id,
    ...(wf.version === undefined ? {} : { version: String(wf.version) }),
    ...(found.file === undefined ? {} : { file: found.file }),
    text: found.text,
    snapshot: r.snapshot,
  };
  applyChild(rs, inv, wf, r, child);
}

/** Stores a child's result in its invocation, journals its effects, and completes the invocation when the child ended. */
function applyChild(rs: RunState, inv: ChartInvocation, wf: Workflow, r: ChildResult, started?: ChildChart): void {
  const child: ChildChart = started ?? { ...(inv.child as ChildChart), snapshot: r.snapshot };
  const list = rs.ownInvocations();
  const at = list.indexOf(inv);
  const updated: ChartInvocation = { ...inv, child };
  if (at >= 0) list[at] = updated;
  rs.touched = true;
  if (r.transitioned) rs.transitioned = true;
  rs.effect({ type: 'child', id: inv.id, state: inv.state, effects: r.effects });
  deliverUpward(rs, r.effects);
  const s = r.snapshot;
  if (s.status === 'failed') {
    fail(rs, updated, `the child statechart ${child.id} failed: ${s.error ?? 'no reason recorded'}`);
  } else if (s.status === 'done') {
    const output = s.output ?? s.context;
    const failure = s.configuration.find((id) => wf.meta.failureStates?.includes(id));
    if (failure !== undefined) fail(rs, updated, `the child statechart ${child.id} ended in "${failure}", one of its meta.failure_states`, { state: failure, output });
    else finish(rs, updated, true, { output });
  }
}

/**
 * The events a child's step addressed to its parent (`emit`, `send` to
 * `parent`), in the order it raised them, each processed by the parent to
 * rest. A grandchild's emit reached the child in the child's own step, so
 * only the child's own effects are read here.
 */
function deliverUpward(rs: RunState, effects: readonly ChartEffect[]): void {
  for (const e of effects) {
    if (rs.status !== 'running') return;
    if (e.type !== 'emit' && !(e.type === 'send' && e.to === 'parent')) continue;
    const binding: EventBinding = e.data === undefined ? { type: e.event } : { type: e.event, data: e.data };
    macrostep(rs, { kind: 'event', binding });
  }
}

function fail(rs: RunState, inv: ChartInvocation, error: string, more: JsonObject = {}): void {
  finish(rs, inv, false, { error, ...more });
}

function finish(rs: RunState, inv: ChartInvocation, ok: boolean, data: JsonObject): void {
  const event = finishInvocation(rs, inv.id, ok, data, 'child');
  if (typeof event === 'string') return;
  rs.transitioned = true;
  macrostep(rs, event);
}

/** The IR of a running child; when its kept text no longer loads, the invocation fails (undefined). */
function childWorkflow(rs: RunState, inv: ChartInvocation): Workflow | undefined {
  const child = inv.child as ChildChart;
  const wf = rs.options.children?.load(child.text);
  if (!wf) fail(rs, inv, `the definition kept for the child statechart ${child.id} no longer loads`);
  return wf;
}

/** A child's options: the run's clock, env and limits, one level deeper, resolving from the child's file. */
function childOptions(rs: RunState, file: string | undefined): StepOptions {
  const o = rs.options;
  return {
    now: o.now,
    ...(o.env ? { env: o.env } : {}),
    ...(o.agents ? { agents: o.agents } : {}),
    // The agent is held to a child's states as to the run's own: the same observed facts.
    ...(o.evidence ? { evidence: o.evidence } : {}),
    ...(o.maxMicrosteps === undefined ? {} : { maxMicrosteps: o.maxMicrosteps }),
    ...(o.children ? { children: o.children } : {}),
    depth: (o.depth ?? 0) + 1,
    ...(file === undefined ? {} : { file }),
  };
}
