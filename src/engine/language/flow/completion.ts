/**
 * Completion in a flow (YAML or JSON): tool names at `tool`, the tool's
 * arguments under `arguments` (required ones first, with their docs), state
 * names at `start-at`, `next`, `on-error` and `goto` values and parallel
 * state tasks, variables inside `{{ }}` (those some path defines before the
 * state first), and the field names of the object under the cursor.
 */
import { FLOW_FIELDS, FLOW_STATE_FIELDS, FLOW_TASK_FIELDS } from '../../formats/flow-fields.js';
import { FLOW_TOOL_DOCS, flowToolMarkdown } from '../../formats/flow-tools.js';
import { customToolMarkdown, type CustomFlowTool } from '../../formats/flow-tool-registry.js';
import { FLOW_TOOLS, isFlowTool, type Workflow } from '../../model/index.js';
import { flowEdges } from '../../check/flow-graph.js';
import { definedBefore } from '../../check/flow-vars.js';
import type { JsonNode } from '../../formats/jsonc.js';
import type { CompletionItem, CompletionKind } from '../completion.js';
import { jsonStringContents } from '../edits.js';
import { chartCursorAt } from '../chart/cursor.js';
import { chartTree, propertyValue } from '../chart/tree.js';
import { pathMatches, type Cursor } from '../cursor.js';
import { flowStateLine } from './describe.js';
import { flowVariableNames, type LoadSubFlow } from './sub-flows.js';

/** A completion with the Markdown shown beside the list (a tool's or an argument's documentation). */
export interface FlowCompletionItem extends CompletionItem {
  readonly documentation?: string;
}

interface Candidate {
  readonly label: string;
  readonly kind: CompletionKind;
  readonly detail?: string;
  readonly documentation?: string;
}

type Path = readonly (string | number)[];

export function flowCompletionsAt(text: string, wf: Workflow | undefined, offset: number, json: boolean, loadSubFlow?: LoadSubFlow, tools?: ReadonlyMap<string, CustomFlowTool>): FlowCompletionItem[] {
  const cursor = asKey(chartCursorAt(text, offset, json));
  const { path } = cursor;
  if (path[0] === 'states' && path[2] === 'arguments' && !cursor.atKey) {
    const inTemplate = templateItems(text, wf, offset, String(path[1]), loadSubFlow);
    if (inTemplate) return inTemplate;
  }
  if (cursor.afterValue) return [];
  const str = cursor.string;
  const range = str ? { start: str.start, end: str.end } : { start: offset, end: offset };
  const keySuffix = !json && cursor.atKey && text[range.end] !== ':' ? ': ' : '';
  const insert = (label: string): string => {
    if (!json) return label + keySuffix;
    return str ? jsonStringContents(label) + (str.closed ? '' : '"') : JSON.stringify(label);
  };
  const found = cursor.atKey ? keyCandidates(text, json, wf, path, tools) : valueCandidates(wf, path, tools);
  return found.map((c) => ({ ...c, range, insertText: insert(c.label) }));
}

/**
 * A mapping's first key being typed alone (`arguments:` then a line `  pr`)
 * reads in YAML as the mapping's value, a plain string: where a mapping
 * belongs, it is a key.
 */
function asKey(cursor: Cursor): Cursor {
  const { path, string } = cursor;
  if (cursor.atKey || !string || !MAPPINGS.some((m) => pathMatches(path, m))) return cursor;
  return { path: [...path, string.value], atKey: true, string };
}

const MAPPINGS: readonly (readonly string[])[] = [['states', '*'], ['states', '*', 'arguments'], ['states', '*', 'arguments', 'tasks', '#', 'arguments']];

function valueCandidates(wf: Workflow | undefined, path: Path, tools: ReadonlyMap<string, CustomFlowTool> | undefined): Candidate[] {
  if (pathMatches(path, ['start-at']) || pathMatches(path, ['states', '*', 'next']) || pathMatches(path, ['states', '*', 'on-error', '*']) || pathMatches(path, ['states', '*', 'goto', '*'])) {
    return states(wf, path[1] === undefined ? undefined : String(path[1]));
  }
  if (pathMatches(path, ['states', '*', 'arguments', 'tasks', '#'])) return states(wf, String(path[1]));
  if (pathMatches(path, ['states', '*', 'tool']) || pathMatches(path, ['states', '*', 'arguments', 'tasks', '#', 'tool'])) {
    const builtIn: Candidate[] = FLOW_TOOLS.map((t) => ({ label: t, kind: 'tool', detail: firstClause(FLOW_TOOL_DOCS[t].summary), documentation: flowToolMarkdown(t) }));
    const custom: Candidate[] = [...(tools?.values() ?? [])].map((t) => ({ label: t.name, kind: 'tool', detail: 'custom tool (.stategate/flow-tools.yaml)', documentation: customToolMarkdown(t) }));
    return [...builtIn, ...custom];
  }
  return [];
}

/** Every state, the one the cursor is in last (going back to itself is rarely meant). */
function states(wf: Workflow | undefined, current: string | undefined): Candidate[] {
  if (!wf) return [];
  const ids = [...wf.states.keys()];
  const ordered = [...ids.filter((id) => id !== current), ...ids.filter((id) => id === current)];
  return ordered.map((id) => ({ label: id, kind: 'state', detail: flowStateLine(wf, id) }));
}

