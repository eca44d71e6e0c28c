/**
 * The `state` view of a statechart run (describe.ts builds the flat one).
 *
 * - `active_states`: for each active atomic state (document order) its
 *   effective rules (narrowed by its ancestors, machine/chart-rules.ts), and
 *   its limits with the node that declares each and what that node has used.
 * - The flat rule fields stay meaningful for readers that know only them:
 *   what at least one active state allows (a call is allowed when one active
 *   state allows it): `allowed_tools` is the union (null when one state
 *   allows every tool), `disallowed_tools` what every state denies,
 *   `allowed_commands` the union (null when one state has no list),
 *   `blocked_env` every variable some state blocks; `instructions` joins the
 *   states' instructions; the limits, `iteration` and `max_iterations` are
 *   those of the first active state.
 * - `transitions`: the events the whole configuration handles: for each
 *   active atomic state walking up to the chart's root (innermost first, each
 *   node once), every transition on a named event, with its source, targets,
 *   its guard evaluated on the context now (null where it cannot be: it reads
 *   event data, say), and whether sending the event now would take it (the
 *   interpreter is run on a copy: nothing is stored).
 */
import type { JsonObject, StateRules, Workflow } from '../model/index.js';
import { pathScopeOf } from '../util/paths/scope.js';
import { effectiveRules, LIMIT_KEYS, levels, limitOwners, type LimitKey } from './chart-rules.js';
import { interpreter } from '../statechart/lazy.js';
import { resolveTarget, ROOT_ID } from '../statechart/targets.js';
import type { ChartSnapshot } from '../statechart/index.js';
import { chartClock, inputBindings } from './chart-run.js';
import { evidenceView } from './evidence.js';
import type { MachineEnv } from './cursor.js';
import type { NodeCounters, RunSnapshot } from './run.js';
import type { LimitsView, RuleFieldsView } from './rule-fields.js';

export interface LimitView {
  limit: number;
  /** The node that declares it (the state itself or an ancestor); its count resets when that node is exited. */
  declared_by: string;
  used: number;
}

export interface ActiveStateView extends RuleFieldsView {
  state: string;
  /** Every level (the state, its ancestors) that lists allowed_commands: a command must match each; `allowed_commands` is the innermost list. */
  command_levels: { state: string; allowed_commands: readonly string[] }[];
  limits: Record<keyof LimitsView, LimitView | null>;
}

/** A transition of the configuration (the flat view's fields first: `event`, `target`, `guards`, `requires_approval`, `available`). */
export interface ChartTransitionView {
  event: string;
  /** The first target (`''`: a targetless transition, which only runs its actions). */
  target: string;
  /** The guard as the flat view gives guards: its text, and false where it cannot be evaluated (as the interpreter takes it). */
  guards: { name: string; passes: boolean }[];
  requires_approval: false;
  /** Whether sending the event now would take this transition. */
  available: boolean;
  /** The state whose transition it is (`''`: the chart's root). */
  source: string;
  /** Every target, resolved to state ids. */
  targets: string[];
  /** The guard as written and its result now; null: no guard. `passes` is null where it cannot be evaluated yet. */
  guard: { expression: string; passes: boolean | null; error?: string } | null;
}

/** Whether a `transitions` entry of a `state` view is a statechart run's (it names its source and every target). */
export function isChartTransition(t: { readonly event: string }): t is ChartTransitionView {
  return 'targets' in t && 'source' in t;
}

/** What a statechart run's `state` view has instead of the flat one's fields of the same names, and `active_states`. */
export interface ChartStateFields extends RuleFieldsView {
  iteration: number;
  max_iterations: number | null;
  limits: LimitsView;
  transitions: ChartTransitionView[];
  active_states: ActiveStateView[];
}

const LIMIT_FIELDS: Record<LimitKey, keyof ActiveStateView['limits']> = {
  maxIterations: 'max_iterations',
  maxEditLines: 'max_edit_lines',
  maxFilesPerState: 'max_files_per_state',
  contextBudgetBytes: 'context_budget_bytes',
};

