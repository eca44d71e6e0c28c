/**
 * The operations a person or a file write applies to a statechart run
 * besides events: `force` (debug only), interrupts fired by an agent's write
 * (declared at the chart's root, as on flat workflows), and `reload` of an
 * edited definition. operations.ts dispatches here for statechart runs.
 *
 * - force: STATE is a dotted path from the root, or a state name that is
 *   unique in the chart. The run leaves its configuration and enters STATE
 *   with its default descendants, as a transition of the root would, whatever
 *   the guards say (statechart/force.ts); `--context` patches the context
 *   first; a parked approval and an active interrupt are cleared.
 * - interrupts: the first interrupt whose `file_pattern` matches jumps the
 *   run to its handler state the same way. It stays active while the handler
 *   state is active and ends when the run leaves it (chart-run.ts); no other
 *   fires meanwhile. `$return` is not a statechart target: a handler returns
 *   through a history state (docs/statecharts.md).
 * - reload: the run keeps its snapshot when every state, timer, invocation
 *   and history record it holds still exists in the new chart and the
 *   configuration is still a legal one there; otherwise the reload is refused
 *   with what would be lost (never a silent change).
 */
import type { JsonObject, Workflow } from '../model/index.js';
import { cloneJson } from '../model/json-value.js';
import { interpreter } from '../statechart/lazy.js';
import { resolveTarget, ROOT_ID } from '../statechart/targets.js';
import type { ChartSnapshot } from '../statechart/index.js';
import { applyResult, chartClock, chartView, inputBindings, isChartWorkflow, type ChartView } from './chart-run.js';
import type { MachineEnv } from './cursor.js';
import { matchInterrupt } from './patterns/interrupts.js';
import type { ForceOutcome, JournalEntry, MachineError, RunSnapshot } from './run.js';

export const FORCE_EVENT = 'stategate.force';

/** The state id `name` stands for: a dotted path from the root, or a key that only one state has. */
export function chartStateId(wf: Workflow, name: string): string | MachineError {
  if (wf.states.has(name)) return name;
  const byKey = [...wf.states.keys()].filter((id) => id.slice(id.lastIndexOf('.') + 1) === name);
  if (byKey.length === 1) return byKey[0] as string;
  if (byKey.length > 1) return { code: 'unknown_state', message: `"${name}" names several states (${byKey.join(', ')}); give the dotted path from the root` };
  return { code: 'unknown_state', message: `state "${name}" is not defined; states: ${[...wf.states.keys()].join(', ')}` };
}

/** The flat force's outcome, with the configuration the run was forced into. */
export type ChartForced = ForceOutcome & Partial<ChartView>;

/** `stategate run force STATE` on a statechart run (the caller checked meta.debug and that the run is not stopped). */
export function forceChart(run: RunSnapshot, wf: Workflow, state: string, patch: JsonObject | undefined, env: MachineEnv): { run: RunSnapshot; journal: JournalEntry[]; outcome: ChartForced } {
  const fail = (error: MachineError) => ({ run, journal: [], outcome: { forced: false, from: run.state, to: run.state, status: run.status, error } });
  const id = chartStateId(wf, state);
  if (typeof id !== 'string') return fail(id);
  const r = interpreter().jumpTo(wf, run.chart as ChartSnapshot, id, { now: chartClock(env), eventType: FORCE_EVENT, ...(patch ? { contextPatch: patch } : {}), ...inputBindings(run) });
  if (r.error && r.snapshot === run.chart) return fail({ code: 'unknown_state', message: r.error });
  const cleared = (['pendingApproval', 'interrupt'] as const).filter((k) => run[k] !== undefined);
  const base: RunSnapshot = { ...run };
  for (const k of cleared) delete base[k];
  const { run: next, entry } = applyResult(base, wf, r, 'force', env.now(), id);
  const journal = [{ ...entry, ...(patch ? { patch: cloneJson(patch) } : {}), cleared: [...cleared] } as JournalEntry];
  return { run: next, journal, outcome: { forced: true, from: run.state, to: next.state, status: next.status, cleared: [...cleared], ...chartView(wf, next.chart as ChartSnapshot) } };
}

export type ChartFileReason = 'no_match' | 'not_running' | 'final_state' | 'interrupt_active' | 'already_in_handler' | 'invalid_definition';

export interface ChartInterrupted {
  run: RunSnapshot;
  journal: JournalEntry[];
  fired?: { name: string; from: string; to: string };
  reason?: ChartFileReason;
}

/** A workspace-relative file written by an agent (or saved): fires the first matching root interrupt. */
export function chartFileChanged(run: RunSnapshot, wf: Workflow, relPath: string, env: MachineEnv): ChartInterrupted {
  const def = run.status === 'running' ? matchInterrupt(wf, relPath) : undefined;
  if (!def) return { run, journal: [], reason: run.status === 'running' ? 'no_match' : 'not_running' };
  return fireChartInterrupt(run, wf, def.name, env, relPath);
}

