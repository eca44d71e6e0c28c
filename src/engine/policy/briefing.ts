/**
 * What the agent is told each turn (hook context injection, the @stategate
 * participant's system message, `statewright_get_state`): the state's
 * instructions, allowed tools and commands, where it may write, env overrides, limits with their
 * usage, the events available with targets and guard status, and any pending
 * approval or active interrupt. Plain text: every model reads it.
 */
import type { StateView } from '../machine/describe.js';
import type { ActiveStateView } from '../machine/describe-chart.js';
import type { ChartAgentView } from './chart-agent-view.js';
import { completionHowTo, type LiveCompletion } from '../pipeline/completion-only.js';

/** The rule fields a flat state view and each active state of a statechart share. */
type RulesView = Pick<StateView, 'instructions' | 'allowed_tools' | 'disallowed_tools' | 'allowed_commands' | 'blocked_env' | 'env_overrides' | 'allowed_paths' | 'denied_paths' | 'writes_outside_workspace' | 'limits'>;

/** A state view, with what a statechart run adds (Runner.state: the chart view and chartAgentView). */
export type BriefedView = StateView &
  Partial<ChartAgentView> & {
    readonly configuration?: readonly string[];
    readonly timers?: readonly { state: string; due: string }[];
    /** The live stages' completion tools (Runner.state): their events are left out of the events to send. */
    readonly completion_tools?: readonly LiveCompletion[];
  };

/** The marker workflows' instructions mention; kept for compatibility with Statewright. */
export const INTERRUPT_MARKER = '[STATEWRIGHT INTERRUPT]';

function list(items: readonly string[] | null, none: string): string {
  if (items === null) return none;
  return items.length ? items.join(', ') : '(none)';
}

function limit(name: string, used: number | string, max: number | null): string | undefined {
  return max === null ? undefined : `${name} ${used}/${max}`;
}

/** Where the agent may write (allowed_paths, denied_paths, the workspace default), or undefined when anywhere. */
function pathScopeLine(view: Omit<RulesView, 'limits'>): string | undefined {
  const parts: string[] = [];
  if (view.allowed_paths) parts.push(`only to ${view.allowed_paths.length ? view.allowed_paths.join(', ') : '(nowhere)'} (allowed_paths)`);
  else if (!view.writes_outside_workspace) parts.push('only inside the workspace (add allowed_paths to the state to write elsewhere)');
  if (view.denied_paths.length) parts.push(`never to ${view.denied_paths.join(', ')} (denied_paths)`);
  return parts.length ? `Writes (file tools and shell): ${parts.join('; ')}.` : undefined;
}

/** What a state allows and limits, one line each. */
function ruleLines(view: RulesView, usage: StateView['usage']): string[] {
  const limits = [
    limit('tool calls', usage.iterations, view.limits.max_iterations),
    view.limits.max_edit_lines === null ? undefined : `at most ${view.limits.max_edit_lines} lines per edit`,
    limit('files edited', usage.files_edited.length, view.limits.max_files_per_state),
    limit('bytes read', usage.bytes_read, view.limits.context_budget_bytes),
  ].filter((x): x is string => x !== undefined);
  return [...allowLines(view), ...(limits.length ? [`Limits in this state: ${limits.join('; ')}.`] : [])];
}

/** An active state of a statechart: its limits count in the node that declares each (reset when that node is left). */
function chartStateLines(s: ActiveStateView): string[] {
  const limits = (
    [
      ['tool calls', s.limits.max_iterations],
      ['files edited', s.limits.max_files_per_state],
      ['bytes read', s.limits.context_budget_bytes],
    ] as const
  ).flatMap(([name, l]) => (l ? [`${name} ${l.used}/${l.limit}${l.declared_by === s.state ? '' : ` (counted in "${l.declared_by}")`}`] : []));
  // max_edit_lines caps each edit, so it has no running count to show.
  const perEdit = s.limits.max_edit_lines ? [`at most ${s.limits.max_edit_lines.limit} lines per edit`] : [];
  limits.unshift(...perEdit);
  return [...allowLines(s), ...(limits.length ? [`Limits: ${limits.join('; ')}.`] : [])];
}

/** What a state allows, one line each. */
function allowLines(view: Omit<RulesView, 'limits'>): string[] {
  const lines: string[] = [];
  if (view.instructions) lines.push(`Instructions: ${view.instructions}`);
  lines.push(`Allowed tools: ${list(view.allowed_tools, 'all')}${view.disallowed_tools.length ? `; never: ${view.disallowed_tools.join(', ')}` : ''}.`);
  if (view.allowed_commands) lines.push(`Allowed shell commands (each simple command must start with one): ${list(view.allowed_commands, '')}.`);
  if (view.blocked_env.length) lines.push(`Do not read these environment variables: ${view.blocked_env.join(', ')}.`);
  const scope = pathScopeLine(view);
  if (scope) lines.push(scope);
  const overrides = Object.entries(view.env_overrides);
  if (overrides.length) lines.push(`Environment for commands in this state: ${overrides.map(([k, v]) => `${k}=${v}`).join(' ')}.`);
  return lines;
}

/** How each live stage ends: its completion tool, never a plain event (pipeline/completion-only.ts). */
function completionLines(view: BriefedView): string[] {
  return (view.completion_tools ?? []).map(
    (c) => `Stage "${c.state}"${c.branch === undefined ? '' : ` (branch ${c.branch})`} ends only through its completion tool: ${completionHowTo(c.tool)}. Sending ${c.tool} with statewright_transition is refused.`,
  );
}