function used(key: LimitKey, c: NodeCounters | undefined): number {
  if (!c) return 0;
  if (key === 'maxIterations') return c.iterations;
  if (key === 'maxEditLines') return c.editLines;
  if (key === 'maxFilesPerState') return c.filesEdited.length;
  return c.bytesRead;
}

function activeState(wf: Workflow, run: RunSnapshot, id: string): ActiveStateView {
  const rules = effectiveRules(wf, id);
  const owners = limitOwners(wf, id);
  const limits = {} as ActiveStateView['limits'];
  for (const key of LIMIT_KEYS) {
    const owner = owners[key];
    const limit = rules[key];
    const counters = owner !== undefined && run.nodeCounters && Object.prototype.hasOwnProperty.call(run.nodeCounters, owner) ? run.nodeCounters[owner] : undefined;
    limits[LIMIT_FIELDS[key]] = owner === undefined || limit === undefined ? null : { limit, declared_by: owner, used: used(key, counters) };
  }
  const scope = pathScopeOf(rules);
  // Every level's instructions, outermost first: a phase's and its step's both hold.
  const instructions = levels(wf, id)
    .map((n) => n.rules.instructions)
    .filter((text): text is string => typeof text === 'string' && text !== '');
  return {
    state: id,
    instructions: instructions.length ? instructions.join('\n') : null,
    allowed_tools: rules.allowedTools ?? null,
    disallowed_tools: rules.disallowedTools,
    allowed_commands: rules.allowedCommands ?? null,
    command_levels: levels(wf, id).flatMap((n) => (n.rules.allowedCommands ? [{ state: n.id, allowed_commands: n.rules.allowedCommands }] : [])),
    blocked_env: rules.blockedEnv,
    env_overrides: rules.envOverrides,
    allowed_paths: scope.allowed ?? null,
    denied_paths: scope.denied,
    writes_outside_workspace: !scope.outsideDenied && scope.allowed === undefined,
    model: rules.model ?? null,
    thinking_level: rules.thinkingLevel ?? null,
    limits,
  };
}

/** `a ∪ b`, where null stands for "everything". */
function unionOrAll(lists: readonly (readonly string[] | null)[]): string[] | null {
  if (lists.some((l) => l === null)) return null;
  return [...new Set(lists.flatMap((l) => l as readonly string[]))];
}

function common(lists: readonly (readonly string[])[]): string[] {
  const [first, ...rest] = lists;
  return (first ?? []).filter((x) => rest.every((l) => l.includes(x)));
}

/** The chart's nodes the configuration's transitions are looked up in: each active atomic state walking up, then the root. */
function transitionSources(wf: Workflow, configuration: readonly string[]): { id: string; transitions: NonNullable<Workflow['chart']>['root']['transitions'] }[] {
  const seen = new Set<string>();
  const out: { id: string; transitions: NonNullable<Workflow['chart']>['root']['transitions'] }[] = [];
  for (const atomic of configuration) {
    for (const node of levels(wf, atomic).reverse()) {
      if (seen.has(node.id)) continue;
      seen.add(node.id);
      out.push({ id: node.id, transitions: node.chart?.transitions ?? [] });
    }
  }
  out.push({ id: ROOT_ID, transitions: wf.chart?.root.transitions ?? [] });
  return out;
}

