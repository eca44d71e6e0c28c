/**
 * Every name of a flow with where it is written: states (their keys,
 * `start-at`, each `next`/`on-error`/`goto` target and parallel state task,
 * the `<state>` of a `{{ <state>::<var> }}`), variables (the `variables`
 * keys, each `output: var(NAME)`, each `{{ NAME }}` in an argument) and tools
 * (each `tool:` value). Targets are the validator's (check/flow-graph.ts), so
 * a reference here is what the runner follows.
 */
import type { SourceLoc, Workflow } from '../../model/index.js';
import type { FlowOutput } from '../../model/flow.js';
import { flowTargets } from '../../check/flow-graph.js';
import { isVariableRef, TEMPLATE } from '../../formats/flow-fields.js';
import { childPointer, nodeLoc, type JsonNode } from '../../formats/jsonc.js';
import { chartTree, propertyValue } from '../chart/tree.js';

export type FlowSymbolKind = 'state' | 'variable' | 'tool';

/** Where a state is named (its key is the definition). */
export type FlowSlot = 'start-at' | 'next' | 'on-error' | 'goto' | 'task' | 'template' | 'variables' | 'output' | 'tool';

export interface FlowOccurrence {
  readonly kind: FlowSymbolKind;
  /** A state's key, a variable's name (`state::var` for a sub-flow's), a tool's name. */
  readonly name: string;
  readonly role: 'definition' | 'reference';
  readonly loc: SourceLoc;
  readonly slot?: FlowSlot;
  /** The state it is written in. */
  readonly owner?: string;
  /** A target: what the diagram writes on its edge (`next`, `exit 1`, `= "yes"`, `task`). */
  readonly label?: string;
}

export interface FlowModel {
  readonly wf: Workflow;
  readonly text: string;
  readonly json: boolean;
  readonly all: readonly FlowOccurrence[];
}

const models = new WeakMap<Workflow, FlowModel>();

/** The flow's names, computed once per loaded flow (every provider asks about the same one). */
export function flowModel(wf: Workflow, text: string, json: boolean): FlowModel {
  let m = models.get(wf);
  if (!m) {
    m = { wf, text, json, all: collect(wf, text, json) };
    models.set(wf, m);
  }
  return m;
}

function collect(wf: Workflow, text: string, json: boolean): FlowOccurrence[] {
  const out: FlowOccurrence[] = [];
  for (const s of wf.states.values()) out.push({ kind: 'state', name: s.key, role: 'definition', loc: s.keyLoc });
  if (wf.initial.name !== '') out.push({ kind: 'state', name: wf.initial.name, role: 'reference', loc: wf.initial.loc, slot: 'start-at', label: 'start-at' });
  const root = chartTree(text, json);
  const declared = propertyValue(root, 'variables');
  for (const p of declared?.type === 'object' ? (declared.children ?? []) : []) {
    const key = p.children?.[0];
    if (key && typeof key.value === 'string') out.push({ kind: 'variable', name: key.value, role: 'definition', loc: nodeLoc(key, '/variables'), slot: 'variables' });
  }
  const statesNode = propertyValue(root, 'states');
  for (const s of wf.states.values()) {
    const step = s.flow;
    if (!step) continue;
    const owner = s.key;
    if (step.tool !== '') out.push({ kind: 'tool', name: step.tool, role: 'reference', loc: step.toolLoc, slot: 'tool', owner });
    for (const t of flowTargets(step)) out.push({ kind: 'state', name: t.ref.name, role: 'reference', loc: t.ref.loc, slot: t.route, owner, label: t.label });
    const outputs = [step.output, ...(step.tasks ?? []).map((t) => (t.kind === 'call' ? t.output : undefined))];
    for (const o of outputs) {
      const loc = o ? varNameLoc(text, o) : undefined;
      if (o?.kind === 'var' && loc) out.push({ kind: 'variable', name: o.name, role: 'definition', loc, slot: 'output', owner });
    }
    for (const t of step.tasks ?? []) if (t.kind === 'call') out.push({ kind: 'tool', name: t.tool, role: 'reference', loc: t.toolLoc, slot: 'tool', owner });
    const args = propertyValue(propertyValue(statesNode, s.key), 'arguments');
    if (args) out.push(...templateOccurrences(text, args, childPointer(childPointer('/states', s.key), 'arguments'), owner, wf));
  }
  return out;
}

/** The NAME of `var(NAME)` in the text, or undefined when it is not written plainly there. */
function varNameLoc(text: string, o: FlowOutput): SourceLoc | undefined {
  if (o.kind !== 'var') return undefined;
  const m = /var\(\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\)/.exec(text.slice(o.loc.start, o.loc.end));
  if (!m || m[1] !== o.name) return undefined;
  const start = o.loc.start + m.index + m[0].indexOf(o.name, 4);
  return { pointer: o.loc.pointer, start, end: start + o.name.length };
}

/**
 * Each `{{ name }}` in the strings under `node`, found in the text as written
 * (a template holds no escapes, so its offsets are exact even in a string
 * that has some elsewhere); `{{ state::var }}` names the state too.
 */
function templateOccurrences(text: string, node: JsonNode, pointer: string, owner: string, wf: Workflow): FlowOccurrence[] {
  const out: FlowOccurrence[] = [];
  const visit = (n: JsonNode, ptr: string): void => {
    if (n.type === 'object') {
      for (const p of n.children ?? []) {
        const [key, value] = p.children ?? [];
        if (key && value) visit(value, childPointer(ptr, String(key.value)));
      }
    } else if (n.type === 'array') {
      (n.children ?? []).forEach((c, i) => visit(c, childPointer(ptr, i)));
    } else if (n.type === 'string') {
      const loc = nodeLoc(n, ptr);
      for (const m of text.slice(loc.start, loc.end).matchAll(TEMPLATE)) {
        const name = m[1] ?? '';
        if (!isVariableRef(name)) continue;
        const start = loc.start + (m.index ?? 0) + m[0].indexOf(name, 2);
        const sep = name.indexOf('::');
        if (sep > 0) {
          const state = name.slice(0, sep);
          if (wf.states.has(state)) out.push({ kind: 'state', name: state, role: 'reference', loc: { pointer: ptr, start, end: start + sep }, slot: 'template', owner });
          out.push({ kind: 'variable', name, role: 'reference', loc: { pointer: ptr, start: start + sep + 2, end: start + name.length }, slot: 'template', owner });
        } else {
          out.push({ kind: 'variable', name, role: 'reference', loc: { pointer: ptr, start, end: start + name.length }, slot: 'template', owner });
        }
      }
    }
  };
  visit(node, pointer);
  return out;
}

/** The innermost occurrence whose name contains `offset` (its ends included). */
export function flowOccurrenceAt(m: FlowModel, offset: number): FlowOccurrence | undefined {
  let best: FlowOccurrence | undefined;
  for (const o of m.all) {
    if (offset < o.loc.start || offset > o.loc.end) continue;
    if (!best || o.loc.end - o.loc.start < best.loc.end - best.loc.start) best = o;
  }
  return best;
}

export function sameFlowSymbol(m: FlowModel, sym: Pick<FlowOccurrence, 'kind' | 'name'>): FlowOccurrence[] {
  return m.all.filter((o) => o.kind === sym.kind && o.name === sym.name);
}

/** Whether the flow defines a variable of this name (a `variables` key or an `output: var()`). */
export function definesVariable(m: FlowModel, name: string): boolean {
  return m.all.some((o) => o.kind === 'variable' && o.name === name && o.role === 'definition');
}