/** Fires the root interrupt `name` (a matching file write, or the `INTERRUPT:<name>` event). */
export function fireChartInterrupt(run: RunSnapshot, wf: Workflow, name: string, env: MachineEnv, file?: string): ChartInterrupted {
  const quiet = (reason: ChartFileReason): ChartInterrupted => ({ run, journal: [], reason });
  const snapshot = run.chart as ChartSnapshot;
  if (run.status !== 'running') return quiet('not_running');
  const def = wf.interrupts.find((i) => i.name === name);
  const target = def ? resolveTarget(wf, ROOT_ID, def.target) : undefined;
  if (!def || target === undefined) return quiet('invalid_definition');
  if (snapshot.status !== 'running') return quiet('final_state');
  if (run.interrupt) return quiet('interrupt_active');
  if (snapshot.configuration.includes(target)) return quiet('already_in_handler');
  const event = `INTERRUPT:${name}`;
  const jumped = interpreter().jumpTo(wf, snapshot, target, { now: chartClock(env), eventType: event, ...inputBindings(run) });
  // The jump is a transition of the run (flat runs count an interrupt as one): journaled as such.
  const r = { ...jumped, effects: [{ type: 'transition' as const, source: ROOT_ID, index: -1, trigger: `interrupt:${name}`, event, targets: [target] }, ...jumped.effects] };
  const at = env.now();
  const interrupted: RunSnapshot = { ...run, interrupt: { name, returnTo: run.state, target, ...(file === undefined ? {} : { file }), firedAt: at } };
  const { run: next, entry } = applyResult(interrupted, wf, r, 'interrupt', at, event);
  const journal = [{ ...entry, interrupt: name, ...(file === undefined ? {} : { file }) } as JournalEntry];
  // `from` names the whole configuration left (every region), not only the mirrored first state.
  const from = interpreter().configurationPaths(wf, snapshot).join(' | ') || run.state;
  return { run: next, journal, fired: { name, from, to: target } };
}

/**
 * What a reload to `next` would lose of the run's snapshot: states, timers,
 * invocations and history records the new chart does not have, and the
 * places where the configuration would not be a legal one (a compound state
 * without its one active child, a parallel state missing a region).
 */
export function lostOnReload(next: Workflow, s: ChartSnapshot): string[] {
  const { ROOT, chartTable } = interpreter();
  const { nodes, byId } = chartTable(next);
  const lost: string[] = [];
  for (const id of s.configuration) if (!byId.has(id)) lost.push(`active state ${id}`);
  for (const t of s.timers) {
    const row = byId.has(t.state) ? nodes[byId.get(t.state) as number] : undefined;
    if (!row?.after.some((g) => g.transitions.some((x) => x.index === t.transition))) lost.push(`the pending timer of ${t.state} (its after transition ${t.transition})`);
  }
  for (const i of s.invocations) if (i.status === 'running' && !byId.has(i.state)) lost.push(`the running invocation ${i.id} of ${i.state}`);
  for (const h of s.history) if (!byId.has(h.history) || h.states.some((x) => !byId.has(x))) lost.push(`the history record of ${h.history}`);
  if (lost.length) return lost;
  const active = new Set([ROOT, ...s.configuration.map((id) => byId.get(id) as number)]);
  for (const index of active) {
    const row = nodes[index];
    if (!row) continue;
    const children = row.states.filter((c) => active.has(c));
    const name = index === ROOT ? 'the chart root' : row.id;
    if (row.kind === 'parallel' && children.length !== row.states.length) lost.push(`${name} is now parallel and regions ${row.states.filter((c) => !active.has(c)).map((c) => nodes[c]?.id).join(', ')} would not be active`);
    else if (row.kind === 'compound' && children.length !== 1) lost.push(`${name} would have ${children.length} active children (a compound state has one)`);
    if (index !== ROOT && !active.has(row.parent)) lost.push(`${name} would be active without its parent`);
  }
  return lost;
}

/** Why a statechart run cannot take `next` as its definition (undefined: it can, keeping its snapshot). */
export function chartReloadRefusal(run: RunSnapshot, next: Workflow): MachineError | undefined {
  if (!isChartWorkflow(next)) return { code: 'invalid_definition', message: 'the run is a statechart run and the new definition is not a statechart; stop the run and start the new one' };
  const lost = lostOnReload(next, run.chart as ChartSnapshot);
  if (!lost.length) return undefined;
  return { code: 'unknown_state', message: `the new chart would lose what the run holds: ${lost.join('; ')}. Move the run (send events, or force with meta.debug) or stop it and start again` };
}