function keyCandidates(text: string, json: boolean, wf: Workflow | undefined, path: Path, tools: ReadonlyMap<string, CustomFlowTool> | undefined): Candidate[] {
  const object = path.slice(0, -1);
  const typing = path[path.length - 1];
  const node = nodeAtPath(chartTree(text, json), object);
  const present = new Set((node?.type === 'object' ? (node.children ?? []) : []).map((p) => String(p.children?.[0]?.value)).filter((k) => k !== typing));
  const fields = (list: readonly string[], what: string): Candidate[] => list.filter((f) => !present.has(f)).map((f) => ({ label: f, kind: 'field', detail: what }));
  if (object.length === 0) return fields(FLOW_FIELDS, 'flow field');
  if (pathMatches(object, ['states', '*'])) {
    const tool = wf?.states.get(String(object[1]))?.flow?.tool;
    return fields(FLOW_STATE_FIELDS.filter((f) => f !== 'goto' || tool === 'switch' || tool === undefined || tool === ''), 'state field');
  }
  if (pathMatches(object, ['states', '*', 'arguments', 'tasks', '#'])) return fields(FLOW_TASK_FIELDS, 'task field');
  const argsOf = pathMatches(object, ['states', '*', 'arguments'])
    ? propertyValue(nodeAtPath(chartTree(text, json), object.slice(0, -1)), 'tool')?.value
    : pathMatches(object, ['states', '*', 'arguments', 'tasks', '#', 'arguments'])
      ? propertyValue(nodeAtPath(chartTree(text, json), object.slice(0, -1)), 'tool')?.value
      : undefined;
  if (typeof argsOf === 'string' && isFlowTool(argsOf)) {
    // The table lists required arguments first; the editor keeps this order.
    return FLOW_TOOL_DOCS[argsOf].arguments
      .filter((a) => !present.has(a.name))
      .map((a) => ({ label: a.name, kind: 'field', detail: `${a.required ? 'required' : 'optional'} argument of ${argsOf}`, documentation: a.doc }));
  }
  const custom = typeof argsOf === 'string' ? tools?.get(argsOf) : undefined;
  if (custom) {
    // Required ones first, as for the built-in tools.
    return [...custom.arguments.filter((a) => a.required), ...custom.arguments.filter((a) => !a.required)]
      .filter((a) => !present.has(a.name))
      .map((a) => ({ label: a.name, kind: 'field', detail: `${a.required ? 'required' : 'optional'} argument of ${custom.name}`, documentation: `Put into \`${custom.command}\`.` }));
  }
  return [];
}

function nodeAtPath(root: JsonNode | undefined, path: Path): JsonNode | undefined {
  let node = root;
  for (const seg of path) node = typeof seg === 'number' ? (node?.type === 'array' ? node.children?.[seg] : undefined) : propertyValue(node, seg);
  return node;
}

/**
 * Inside `{{ ` on the cursor's line (opened and not closed before the
 * cursor): the variables, with ` }}` added when the template is not closed
 * after the cursor. Undefined when the cursor is not in a template.
 */
function templateItems(text: string, wf: Workflow | undefined, offset: number, state: string, loadSubFlow?: LoadSubFlow): CompletionItem[] | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const open = before.lastIndexOf('{{');
  if (open < 0 || before.lastIndexOf('}}') > open) return undefined;
  const typed = /^\s*([A-Za-z0-9_:-]*)$/.exec(before.slice(open + 2));
  if (!typed || !wf) return typed ? [] : undefined;
  const partial = typed[1] ?? '';
  const range = { start: offset - partial.length, end: offset };
  const rest = text.slice(offset, text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset));
  const closed = /^[A-Za-z0-9_:-]*\s*\}\}/.test(rest);
  return variableCandidates(wf, state, loadSubFlow).map((c) => ({ ...c, range: { start: range.start, end: closed ? range.end + (/^[A-Za-z0-9_:-]*/.exec(rest)?.[0].length ?? 0) : range.end }, insertText: closed ? c.label : `${c.label} }}` }));
}

/** Declared variables, outputs, sub-flow variables; those some path defines before `state` first. */
function variableCandidates(wf: Workflow, state: string, loadSubFlow?: LoadSubFlow): Candidate[] {
  const all = new Map<string, string>();
  for (const [k, v] of Object.entries(wf.flow?.variables ?? {})) all.set(k, `variable (default ${JSON.stringify(v)})`);
  for (const s of wf.states.values()) {
    const outputs = [s.flow?.output, ...(s.flow?.tasks ?? []).map((t) => (t.kind === 'call' ? t.output : undefined))];
    for (const o of outputs) if (o?.kind === 'var' && !all.has(o.name)) all.set(o.name, `output of ${s.key}`);
    const ref = s.flow?.tool === 'sub-flow' ? s.flow.arguments['workflow'] : undefined;
    const child = typeof ref === 'string' ? loadSubFlow?.(ref) : undefined;
    // The child starts with its defaults and the state's other arguments (flow/sub-flow.ts); all of them come back.
    const passed = s.flow?.tool === 'sub-flow' ? Object.keys(s.flow.arguments).filter((k) => k !== 'workflow') : [];
    for (const v of child ? [...flowVariableNames(child), ...passed] : []) all.set(`${s.key}::${v}`, `variable of the sub-flow ${String(ref)}`);
  }
  const known = definedBefore(wf, flowEdges(wf)).get(state) ?? new Set<string>();
  const before = (name: string): boolean => known.has(name) || (name.includes('::') && known.has(`${name.slice(0, name.indexOf('::'))}::*`));
  const items = [...all].map(([label, detail]) => ({ label, kind: 'context-field' as const, detail: before(label) ? detail : `${detail}; not set on any path to ${state}` }));
  return [...items.filter((c) => before(c.label)), ...items.filter((c) => !before(c.label))];
}

/** `Runs \`command\` with bash in the workspace folder` of the summary: up to its first `;` or `.`. */
function firstClause(summary: string): string {
  return /^[^;.]*/.exec(summary)?.[0] ?? summary;
}
