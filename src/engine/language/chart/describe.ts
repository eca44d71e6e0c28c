/** Statechart parts in words (Markdown), for hovers and completion details. */
import type { ActionDef, ActionRef, JsonValue, StateNode, Workflow } from '../../model/index.js';
import { resolveTarget } from '../../statechart/targets.js';
import { triggerName } from './outline.js';

const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

/** One line: the kind, and the description or the instructions' first line. */
export function chartStateLine(s: StateNode): string {
  const kind = s.chart?.region ? 'region' : s.kind;
  const text = (s.chart?.meta?.description ?? s.rules.instructions ?? '').split('\n')[0]?.trim() ?? '';
  return text ? `${kind}: ${text.length > 60 ? `${text.slice(0, 59)}…` : text}` : kind;
}

const actionNames = (refs: readonly ActionRef[]): string => refs.map((r) => (r.kind === 'named' ? code(r.name.name) : code(r.action.type))).join(', ');

/** What a state is and does: its path, kind, children, actions and transitions (each target resolved). */
export function chartStateSummary(wf: Workflow, id: string): string {
  const s = wf.states.get(id);
  if (!s) return `${code(id)}: no such state.`;
  const lines = [`**${s.chart?.region ? 'region' : `${s.kind} state`}** ${code(s.id)}`];
  const about = s.chart?.meta?.description ?? s.rules.instructions;
  if (about) lines.push(about);
  if (s.children.length) {
    const keys = s.children.map((c) => wf.states.get(c)?.key ?? c);
    lines.push(`${s.kind === 'parallel' ? 'Regions' : 'Children'}: ${keys.map(code).join(', ')}${s.initial ? ` (starts in ${code(s.initial.name)})` : ''}`);
  }
  if (s.chart?.entry.length) lines.push(`Entry: ${actionNames(s.chart.entry)}`);
  if (s.chart?.exit.length) lines.push(`Exit: ${actionNames(s.chart.exit)}`);
  const moves = (s.chart?.transitions ?? []).map((t) => {
    const to = t.targets.map((r) => code(resolveTarget(wf, id, r) ?? `${r.name} (unresolved)`)).join(', ') || '(stays)';
    return `- ${code(triggerName(t, s.kind === 'parallel'))} → ${to}${t.guard ? ` if ${code(t.guard.text)}` : ''}`;
  });
  if (moves.length) lines.push(moves.join('\n'));
  if (s.rules.allowedTools?.length) lines.push(`Allowed tools: ${s.rules.allowedTools.join(', ')}`);
  return lines.join('\n\n');
}

/** A named action's definition. */
export function chartActionSummary(name: string, a: ActionDef): string {
  const head = `**action** ${code(name)}: ${code(a.type)}`;
  switch (a.type) {
    case 'assign':
      return `${head}\n\n${a.updates.map((u) => `- ${code(u.key)} ← ${code(u.expr.text)}`).join('\n')}`;
    case 'raise':
    case 'emit':
      return `${head} ${code(a.event)}${data(a.data)}`;
    case 'send':
      return `${head} ${code(a.event)} to ${code(a.to)}${data(a.data)}`;
    case 'log':
      return `${head}${a.message ? ` ${code(a.message)}` : ''}${data(a.data)}`;
    case 'invoke':
      return `${head} handler ${code(a.handler)}${data(a.params)}`;
  }
}

function data(v: Readonly<Record<string, JsonValue>> | undefined): string {
  return v ? ` with ${code(JSON.stringify(v))}` : '';
}
