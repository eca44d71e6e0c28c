/**
 * `{{ var }}` templates that nothing defines. A forward "may be defined"
 * dataflow over the flow graph: a variable is defined before a state when the
 * flow's `variables` declare it or SOME path from `start-at` to the state
 * passes a state that captures it (`output: var(NAME)`, a sub-flow's
 * `<state>::<var>`, a parallel task's output). So the warning means "no path
 * defines it" (a typo, or a variable nothing sets); a variable set on only
 * some paths is left to the run-time error (never an empty string).
 */
import type { Diagnostic, FlowStep, JsonValue, SourceLoc, StateNode, Workflow } from '../model/index.js';
import { isVariableRef, TEMPLATE } from '../formats/flow-fields.js';
import { closestName, didYouMean } from '../util/suggest.js';
import type { FlowEdge } from './flow-graph.js';

export function undefinedVariableRule(
  wf: Workflow,
  edges: ReadonlyMap<string, readonly FlowEdge[]>,
  reachable: ReadonlySet<string>,
  text: string | undefined,
  out: Diagnostic[],
): void {
  const before = definedBefore(wf, edges);
  for (const id of reachable) {
    const s = wf.states.get(id);
    const known = before.get(id);
    if (!s?.flow || !known) continue;
    for (const use of templateUses(s.flow, text)) {
      if (isDefined(use.name, known)) continue;
      const closest = closestName(use.name, [...known].filter((k) => !k.endsWith('::*')));
      out.push({
        severity: 'warning',
        code: 'flow-undefined-variable',
        message: `No state before \`${id}\` on any path defines \`${use.name}\`, and \`variables\` does not declare it: the run will stop here.${didYouMean(closest)} Capture it with \`output: var(${use.name})\` in an earlier state or give it a default under \`variables\`.`,
        loc: use.loc,
        ...(closest === undefined ? {} : { data: { closest } }),
      });
    }
  }
}

function isDefined(name: string, known: ReadonlySet<string>): boolean {
  if (known.has(name)) return true;
  const sep = name.indexOf('::');
  return sep > 0 && known.has(`${name.slice(0, sep)}::*`);
}

/** What a state defines when it has run. */
function definitions(s: StateNode, wf: Workflow): string[] {
  const out: string[] = [];
  const step = s.flow;
  if (!step) return out;
  if (step.output?.kind === 'var') out.push(step.output.name);
  if (step.tool === 'sub-flow') out.push(`${s.key}::*`);
  for (const t of step.tasks ?? []) {
    if (t.kind === 'call' && t.output?.kind === 'var') out.push(t.output.name);
    const task = t.kind === 'state' ? wf.states.get(t.state.name) : undefined;
    if (task?.flow?.output?.kind === 'var') out.push(task.flow.output.name);
  }
  return out;
}

/** The variables defined on entry to each state reachable from `start-at` (a worklist to the fixpoint). */
export function definedBefore(wf: Workflow, edges: ReadonlyMap<string, readonly FlowEdge[]>): Map<string, Set<string>> {
  const before = new Map<string, Set<string>>();
  if (!wf.states.has(wf.initial.name)) return before;
  before.set(wf.initial.name, new Set(Object.keys(wf.flow?.variables ?? {})));
  const todo = [wf.initial.name];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    const s = wf.states.get(id) as StateNode;
    const after = new Set([...(before.get(id) ?? []), ...definitions(s, wf)]);
    for (const e of edges.get(id) ?? []) {
      const into = before.get(e.to);
      if (!into) {
        before.set(e.to, new Set(after));
        todo.push(e.to);
        continue;
      }
      const size = into.size;
      for (const v of after) into.add(v);
      if (into.size > size) todo.push(e.to);
    }
  }
  return before;
}

interface Use {
  readonly name: string;
  readonly loc: SourceLoc;
}

/** Each `{{ name }}` in the step's arguments (and its inline tasks'), at its exact range when the argument is written as its plain value. */
function templateUses(step: FlowStep, text: string | undefined): Use[] {
  const out: Use[] = [];
  for (const [key, value] of Object.entries(step.arguments)) {
    if (key === 'tasks' && step.tasks) continue; // read below, task by task
    const loc = step.argumentLocs[key] ?? step.toolLoc;
    const exact = typeof value === 'string' && text !== undefined && text.slice(loc.start, loc.end) === value;
    for (const s of strings(value)) {
      for (const m of s.matchAll(TEMPLATE)) {
        const name = m[1] ?? '';
        if (!isVariableRef(name)) continue;
        out.push({ name, loc: exact ? { pointer: loc.pointer, start: loc.start + (m.index ?? 0), end: loc.start + (m.index ?? 0) + m[0].length } : loc });
      }
    }
  }
  for (const t of step.tasks ?? []) {
    if (t.kind !== 'call') continue;
    for (const s of strings(t.arguments)) for (const m of s.matchAll(TEMPLATE)) if (isVariableRef(m[1] ?? '')) out.push({ name: m[1] ?? '', loc: t.loc });
  }
  return out;
}

function strings(value: JsonValue): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap((v) => strings(v as JsonValue));
  return [];
}