function transitionViews(wf: Workflow, run: RunSnapshot, s: ChartSnapshot, configuration: readonly string[], env: MachineEnv): ChartTransitionView[] {
  const now = chartClock(env);
  const evidence = evidenceView(run.counters.evidence);
  // The run's env and agents: a guard reading them is judged as the step itself would judge it.
  const inputs = inputBindings(run);
  const taken = new Map<string, Set<string>>();
  /** The transitions (`source#index`) sending `event` now would take, on a copy of the run. */
  const takenBy = (event: string): Set<string> => {
    let hit = taken.get(event);
    if (!hit) {
      const r = run.status === 'running' && event !== '*' ? interpreter().sendEvent(wf, s, { type: event }, { now, evidence, ...inputs }) : undefined;
      hit = new Set((r?.effects ?? []).flatMap((e) => (e.type === 'transition' && e.event === event ? [`${e.source}#${e.index}`] : [])));
      taken.set(event, hit);
    }
    return hit;
  };
  const out: ChartTransitionView[] = [];
  for (const { id, transitions } of transitionSources(wf, configuration)) {
    transitions.forEach((t, index) => {
      if (t.trigger.kind !== 'event') return;
      const event = t.trigger.event;
      const targets = t.targets.map((ref) => resolveTarget(wf, id, ref) ?? ref.name);
      const guard = t.guard ? evaluateGuard(t.guard.text, s, event, now, evidence, inputs) : null;
      out.push({
        event,
        source: id,
        target: targets[0] ?? '',
        targets,
        guards: guard ? [{ name: guard.expression, passes: guard.passes === true }] : [],
        guard,
        requires_approval: false,
        available: takenBy(event).has(`${id}#${index}`),
      });
    });
  }
  return out;
}

function evaluateGuard(text: string, s: ChartSnapshot, event: string, now: number, evidence: JsonObject, inputs: ReturnType<typeof inputBindings>): NonNullable<ChartTransitionView['guard']> {
  const { evaluateText, isTruthy } = interpreter();
  const r = evaluateText(text, { context: s.context, event: { type: event }, now, evidence, ...inputs });
  return r.ok ? { expression: text, passes: isTruthy(r.value) } : { expression: text, passes: null, error: r.error.message };
}

/** The rule fields, `active_states` and `transitions` of a statechart run's `state` view. */
export function chartStateFields(run: RunSnapshot, wf: Workflow, env: MachineEnv): ChartStateFields {
  const s = run.chart as ChartSnapshot;
  const configuration = interpreter().configurationPaths(wf, s).filter((id) => wf.states.has(id));
  // A region that reached its final state is done: it allows nothing (policy/effective-rules.ts), so it is no active state of the agent.
  const states = configuration.filter((id) => wf.states.get(id)?.kind !== 'final').map((id) => activeState(wf, run, id));
  const first = states[0];
  const firstRules: StateRules | undefined = first ? effectiveRules(wf, first.state) : undefined;
  const instructions = states.filter((a) => a.instructions !== null);
  const limit = (key: keyof ActiveStateView['limits']): number | null => first?.limits[key]?.limit ?? null;
  return {
    instructions: instructions.length === 0 ? null : instructions.length === 1 && states.length === 1 ? (instructions[0]?.instructions ?? null) : instructions.map((a) => `[${a.state}] ${a.instructions}`).join('\n\n'),
    allowed_tools: unionOrAll(states.map((a) => a.allowed_tools)),
    disallowed_tools: common(states.map((a) => a.disallowed_tools)),
    allowed_commands: unionOrAll(states.map((a) => a.allowed_commands)),
    blocked_env: [...new Set(states.flatMap((a) => a.blocked_env))],
    env_overrides: Object.assign({}, ...states.map((a) => a.env_overrides).reverse()) as Record<string, string>,
    allowed_paths: unionOrAll(states.map((a) => a.allowed_paths)),
    denied_paths: common(states.map((a) => a.denied_paths)),
    writes_outside_workspace: states.some((a) => a.writes_outside_workspace),
    model: firstRules?.model ?? null,
    thinking_level: firstRules?.thinkingLevel ?? null,
    iteration: first?.limits.max_iterations?.used ?? run.counters.iterations,
    max_iterations: limit('max_iterations'),
    limits: {
      max_iterations: limit('max_iterations'),
      max_edit_lines: limit('max_edit_lines'),
      max_files_per_state: limit('max_files_per_state'),
      context_budget_bytes: limit('context_budget_bytes'),
    },
    transitions: transitionViews(wf, run, s, configuration, env),
    active_states: states,
  };
}
