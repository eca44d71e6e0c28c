/**
 * Completion inside a stage's `prompt` (Statewright and statecharts alike):
 * after `{{`, the paths a placeholder may read (stage/prompt-template.ts):
 * `input.task`, the context's keys and paths, and `upstream.<stage>` for every
 * other stage. And the names that go with `completion_tool`: the events of
 * the state's transitions, as a completion tool is named like the transition
 * it fires.
 */
import type { StateNode, Workflow } from '../model/index.js';
import { contextPaths, type CompletionItem, type CompletionKind } from './completion-item.js';

/** A placeholder being typed: `{{` and the path so far, up to the cursor. */
const OPEN_PLACEHOLDER = /\{\{\s*([\w$.\-[\]]*)$/;

/**
 * Items for the cursor at `offset` in a prompt whose contents start at
 * `start`; none outside a placeholder. Each replaces the path typed so far.
 */
export function promptItems(wf: Workflow | undefined, stateId: string, text: string, start: number, offset: number): CompletionItem[] {
  const m = OPEN_PLACEHOLDER.exec(text.slice(start, offset));
  if (!m || !wf) return [];
  const typed = m[1] ?? '';
  const range = { start: offset - typed.length, end: offset };
  const item = (label: string, kind: CompletionKind, detail: string): CompletionItem => ({ label, kind, detail, range, insertText: label });
  const stages = [...wf.states.values()].filter((s) => s.completionTool !== undefined && s.id !== stateId);
  return [
    item('input.task', 'field', 'the task the run was started with'),
    item('input', 'keyword', 'what the run was started with'),
    item('context', 'keyword', "the run's context"),
    ...contextPaths(wf.context).map((p) => item(`context.${p}`, 'context-field', 'context field')),
    item('upstream', 'keyword', 'the results of earlier stages, by stage'),
    ...stages.map((s) => item(`upstream.${s.key}`, 'state', `the payload \`${s.id}\` completed with (\`${s.completionTool}\`)`)),
  ];
}

/** The events of `state`'s transitions (Statewright `on`, a statechart node's `on`). */
export function stateEvents(state: StateNode | undefined): string[] {
  if (!state) return [];
  const events = state.chart ? state.chart.transitions.flatMap((t) => (t.trigger.kind === 'event' && t.trigger.event !== '*' ? [t.trigger.event] : [])) : state.on.map((t) => t.event);
  return [...new Set(events)];
}

/** `completion_tool`'s candidates: the state's events, as event candidates. */
export function completionToolCandidates(state: StateNode | undefined): Array<{ label: string; kind: CompletionKind; detail: string }> {
  return stateEvents(state).map((e) => ({ label: e, kind: 'event', detail: 'a transition of this state: completing with this tool fires it' }));
}
