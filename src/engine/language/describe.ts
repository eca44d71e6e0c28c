/**
 * Workflow parts in words (Markdown), for hovers and completion details:
 * a state's summary, a transition on one line, a guard's predicate.
 */
import type { GuardDef, JsonValue, StateNode, Transition, Workflow } from '../model/index.js';
import { occurrences, symbolOccurrences, type Occurrence, type Slot } from './occurrences.js';

const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;
const json = (v: JsonValue | undefined): string => code(JSON.stringify(v ?? null));

/** One line for a completion detail: final, or the instructions' first line. */
export function stateSummaryLine(s: StateNode): string {
  if (s.kind === 'final') return 'final state';
  const first = s.rules.instructions?.split('\n')[0]?.trim() ?? '';
  return first.length > 60 ? `${first.slice(0, 59)}…` : first || 'state';
}

/** The guard's predicate as a sentence, following the operators' documented semantics (guards.ts). */
export function guardInWords(g: Pick<GuardDef, 'field' | 'op' | 'value'>): string {
  const f = code(g.field);
  switch (g.op) {
    case 'eq':
      return `${f} equals ${json(g.value)}`;
    case 'neq':
      return `${f} is set and does not equal ${json(g.value)} (false when the field is missing)`;
    case 'gt':
      return `${f} is a number greater than ${json(g.value)}`;
    case 'gte':
      return `${f} is a number greater than or equal to ${json(g.value)}`;
    case 'lt':
      return `${f} is a number less than ${json(g.value)}`;
    case 'lte':
      return `${f} is a number less than or equal to ${json(g.value)}`;
    case 'exists':
      return `${f} is set (present and not null)`;
    case 'not_exists':
      return `${f} is missing or null`;
    case 'in':
      return `${f} is one of ${json(g.value)}`;
    case 'contains':
      return `${f} contains ${json(g.value)} (a substring of a string, or an item of an array)`;
  }
}

function guardSuffix(guards: readonly { name: string }[]): string {
  return guards.length ? ` if ${guards.map((g) => code(g.name)).join(' and ')}` : '';
}

/** A transition on one line: `EVENT` → `target` if `guard`. */
export function transitionLine(t: Transition): string {
  const ev = code(t.event);
  switch (t.kind) {
    case 'simple':
    case 'guarded':
      return `${ev} → ${code(t.target.name)}${guardSuffix(t.guards)}${t.requiresApproval ? ' (needs approval)' : ''}`;
    case 'branched':
      return `${ev} → ${t.branches.map((b) => `${code(b.target.name)}${b.guards.length ? guardSuffix(b.guards) : ' otherwise'}`).join('; ')}`;
    case 'invoke':
      return `${ev} ⇒ runs ${code(t.workflow.name)}, then ${code(t.onComplete.name)}${t.onFail ? `, on failure ${code(t.onFail.name)}` : ''}`;
    case 'fork':
      return `${ev} ⑂ fork (${t.branches.map((b) => code(b.name)).join(', ')}; join ${t.join}), then ${code(t.onComplete.name)}${t.onFail ? `, on failure ${code(t.onFail.name)}` : ''}`;
  }
}

const SLOT_WORDS: Partial<Record<Slot, string>> = {
  initial: 'initial state of the workflow',
  safe_next: 'safe_next of',
  'interrupt-target': 'handler of interrupt',
  'fork-initial': 'first state of a fork branch in',
  'fork-terminal': 'last state of a fork branch in',
  on_complete: 'on_complete of',
  on_fail: 'on_fail of',
  failure_states: 'listed in meta.failure_states',
};

/** How a reference leads into a state, in words. */
function incomingLine(o: Occurrence, wf: Workflow): string {
  if (o.slot === 'interrupt-target') {
    const i = wf.interrupts.find((x) => x.target.loc.start === o.loc.start);
    return `${SLOT_WORDS[o.slot]} ${code(i?.name ?? '?')}${i ? ` (${code(i.filePattern)})` : ''}`;
  }
  if (o.owner !== undefined && o.event !== undefined) {
    const how = SLOT_WORDS[o.slot];
    return `${code(o.owner)} on ${code(o.event)}${how ? ` (${how.replace(/ (of|in)$/, '')})` : ''}`;
  }
  if (o.owner !== undefined) return `${SLOT_WORDS[o.slot] ?? o.slot} ${code(o.owner)}`;
  return SLOT_WORDS[o.slot] ?? o.slot;
}

/** A state's summary: instructions, what it allows, where it leads, what leads to it. */
export function stateSummary(wf: Workflow, id: string, text?: string): string {
  const s = wf.states.get(id);
  if (!s) return `State ${code(id)} is not defined in this workflow.`;
  const lines: string[] = [`**${s.kind === 'final' ? 'final state' : 'state'}** ${code(id)}${wf.initial.name === id ? ' (initial)' : ''}`];
  if (s.rules.instructions) lines.push('', s.rules.instructions.length > 600 ? `${s.rules.instructions.slice(0, 599)}…` : s.rules.instructions);
  const rules: string[] = [];
  if (s.rules.allowedTools) rules.push(`Allowed tools: ${s.rules.allowedTools.length ? s.rules.allowedTools.map(code).join(', ') : 'none but stategate’s own'}`);
  if (s.rules.disallowedTools.length) rules.push(`Denied tools: ${s.rules.disallowedTools.map(code).join(', ')}`);
  if (s.rules.allowedCommands) rules.push(`Allowed commands: ${s.rules.allowedCommands.map(code).join(', ') || 'none'}`);
  if (s.rules.maxIterations !== undefined) rules.push(`At most ${s.rules.maxIterations} tool calls`);
  if (rules.length) lines.push('', ...rules.map((r) => `- ${r}`));
  const out = [...s.on.map(transitionLine), ...(s.safeNext ? [`any other event → ${code(s.safeNext.name)} (safe_next)`] : [])];
  if (out.length) lines.push('', '**Out**', ...out.map((l) => `- ${l}`));
  const incoming = symbolOccurrences(wf, { kind: 'state', name: id }, text).filter((o) => o.role === 'reference');
  if (incoming.length) lines.push('', '**In**', ...incoming.map((o) => `- ${incomingLine(o, wf)}`));
  return lines.join('\n');
}

/** A guard's hover: its predicate, and where it is used. */
export function guardSummary(wf: Workflow, name: string): string {
  const g = wf.guards.get(name);
  if (!g) return `Guard ${code(name)} is not defined in \`guards\`; a transition that needs it never fires.`;
  const uses = occurrences(wf).filter((o) => o.kind === 'guard' && o.name === name && o.role === 'reference');
  const where = uses.length ? `\n\nUsed by ${uses.map((o) => `${code(o.owner ?? '?')} on ${code(o.event ?? '?')}`).join(', ')}.` : '\n\nNot used by any transition.';
  return `**guard** ${code(name)}: passes when ${guardInWords(g)}.${where}`;
}
