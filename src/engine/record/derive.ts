/**
 * The run record, computed from the run: the previous record, the run as this
 * change left it, and the journal entries of the change. Pure (the git sha
 * comes from a function it calls only at a state change); record-file.ts
 * reads and writes the files. Where each field comes from is in
 * docs/run-record.md.
 */
import * as path from 'node:path';
import type { JsonObject, StateNode, Workflow } from '../model/index.js';
import type { JournalEntry, RunSnapshot, RunStatus } from '../machine/run.js';
import { boundsOf, costSoFar, formatCost, formatElapsed, formatShortElapsed } from './bounds.js';
import { intervention, upgradeRecord } from './seed-kinds.js';
import type { SeenSession } from './sessions-seen.js';
import { AGENT_STATE_VERSION, type ActiveAgent, type AgentStateRecord, type Checkpoint, type CompletedTask, type Intervention, type Learning, type RecordStatus, type RecordTrack } from './types.js';

/** The seed's default for `max_iterations_per_task`, written when the state sets no max_iterations. */
export const DEFAULT_MAX_ITERATIONS = 30;
/** What `max_cost` / `max_time` say when the workflow sets no such bound (the seed's fields are strings). */
export const NO_BOUND = 'none';

/** Lists that grow with every change keep their newest entries (the journal keeps them all). */
export const KEEP = { interventions: 200, completed_tasks: 200, checkpoints: 100, learnings: 500, milestones: 200 } as const;

export type SeqEntry = JournalEntry & { readonly seq: number };

export interface DeriveInputs {
  readonly run: RunSnapshot;
  readonly workflow: Workflow | undefined;
  /** The entries since the previous record, oldest first. */
  readonly entries: readonly SeqEntry[];
  readonly journalSeq: number;
  /** HEAD's sha, asked only when the state changed. */
  readonly gitSha: () => string | null;
  /** The workspace (a relative task_doc or workflow file is resolved from it) and the run folder. */
  readonly workspaceRoot?: string;
  readonly runDir?: string;
  /** The hook sessions noted in the run folder (sessions-seen.ts). */
  readonly sessions?: readonly SeenSession[];
}

export interface Derived {
  readonly record: AgentStateRecord;
  /** The snapshot file of this change's checkpoint (relative to the run folder), when the state changed. */
  readonly checkpoint?: { readonly file: string; readonly content: JsonObject };
  /** Snapshot files that dropped out of the record's list (removed by the writer). */
  readonly dropped: readonly string[];
  /** Learnings this change recorded, with their journal seq (appended to learnings.jsonl). */
  readonly learnings: readonly (Learning & { readonly seq: number })[];
}

const PLANNING = /plan|design|spec|analy|research|explor|triage|investigat|scope|discover/i;
const REVIEWING = /review|verif|check|test|qa|approv|audit|validat|inspect/i;

/** The top-level state a state is in: the workflow's phases are its top-level states. */
function phaseOf(wf: Workflow | undefined, state: string): string {
  let node = wf?.states.get(state);
  while (node?.parent !== undefined) node = wf!.states.get(node.parent);
  return node?.id ?? state;
}

/** The states a phase holds (its atomic and final descendants in definition order; a flat state holds itself). */
function tasksOf(wf: Workflow | undefined, phase: string): string[] {
  const node = wf?.states.get(phase);
  if (!node || node.children.length === 0) return [phase];
  const out: string[] = [];
  const walk = (n: StateNode) => {
    if (n.children.length === 0) out.push(n.id);
    for (const c of n.children) {
      const child = wf!.states.get(c);
      if (child) walk(child);
    }
  };
  walk(node);
  return out;
}

function phaseIndex(wf: Workflow | undefined, phase: string): number {
  const i = wf?.topLevel.indexOf(phase) ?? -1;
  return i < 0 ? 0 : i;
}

/** A failing final state: listed in meta.failure_states, or, with no list, named `failed`. */
function failedFinal(wf: Workflow | undefined, state: string): boolean {
  const list = wf?.meta.failureStates;
  const key = wf?.states.get(state)?.key ?? state;
  return list ? list.includes(state) || list.includes(key) : key === 'failed';
}