function endedLine(view: StateView): string {
  return view.is_final ? 'The workflow has ended: nothing is enforced.' : `The run is ${view.status}: nothing is enforced until it runs again.`;
}

export function briefing(view: BriefedView): string {
  if (view.active_states) return chartBriefing(view, view.active_states);
  const lines: string[] = [];
  const where = view.branch ? ` (fork branch ${view.branch})` : view.scope ? ` (${view.scope})` : '';
  lines.push(`stategate: workflow "${view.workflow.id}" is in state "${view.state}"${where}, status ${view.status}.`);
  if (view.status !== 'running') {
    lines.push(endedLine(view));
    return lines.join('\n');
  }
  lines.push(...ruleLines(view, view.usage));
  if (view.interrupt) {
    lines.push(
      `${INTERRUPT_MARKER} "${view.interrupt.name}" is active${view.interrupt.file ? ` (fired by ${view.interrupt.file})` : ''}: handle it, then transition with an event whose target is $return to go back to "${view.interrupt.returnTo}".`,
    );
  }
  if (view.pending_approval) {
    lines.push(`A transition is waiting for a person's approval: ${view.pending_approval.event} → ${view.pending_approval.target}. Wait; you cannot approve it yourself.`);
  }
  if (view.fork) {
    lines.push(`A fork is active (join ${view.fork.join}): branches ${view.fork.branches.map((b) => `${b.name}=${b.status}${b.sessions?.length ? ` (sessions: ${b.sessions.join(', ')})` : ''}`).join(', ')}. When a branch stands in its terminal state, send BRANCH_DONE:<branch>.`);
    if (view.fork.mode === 'parallel' && !view.branch) {
      lines.push('Its branches run in parallel. Bind this session to the branch you work with statewright_load_workflow(name, branch) or `stategate run bind --session ID --branch NAME`; unbound, a call is allowed only where every running branch allows it.');
    }
  }
  const completions = completionLines(view);
  lines.push(...completions);
  if (view.transitions.length) {
    lines.push('Events you can send with statewright_transition:');
    for (const t of view.transitions) {
      const guards = t.guards.length ? ` [guards: ${t.guards.map((g) => `${g.name} ${g.passes ? 'passes' : 'fails'}`).join(', ')}]` : '';
      const extra = t.requires_approval ? ' (needs a person\'s approval)' : '';
      lines.push(`- ${t.event} → ${t.target}${guards}${extra}${t.available ? '' : ' (not available now)'}`);
    }
  } else if (!view.is_final && !completions.length) {
    lines.push('No events are defined in this state.');
  }
  return lines.join('\n');
}

/**
 * A statechart run: the active configuration, the rules of every active
 * state (a call passes when one of them allows it), pending timers, the
 * tasks handed to agents and how to finish them, and the events the
 * configuration handles.
 */
function chartBriefing(view: BriefedView, states: NonNullable<BriefedView['active_states']>): string {
  const configuration = view.configuration ?? states.map((s) => s.state);
  const lines = [`stategate: statechart "${view.workflow.id}" is in configuration ${configuration.join(' | ') || '(none)'}, status ${view.status}.`];
  if (view.status !== 'running') {
    lines.push(endedLine(view));
    return lines.join('\n');
  }
  if (states.length > 1) lines.push('Several states are active at once (parallel regions): a tool call is allowed when one of them allows it. Each state\'s rules include those of the states around it.');
  for (const s of states) {
    lines.push(`In "${s.state}":`);
    lines.push(...chartStateLines(s).map((l) => `  ${l}`));
  }
  for (const t of view.timers ?? []) lines.push(`A timer of "${t.state}" fires at ${t.due} (an \`after\` transition) unless that state is left before.`);
  if (view.interrupt) lines.push(`${INTERRUPT_MARKER} "${view.interrupt.name}" is active${view.interrupt.file ? ` (fired by ${view.interrupt.file})` : ''}: handle it, then send one of the events below.`);
  const tasks = view.agent_invocations ?? [];
  if (tasks.length) {
    lines.push('Tasks handed to agents (`agent:` invocations). If you are that agent (or @stategate), do the task, then call stategate_invocation_done with its id and the result as `data`, or stategate_invocation_fail with the reason:');
    for (const i of tasks) lines.push(`- ${i.id} for agent "${i.agent}" (state ${i.state}), input: ${JSON.stringify(i.input)}`);
  }
  const completions = completionLines(view);
  lines.push(...completions);
  const events = view.events ?? [];
  if (events.length) {
    lines.push('Events you can send with statewright_transition:');
    for (const e of events) {
      const guard = e.guard ? ` [guard ${e.guard.expression} ${e.guard.passes ? 'passes' : 'fails'}]` : '';
      lines.push(`- ${e.event} (in ${e.source}) → ${e.targets.join(', ') || '(stays; runs its actions)'}${guard}${e.available ? '' : ' (not available now)'}`);
    }
  } else if (!view.accepts_any_event && !completions.length) {
    lines.push('No events are handled in this configuration.');
  }
  if (view.accepts_any_event) lines.push('Any other event name is accepted too (a `*` transition is active).');
  return lines.join('\n');
}
