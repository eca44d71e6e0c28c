/**
 * One line per journal entry for the history timeline (<sg-history>). Free of
 * lit and the DOM, so it is unit-tested (test/unit/history-summary.test.ts).
 * States are said by the names the diagram gives them (`names`: id → name),
 * so a statechart's `hotfix.patching.writing_test` reads `writing_test`.
 */
import type { HistoryEntry } from '../src/protocol.js';

/** Which agent client a call came from (its hook's --client), as a prefix. */
const by = (client: string | undefined): string => (client ? `[${client}] ` : '');

/** One line per entry kind: what a person scanning the timeline needs. */
export function summary(e: HistoryEntry, names: ReadonlyMap<string, string> = new Map()): string {
  // A field may hold several states (a statechart's configuration, comma separated).
  const n = (id: string): string => names.get(id) ?? (id.includes(', ') ? id.split(', ').map((one) => names.get(one) ?? one).join(', ') : id);
  switch (e.kind) {
    case 'start': return `started ${e.workflowId} in ${n(e.state)}`;
    case 'transition': return `${e.event}: ${n(e.from)} → ${n(e.to)}${e.via ? ` (${e.via.replace('_', ' ')})` : ''}`;
    case 'rejected': return `${e.event} refused in ${n(e.state)}: ${e.message}`;
    case 'approval_requested': return `${e.event} waits for approval (${n(e.from)} → ${n(e.target)})`;
    case 'approved': return `${e.event} approved`;
    case 'approval_rejected': return `${e.event} rejected (${n(e.from)} stays)`;
    case 'approval_withdrawn': return `${e.event} approval withdrawn: ${e.reason}`;
    case 'interrupt': return `interrupt ${e.name}${e.file ? ` (${e.file})` : ''}: ${n(e.from)} → ${n(e.to)}`;
    case 'interrupt_return': return `$return from ${e.name}: ${n(e.from)} → ${n(e.to)}`;
    case 'pause': return 'paused';
    case 'resume': return 'resumed';
    case 'stop': return 'stopped';
    case 'force': return `forced ${n(e.from)} → ${n(e.to)}`;
    case 'fork_start': return `${e.event}: fork ${e.branches.join(', ')} (join ${n(e.join)})`;
    case 'branch_start': return `branch ${e.branch} starts in ${n(e.state)}`;
    case 'session_bound': return `session ${e.session} bound to branch ${e.branch}${e.parallel ? ' (the fork runs its branches in parallel now)' : ''}`;
    case 'branch_done': return `branch ${e.branch} ${e.outcome} in ${n(e.state)}`;
    case 'join': return `join ${e.outcome}: ${n(e.from)} → ${e.to === undefined || e.to === null ? '(run failed)' : n(e.to)}`;
    case 'invoke_start': return `${e.event}: invoke ${e.invoked} (${n(e.state)})`;
    case 'child_done': return `child ${e.outcome} in ${n(e.childState)}: ${n(e.from)} → ${e.to === undefined || e.to === null ? '(run failed)' : n(e.to)}`;
    case 'reload': return `definition reloaded in ${n(e.state)}`;
    case 'tool_denied': return `${by(e.client)}denied ${e.tool} in ${n(e.state)}: ${e.reason}`;
    case 'tool_result': return `${by(e.client)}${e.tool} in ${n(e.state)}${e.file ? ` edited ${e.file}` : ''}`;
    case 'handler_start': return `handler ${e.handler} (${e.id}) started in ${n(e.state)}`;
    case 'handler_end': return `handler ${e.handler} (${e.id}) ${e.ok ? 'done' : 'failed'}${e.exit_code === null ? '' : `, exit ${e.exit_code}`}, ${e.bytes} bytes${e.reason ? `: ${e.reason}` : ''}`;
    case 'learning': return `learning (${e.type}) in ${n(e.state)}: ${e.lesson}`;
    case 'usage': return `model usage +$${e.cost.toFixed(2)} (total $${e.total.toFixed(2)})${e.model ? ` by ${e.model}` : ''}`;
    case 'bound_warning': return e.message;
    case 'security_mode': return `security mode ${e.mode}${e.source === 'default' ? '' : ` (from the ${e.source === 'run' ? 'run start' : e.source})`}`;
    case 'stage_setup': return `stage ${n(e.state)} #${e.attempt} set up (${e.completion_tool}${e.turn_cap ? `, ${e.turn_cap} turns` : ''})`;
    case 'prompt_sent': return `stage ${n(e.state)} #${e.attempt}: prompt sent`;
    case 'turn': return `stage ${n(e.state)} #${e.attempt}: turn ${e.turn}${e.turn_cap ? `/${e.turn_cap}` : ''}`;
    case 'grant_asked': return `stage ${n(e.state)}: grant asked for ${e.tool} ${e.args_summary}`;
    case 'grant_answered': return `stage ${n(e.state)}: grant for ${e.tool} ${e.approved ? 'approved' : `denied (${e.by})`}`;
    case 'grant_consumed': return `stage ${n(e.state)}: grant for ${e.tool} used`;
    case 'completion_checked': return `stage ${n(e.state)}: ${e.tool} ${e.valid ? 'valid' : `invalid (${(e.errors ?? []).join('; ')})`}`;
    case 'stage_exit': return `stage ${n(e.state)} #${e.attempt} ${e.outcome} after ${e.turns} turns${e.reason ? `: ${e.reason}` : ''}`;
    case 'next_stage': return `next: ${e.from.map(n).join(', ')} → ${e.to.map(n).join(', ') || '(end)'}`;
    case 'chart': return `${e.op === 'timers' ? 'timers fired' : e.op === 'start' ? 'statechart started' : `${e.op} ${e.event ?? ''}`.trim()}${e.transitioned ? '' : ' (no transition)'}: ${n(e.state)}`;
  }
}