/** The seed's status: planning / executing / reviewing by the state's (then its phase's) name while the run goes on. */
export function recordStatus(wf: Workflow | undefined, state: string, status: RunStatus): RecordStatus {
  if (status === 'completed') return failedFinal(wf, state) ? 'failed' : 'completed';
  if (status === 'failed' || status === 'stopped') return 'failed';
  const key = wf?.states.get(state)?.key ?? state;
  for (const name of [key, phaseOf(wf, state)]) {
    if (PLANNING.test(name)) return 'planning';
    if (REVIEWING.test(name)) return 'reviewing';
  }
  return 'executing';
}

/** Booleans a transition's data reports: `success_criteria_met` when it is an object, else its top-level booleans. */
function criteriaOf(data: unknown): Record<string, boolean> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  const d = data as Record<string, unknown>;
  const source = d.success_criteria_met && typeof d.success_criteria_met === 'object' && !Array.isArray(d.success_criteria_met) ? (d.success_criteria_met as Record<string, unknown>) : d;
  const out: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(source)) if (typeof v === 'boolean') out[k] = v;
  return out;
}

function clip(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The supervisor's view of an entry: a denial, a refused transition, an interrupt, an approval step. */
function interventionOf(e: JournalEntry): Intervention | undefined {
  const at = e.at;
  switch (e.kind) {
    case 'tool_denied':
      return intervention({ timestamp: at, task: e.state, severity: e.bound ? 'critical' : 'high', resolution: clip(`${e.tool} denied: ${e.reason}`) }, { check_type: 'pre_tool', conflict_type: e.bound ? 'bound' : 'policy', action: 'deny' });
    case 'rejected':
      return intervention({ timestamp: at, task: e.state, severity: 'low', resolution: clip(`${e.event} refused (${e.code}): ${e.message}`) }, { check_type: 'transition', conflict_type: 'guard', action: 'refuse' });
    case 'interrupt':
      return intervention({ timestamp: at, task: e.from, severity: 'high', resolution: clip(`interrupt ${e.name}${e.file ? ` (${e.file})` : ''}: ${e.from} → ${e.to}`) }, { check_type: 'file_change', conflict_type: 'interrupt', action: 'interrupt' });
    case 'approval_requested':
      return intervention({ timestamp: at, task: e.from, severity: 'low', resolution: clip(`${e.event}: ${e.from} → ${e.target} waits for a person${e.message ? `: ${e.message}` : ''}`) }, { check_type: 'approval', conflict_type: 'approval', action: 'approval_requested' });
    case 'approved':
      return intervention({ timestamp: at, task: e.from, severity: 'low', resolution: `${e.event}: ${e.from} → ${e.target} approved` }, { check_type: 'approval', conflict_type: 'approval', action: 'approved' });
    case 'approval_rejected':
      return intervention({ timestamp: at, task: e.from, severity: 'low', resolution: `${e.event}: ${e.from} → ${e.target} rejected` }, { check_type: 'approval', conflict_type: 'approval', action: 'rejected' });
    case 'approval_withdrawn':
      return intervention({ timestamp: at, task: e.from, severity: 'low', resolution: clip(`${e.event}: ${e.from} → ${e.target} withdrawn: ${e.reason}`) }, { check_type: 'approval', conflict_type: 'approval', action: 'withdrawn' });
    case 'chart':
      return e.op === 'interrupt' && e.interrupt
        ? intervention({ timestamp: at, task: e.state, severity: 'high', resolution: clip(`interrupt ${e.interrupt}${e.file ? ` (${e.file})` : ''} → ${e.state}`) }, { check_type: 'file_change', conflict_type: 'interrupt', action: 'interrupt' })
        : undefined;
    default:
      return undefined;
  }
}

/**
 * The state a top-level entry moves the run to. A transition to the same state counts (the
 * state is left and entered again); the other kinds only when they change the state (a
 * `$return` journals both its transition and the interrupt's return).
 */
function moveOf(e: JournalEntry): { to: string; data?: unknown } | undefined {
  if (e.scope) return undefined;
  switch (e.kind) {
    case 'transition':
      return { to: e.to, data: e.data };
    case 'interrupt':
    case 'interrupt_return':
    case 'force':
      return { to: e.to };
    case 'join':
    case 'child_done':
      return e.to === undefined ? undefined : { to: e.to };
    case 'chart':
      return { to: e.state };
    default:
      return undefined;
  }
}

/** Calls counted over the run's life, at every level (forks' branches and child runs count their own). */
function stepsOf(run: RunSnapshot): number {
  let n = run.counters.stepsTotal;
  for (const b of run.fork?.branches ?? []) if (b.status !== 'pending') n += b.counters.stepsTotal;
  let child = run.child;
  while (child) {
    n += child.counters.stepsTotal;
    for (const b of child.fork?.branches ?? []) if (b.status !== 'pending') n += b.counters.stepsTotal;
    child = child.child;
  }
  return n;
}

function keepLast<T>(list: T[], n: number): T[] {
  return list.length > n ? list.slice(list.length - n) : list;
}

function emptyRecord(run: RunSnapshot): AgentStateRecord {
  return {
    version: AGENT_STATE_VERSION,
    orchestrator: { status: 'executing', task_doc: '', current_phase: 0, total_phases: 0, current_task: '1/1', ralph_iteration: 0, outer_ralph: false, start_time: run.createdAt, end_time: null },
    supervisor: { enabled: true, checks_performed: 0, conflicts_detected: 0, auto_fixes_applied: 0, re_plans_triggered: 0, last_check: null, interventions: [] },
    active_agents: [],
    completed_tasks: [],
    pending_tasks: [],
    safety_bounds: { max_iterations_per_task: DEFAULT_MAX_ITERATIONS, max_cost: NO_BOUND, max_time: NO_BOUND, cost_so_far: '$0.00', elapsed_time: '0h 0m 0s', warnings: [] },
    learnings: [],
    milestones: [],
    checkpoints: [],
    stategate: {
      run_id: run.runId,
      workflow: run.workflow.id,
      state: '',
      status: run.status,
      journal_seq: 0,
      state_entered: run.createdAt,
      files_edited: [],
      cost_at_entry: 0,
      phase_name: '',
      visited: [],
      checkpoint_count: 0,
      steps: 0,
    },
  };
}

function snapshotName(n: number): string {
  return `checkpoints/checkpoint-${String(n).padStart(3, '0')}.json`;
}

/**
 * `task_doc`, an absolute path: the context's `task_doc` (relative to the workspace), else the
 * workflow file the run started from, else (a run started from text) the run folder's run.json,
 * which holds that text.
 */
function taskDoc(run: RunSnapshot, inputs: DeriveInputs): string {
  const root = inputs.workspaceRoot ?? process.cwd();
  const doc = run.context.task_doc;
  if (typeof doc === 'string' && doc.trim() !== '') return path.resolve(root, doc);
  if (run.workflow.workspaceFile !== undefined) return path.resolve(root, ...run.workflow.workspaceFile.split('/'));
  if (run.workflow.file) return path.resolve(root, run.workflow.file);
  return path.join(inputs.runDir ?? path.join(root, '.stategate', 'runs', run.runId), 'run.json');
}

/**
 * The agents at work in the run while it goes on: each hook session the run has seen (the
 * fork branch it is bound to, where a binding names it), and each statechart `agent:`
 * invocation still running. `started` is when the record first listed it. All of them
 * execute the run's tasks: the seed's `task-executor`.
 */
function activeAgents(run: RunSnapshot, sessions: readonly SeenSession[], track: RecordTrack, now: string, ended: boolean): ActiveAgent[] {
  const seen: Record<string, string> = { ...(track.agents_seen ?? {}) };
  const out: ActiveAgent[] = [];
  if (!ended) {
    const status: ActiveAgent['status'] = run.status === 'paused' || run.pendingApproval ? 'waiting' : 'in_progress';
    const branchOf = new Map<string, string>();
    // Sessions bound to a fork's branch (`run bind`), where the run keeps them.
    for (const b of run.fork?.branches ?? []) {
      const bound = (b as { sessions?: unknown }).sessions;
      for (const id of Array.isArray(bound) ? bound : []) if (typeof id === 'string') branchOf.set(id, b.name);
    }
    const ids = new Map<string, string | undefined>(sessions.map((s) => [s.id, s.client]));
    for (const id of branchOf.keys()) if (!ids.has(id)) ids.set(id, undefined);
    for (const [id, client] of ids) {
      const key = `session:${id}`;
      seen[key] ??= now;
      const branch = branchOf.get(id);
      out.push({ type: 'task-executor', task: run.state, started: seen[key]!, iteration: run.counters.iterations, status, stategate: { kind: 'session', session_id: id, ...(client ? { client } : {}), ...(branch ? { branch } : {}) } });
    }
    for (const inv of run.chart?.invocations ?? []) {
      if (inv.status !== 'running' || !inv.src.startsWith('agent:')) continue;
      const key = `invocation:${inv.id}`;
      seen[key] ??= now;
      out.push({ type: 'task-executor', task: inv.state, started: seen[key]!, iteration: run.counters.iterations, status, stategate: { kind: 'invocation', invocation: inv.id, src: inv.src, state: inv.state } });
    }
  }
  // Only the agents listed now: a finished invocation's time is not kept for ever.
  const listed = Object.fromEntries(out.map((a) => (a.stategate.kind === 'session' ? `session:${a.stategate.session_id}` : `invocation:${a.stategate.invocation}`)).map((k) => [k, seen[k]!]));
  if (Object.keys(listed).length) track.agents_seen = listed;
  else delete track.agents_seen;
  return out;
}

/** The record after a change: `prev` (undefined for a new run, or one rebuilt from its whole journal) extended by `inputs`. */
export function deriveRecord(prev: AgentStateRecord | undefined, inputs: DeriveInputs): Derived {
  const { run, workflow: wf, entries } = inputs;
  const base = prev ? upgradeRecord(prev) : emptyRecord(run);
  const track: RecordTrack = { ...base.stategate };
  const sup = { ...base.supervisor, interventions: [...base.supervisor.interventions] };
  const completed: CompletedTask[] = [...base.completed_tasks];
  const milestones = [...base.milestones];
  const learnings: (Learning & { seq: number })[] = [];
  // The change's time on the run's clock: a denial journals its time without touching the run's.
  const now = entries.reduce((t, e) => (e.at > t ? e.at : t), run.updatedAt);
  let cur = track.state;
  let first = true;
  let moved = prev === undefined;

  const leave = (at: string, data: unknown) => {
    if (cur !== '') {
      completed.push({
        task: cur,
        name: wf?.states.get(cur)?.key ?? cur,
        completed: at,
        // What the state used as of the last change (the change that leaves it resets the counters).
        iterations: first ? track.state_iterations ?? 0 : 0,
        time_elapsed: formatShortElapsed(Date.parse(at) - Date.parse(track.state_entered)),
        cost: formatCost(run.usage ? costSoFar(run) - track.cost_at_entry : 0),
        files_modified: first ? track.files_edited : [],
        success_criteria_met: criteriaOf(data),
      });
    }
    first = false;
  };
  const enter = (to: string, at: string) => {
    const oldPhase = cur === '' ? '' : phaseOf(wf, cur);
    const newPhase = phaseOf(wf, to);
    if (oldPhase !== '' && oldPhase !== newPhase) milestones.push({ phase: phaseIndex(wf, oldPhase), name: oldPhase, completed: at, issue_url: '' });
    cur = to;
    track.state_entered = at;
    track.cost_at_entry = costSoFar(run);
    track.files_edited = [];
    track.state_iterations = 0;
    moved = true;
  };

  let checks = 0;
  for (const e of entries) {
    const iv = interventionOf(e);
    if (iv) {
      sup.interventions.push(iv);
      if (iv.stategate.action === 'deny' || iv.stategate.action === 'refuse' || iv.stategate.action === 'interrupt') sup.conflicts_detected++;
      if (iv.action === 're_plan') sup.re_plans_triggered++;
      if (iv.action === 'auto_fix') sup.auto_fixes_applied++;
      if (e.kind === 'tool_denied') checks++;
      sup.last_check = e.at;
    }
    if (e.kind === 'start' && !e.scope) enter(e.state, e.at);
    if (e.kind === 'learning') {
      learnings.push({ seq: e.seq, timestamp: e.at, task: e.state, iteration: e.iteration, type: e.type, lesson: e.lesson, pattern: e.pattern, context: e.context });
    }
    const move = moveOf(e);
    if (move && (e.kind === 'transition' || move.to !== cur)) {
      leave(e.at, move.data);
      enter(move.to, e.at);
    }
  }
  if (cur !== run.state) {
    // A change the entries do not show (a record rebuilt without its journal): the state still changed.
    leave(now, undefined);
    enter(run.state, now);
  }
  const steps = stepsOf(run);
  const counted = Math.max(0, steps - (track.steps ?? 0));
  if (counted > 0) sup.last_check = now;
  sup.checks_performed += checks + counted;
  track.steps = steps;

  track.state = run.state;
  track.status = run.status;
  track.journal_seq = inputs.journalSeq;
  track.run_id = run.runId;
  track.workflow = run.workflow.id;
  track.files_edited = [...run.counters.filesEdited];
  track.state_iterations = run.counters.iterations;
  track.phase_name = phaseOf(wf, run.state);
  const task = run.context.task;
  if (typeof task === 'string') track.task = task;
  else delete track.task;
  const visited = new Set([...track.visited, ...run.visited, run.state]);
  track.visited = [...visited];

  const phase = track.phase_name;
  const tasks = tasksOf(wf, phase);
  const taskIndex = Math.max(0, tasks.indexOf(run.state));
  const ended = run.status === 'completed' || run.status === 'failed' || run.status === 'stopped';
  const bounds = boundsOf(wf?.meta.raw);
  const endTime = ended ? (base.orchestrator.end_time ?? now) : null;
  const elapsedUntil = endTime ?? now;

  const pending = [];
  for (const top of wf?.topLevel ?? []) {
    for (const t of tasksOf(wf, top)) {
      const node = wf!.states.get(t);
      if (!visited.has(t) && node?.kind !== 'final') pending.push({ phase: phaseIndex(wf, top), task: t, name: node?.key ?? t });
    }
  }

  const checkpoints: Checkpoint[] = [...base.checkpoints];
  let checkpoint: Derived['checkpoint'];
  if (moved) {
    track.checkpoint_count = (track.checkpoint_count ?? 0) + 1;
    const file = snapshotName(track.checkpoint_count);
    checkpoints.push({ timestamp: now, phase: phaseIndex(wf, phase), task: run.state, git_sha: inputs.gitSha() ?? '', state_snapshot: file });
  }
  const keptCheckpoints = keepLast(checkpoints, KEEP.checkpoints);
  const dropped = checkpoints.slice(0, checkpoints.length - keptCheckpoints.length).map((c) => c.state_snapshot);

  const maxIterations = wf?.states.get(run.state)?.rules.maxIterations;
  const unbounded = [
    ...(maxIterations === undefined ? (['max_iterations_per_task'] as const) : []),
    ...(bounds.maxCostText === null ? (['max_cost'] as const) : []),
    ...(bounds.maxTimeText === null ? (['max_time'] as const) : []),
  ];
  if (unbounded.length) track.unbounded = [...unbounded];
  else delete track.unbounded;
  const agents = activeAgents(run, inputs.sessions ?? [], track, now, ended);

  const record: AgentStateRecord = {
    version: AGENT_STATE_VERSION,
    orchestrator: {
      status: recordStatus(wf, run.state, run.status),
      task_doc: taskDoc(run, inputs),
      current_phase: phaseIndex(wf, phase),
      total_phases: wf?.topLevel.length ?? 1,
      current_task: `${taskIndex + 1}/${tasks.length}`,
      ralph_iteration: run.counters.iterations,
      outer_ralph: false,
      start_time: run.createdAt,
      end_time: endTime,
    },
    supervisor: { ...sup, interventions: keepLast(sup.interventions, KEEP.interventions) },
    active_agents: agents,
    completed_tasks: keepLast(completed, KEEP.completed_tasks),
    pending_tasks: pending,
    safety_bounds: {
      max_iterations_per_task: maxIterations ?? DEFAULT_MAX_ITERATIONS,
      max_cost: bounds.maxCostText ?? NO_BOUND,
      max_time: bounds.maxTimeText ?? NO_BOUND,
      cost_so_far: formatCost(costSoFar(run)),
      elapsed_time: formatElapsed(Date.parse(elapsedUntil) - Date.parse(run.createdAt)),
      warnings: (run.boundWarnings ?? []).map((w) => w.message),
    },
    learnings: keepLast([...base.learnings, ...learnings.map(({ seq: _seq, ...l }) => l)], KEEP.learnings),
    milestones: keepLast(milestones, KEEP.milestones),
    checkpoints: keptCheckpoints,
    stategate: track,
  };
  if (moved) {
    const file = keptCheckpoints[keptCheckpoints.length - 1]!.state_snapshot;
    checkpoint = { file, content: { ...record, stategate: { ...track, context: run.context } } as unknown as JsonObject };
  }
  return { record, ...(checkpoint ? { checkpoint } : {}), dropped, learnings };
}

