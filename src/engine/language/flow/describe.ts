/** Flow parts in words (Markdown), for hovers and completion details. */
import type { JsonValue, Workflow } from '../../model/index.js';
import { flowTargets } from '../../check/flow-graph.js';
import type { FlowModel } from './occurrences.js';

const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

/** One line: the tool and where it goes (`bash → test`). */
export function flowStateLine(wf: Workflow, id: string): string {
  const step = wf.states.get(id)?.flow;
  if (!step) return 'state';
  const next = step.next ? ` → ${step.next.name}` : step.tool === 'switch' ? '' : ' (ends the flow)';
  return `${step.tool || '(no tool)'}${next}`;
}

/** What a state runs and where it goes, each target marked when it names no state. */
export function flowStateSummary(wf: Workflow, id: string): string {
  const s = wf.states.get(id);
  if (!s?.flow) return `${code(id)}: no such state in this flow.`;
  const step = s.flow;
  const lines = [`**state** ${code(id)}${wf.initial.name === id ? ' (start-at)' : ''}: runs ${code(step.tool || '(no tool)')}`];
  const args = Object.entries(step.arguments).filter(([k]) => !(k === 'tasks' && step.tasks));
  if (args.length) lines.push(args.map(([k, v]) => `- ${code(k)}: ${code(short(v))}`).join('\n'));
  if (step.tasks?.length) lines.push(`Tasks: ${step.tasks.map((t) => (t.kind === 'state' ? code(t.state.name) : `${code(t.tool)} (inline)`)).join(', ')}`);
  if (step.output) lines.push(`Output: ${code(step.output.kind === 'var' ? `var(${step.output.name})` : `file(${step.output.path})`)}`);
  const routes = flowTargets(step).filter((t) => t.route !== 'task');
  const moves = routes.map((t) => `- ${t.label} → ${code(t.ref.name)}${wf.states.has(t.ref.name) ? '' : ' (no such state)'}`);
  if (moves.length) lines.push(moves.join('\n'));
  if (!step.next && step.tool !== 'switch') lines.push('Without `next`: the flow ends after this state when it succeeds.');
  return lines.join('\n\n');
}

/** Who declares, sets and reads a variable. */
export function flowVariableSummary(m: FlowModel, name: string): string {
  const { wf } = m;
  const sep = name.indexOf('::');
  if (sep > 0) {
    const state = name.slice(0, sep);
    return `**variable** ${code(name.slice(sep + 2))} of sub-flow state ${code(state)}: set by the flow ${code(String(wf.states.get(state)?.flow?.arguments['workflow'] ?? '?'))} it runs.`;
  }
  const lines = [`**variable** ${code(name)}`];
  const vars = wf.flow?.variables ?? {};
  if (Object.prototype.hasOwnProperty.call(vars, name)) lines.push(`Declared in \`variables\` (default ${code(JSON.stringify(vars[name]))}).`);
  const setters = m.all.filter((o) => o.kind === 'variable' && o.name === name && o.slot === 'output').map((o) => code(o.owner ?? '?'));
  if (setters.length) lines.push(`Set by \`output: var(${name})\` of ${[...new Set(setters)].join(', ')}.`);
  if (lines.length === 1) lines.push('Neither declared in `variables` nor set by any state: a run stops where it is read.');
  const readers = [...new Set(m.all.filter((o) => o.kind === 'variable' && o.name === name && o.slot === 'template').map((o) => code(o.owner ?? '?')))];
  lines.push(readers.length ? `Read in ${readers.join(', ')}.` : 'Read nowhere in this flow.');
  return lines.join('\n\n');
}

function short(v: JsonValue): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  const line = s.split('\n')[0] ?? '';
  return line.length > 60 || s.includes('\n') ? `${line.slice(0, 59)}…` : line;
}
