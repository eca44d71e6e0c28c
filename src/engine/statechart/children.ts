/**
 * Child statecharts (`invoke: {src: statechart:<id>[@version]}`): what the
 * steps record while a macrostep runs. As XState starts invoked actors and
 * delivers `sendTo` events once the macrostep is over, a step only queues
 * the work here (`rs.childWork`); child-runs.ts does it when the parent is at
 * rest. Cancelling an invocation drops its queued work and journals what the
 * child had pending (its timers, its own children).
 */
import type { Workflow } from '../model/index.js';
import type { ChildWork } from './child-types.js';
import type { ChartEffect } from './effects.js';
import type { RunState } from './run-state.js';
import type { ChartInvocation, ChartSnapshot } from './snapshot.js';

export function queueChildWork(rs: RunState, work: ChildWork): void {
  (rs.childWork ??= []).push(work);
}

/** A `send` action's target: a running child machine of this run (its invocation), or undefined. */
export function childTarget(rs: RunState, to: string): ChartInvocation | undefined {
  if (!rs.options.children) return undefined;
  return rs.invocations.find((inv) => inv.id === to && inv.status === 'running' && inv.src.startsWith('statechart:'));
}

/** Invocation `inv` is cancelled: its queued work is dropped and what its child had pending is journaled. */
export function cancelChild(rs: RunState, inv: ChartInvocation): void {
  if (rs.childWork?.length) rs.childWork = rs.childWork.filter((w) => w.id !== inv.id || w.state !== inv.state);
  if (inv.child && inv.child.snapshot.status === 'running') {
    rs.effect({ type: 'child', id: inv.id, state: inv.state, effects: cancellation(inv.child.snapshot) });
  }
}

/** The effects of stopping a running child: its timers cancelled, its running children cancelled in turn. */
function cancellation(s: ChartSnapshot): ChartEffect[] {
  const out: ChartEffect[] = [];
  for (const t of s.timers) out.push({ type: 'timer-cancelled', state: t.state, transition: t.transition });
  for (const inv of s.invocations) {
    if (inv.status !== 'running') continue;
    if (inv.child && inv.child.snapshot.status === 'running') out.push({ type: 'child', id: inv.id, state: inv.state, effects: cancellation(inv.child.snapshot) });
    out.push({ type: 'invoke-cancelled', id: inv.id, state: inv.state });
  }
  return out;
}

/** The running children of a snapshot whose machines are running, in start order. */
export function runningChildren(invocations: readonly ChartInvocation[]): ChartInvocation[] {
  const out: ChartInvocation[] = [];
  for (const inv of invocations) if (inv.status === 'running' && inv.child?.snapshot.status === 'running') out.push(inv);
  return out;
}

/** The earliest due timer of a machine and its running children (undefined: none). */
export function treeDue(s: ChartSnapshot): number | undefined {
  let due: number | undefined;
  for (const t of s.timers) if (due === undefined || t.due < due) due = t.due;
  for (const inv of s.invocations) {
    if (inv.status !== 'running' || inv.child?.snapshot.status !== 'running') continue;
    const d = treeDue(inv.child.snapshot);
    if (d !== undefined && (due === undefined || d < due)) due = d;
  }
  return due;
}

/**
 * The innermost running child machine (the one events go to first): down
 * from `s` through the first running child at each level. Undefined when `s`
 * runs no child (or a child's kept definition does not load).
 */
export function innermostChild(s: ChartSnapshot, load: (text: string) => Workflow | undefined): { readonly workflow: Workflow; readonly snapshot: ChartSnapshot; readonly path: readonly ChartInvocation[] } | undefined {
  let found: { workflow: Workflow; snapshot: ChartSnapshot; path: ChartInvocation[] } | undefined;
  for (let level = s; ; ) {
    const inv = runningChildren(level.invocations)[0];
    const child = inv?.child;
    const wf = child && load(child.text);
    if (!inv || !child || !wf) return found;
    found = { workflow: wf, snapshot: child.snapshot, path: [...(found?.path ?? []), inv] };
    level = child.snapshot;
  }
}
