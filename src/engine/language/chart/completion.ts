/**
 * Completion in a statechart (YAML or JSON): state names where a target or an
 * `initial` goes (each state by the shortest name that resolves to it from
 * the transition's node, under the nearest-in-scope rule), action names,
 * event names used elsewhere in the chart, the field names of the object
 * under the cursor, and context keys and `event.data` paths in expressions.
 */
import { expressionReferences, parseExpression } from '../../expr/index.js';
import { ACTION_FIELDS, CHART_FIELDS, HISTORY_FIELDS, INVOKE_FIELDS, META_FIELDS, NODE_FIELDS, REGION_FIELDS, TRANSITION_FIELDS } from '../../formats/statechart-fields.js';
import type { JsonNode } from '../../formats/jsonc.js';
import type { JsonObject, Workflow } from '../../model/index.js';
import { resolveTarget } from '../../statechart/targets.js';
import { expressions, indexChart } from '../../check/chart-walk.js';
import type { CompletionItem, CompletionKind } from '../completion.js';
import { contextPaths } from '../completion.js';
import { jsonStringContents } from '../edits.js';
import { chartCursorAt } from './cursor.js';
import { chartStateLine } from './describe.js';
import { keySlot, valueSlot, type ChartSlot, type ObjectKind } from './slots.js';
import { chartTree, propertyValue } from './tree.js';
import { completionToolCandidates, promptItems, stateEvents } from '../prompt-completion.js';

interface Candidate {
  readonly label: string;
  readonly kind: CompletionKind;
  readonly detail?: string;
}

export function chartCompletionsAt(text: string, wf: Workflow | undefined, offset: number, json: boolean): CompletionItem[] {
  const cursor = chartCursorAt(text, offset, json);
  if (cursor.afterValue) return [];
  const slot = cursor.atKey ? keySlot(wf, cursor.path) : valueSlot(wf, cursor.path);
  if (!slot) return [];
  const str = cursor.string;
  if (slot.kind === 'expression') return str ? expressionItems(wf, text, str.start, offset) : [];
  if (slot.kind === 'prompt') return str ? promptItems(wf, slot.node, text, str.start, offset) : [];
  const range = str ? { start: str.start, end: str.end } : { start: offset, end: offset };
  // YAML: a new key gets its `: ` unless it is already there.
  const keySuffix = !json && slot.kind !== 'event' && cursor.atKey && text[range.end] !== ':' ? ': ' : '';
  const insert = (label: string): string => {
    if (!json) return label + (cursor.atKey ? (slot.kind === 'event' && text[range.end] !== ':' ? ': ' : keySuffix) : '');
    return str ? jsonStringContents(label) + (str.closed ? '' : '"') : JSON.stringify(label);
  };
  return candidates(wf, text, json, slot, cursor.path).map((c) => ({ ...c, range, insertText: insert(c.label) }));
}

function candidates(wf: Workflow | undefined, text: string, json: boolean, slot: ChartSlot, path: readonly (string | number)[]): Candidate[] {
  switch (slot.kind) {
    case 'target':
      return wf ? targetNames(wf, slot.source) : [];
    case 'initial': {
      const children = slot.node === '' ? (wf?.topLevel ?? []) : (wf?.states.get(slot.node)?.children ?? []);
      return children.map((id) => wf?.states.get(id)).filter((s) => s !== undefined).map((s) => ({ label: s.key, kind: 'state', detail: chartStateLine(s) }));
    }
    case 'action':
      return [...(wf?.chart?.actions.values() ?? [])].map((a) => ({ label: a.name, kind: 'action', detail: `${a.action.type} action` }));
    case 'event':
      return wf ? eventNames(wf, slot.node) : [];
    case 'completion-tool':
      return completionToolCandidates(wf?.states.get(slot.node));
    case 'prompt':
      return []; // chartCompletionsAt answers placeholders itself
    case 'field':
      return fieldNames(text, json, slot.object, slot.path, path[path.length - 1]);
    case 'expression':
      return [];
    case 'handler':
      return [...(wf?.chart?.handlers ?? [])].map(([name, def]) => ({
        label: `${slot.prefix}${name}`,
        kind: 'action' as const,
        detail: def.kind === 'command' ? `command: ${def.argv.join(' ')}` : def.kind === 'flow' ? `flow: ${def.file}` : `MCP tool ${def.tool} of ${def.server}`,
      }));
  }
}

/**
 * Every state by the shortest name that reaches it from `source`: its key when
 * the nearest state with that key is it, else a path from an ancestor that is
 * in reach, else its `#id`. Resolution is the interpreter's (targets.ts).
 */
function targetNames(wf: Workflow, source: string): Candidate[] {
  const named: Array<Candidate & { rank: number }> = [];
  for (const s of wf.states.values()) {
    const keys = s.id.split('.');
    let label = `#${s.id}`;
    for (let j = keys.length - 1; j >= 0; j--) {
      const ref = keys.slice(j).join('.');
      if (resolveTarget(wf, source, ref) === s.id) {
        label = ref;
        break;
      }
    }
    const rank = label.startsWith('#') ? 2 : label.includes('.') ? 1 : 0;
    named.push({ label, kind: 'state', detail: `${s.id} · ${chartStateLine(s)}`, rank });
  }
  return named.sort((a, b) => a.rank - b.rank).map(({ rank: _rank, ...c }) => c);
}

/** Event names the chart uses (transitions, raise/emit/send) that `node` has no `on` entry for yet; a stage's completion tool first. */
function eventNames(wf: Workflow, node: string): Candidate[] {
  const tool = wf.states.get(node)?.completionTool;
  const rest = usedEventNames(wf, node).filter((c) => c.label !== tool);
  const offer = tool !== undefined && !stateEvents(wf.states.get(node)).includes(tool); // not written under `on` yet
  return offer ? [{ label: tool, kind: 'event', detail: "this stage's completion tool: its transition picks the next stage" }, ...rest] : rest;
}

/** Event names the chart uses that `node` has no `on` entry for yet. */
function usedEventNames(wf: Workflow, node: string): Candidate[] {
  const index = indexChart(wf);
  const own = new Set<string>();
  const used = new Set<string>();
  for (const { source, t } of index.transitions) {
    if (t.trigger.kind !== 'event' || t.trigger.event === '*') continue;
    used.add(t.trigger.event);
    if (source === node) own.add(t.trigger.event);
  }
  for (const a of index.actions) if (a.type === 'raise' || a.type === 'emit' || a.type === 'send') used.add(a.event);
  return [...used].filter((e) => !own.has(e)).sort().map((e) => ({ label: e, kind: 'event', detail: 'event used in this chart' }));
}

const FIELDS: Record<Exclude<ObjectKind, 'action'>, readonly string[]> = {
  chart: CHART_FIELDS,
  state: NODE_FIELDS,
  region: REGION_FIELDS,
  history: HISTORY_FIELDS,
  transition: TRANSITION_FIELDS,
  invoke: INVOKE_FIELDS,
  meta: META_FIELDS,
};

/** The fields of the object at `path` that it does not have yet (the one being typed aside). */
function fieldNames(text: string, json: boolean, object: ObjectKind, path: readonly (string | number)[], typing: string | number | undefined): Candidate[] {
  const node = nodeAtPath(chartTree(text, json), path);
  const present = new Set((node?.type === 'object' ? (node.children ?? []) : []).map((p) => String(p.children?.[0]?.value)).filter((k) => k !== typing));
  let fields: readonly string[];
  if (object === 'action') {
    const type = propertyValue(node, 'type')?.value;
    fields = typeof type === 'string' && type in ACTION_FIELDS ? ['type', ...ACTION_FIELDS[type as keyof typeof ACTION_FIELDS]] : ['type'];
  } else {
    fields = FIELDS[object];
  }
  return fields.filter((f) => !present.has(f)).map((f) => ({ label: f, kind: 'field', detail: `${object === 'state' ? 'state' : object} field` }));
}

function nodeAtPath(root: JsonNode | undefined, path: readonly (string | number)[]): JsonNode | undefined {
  let node = root;
  for (const seg of path) node = typeof seg === 'number' ? (node?.type === 'array' ? node.children?.[seg] : undefined) : propertyValue(node, seg);
  return node;
}

/** After `context.` or `event.data.` in an expression: the context's keys and paths, or the event data paths the chart uses. */
function expressionItems(wf: Workflow | undefined, text: string, start: number, offset: number): CompletionItem[] {
  const before = text.slice(start, offset);
  const m = /(?:^|[^\w.$])(context|event\.data)\.([\w$.]*)$/.exec(before);
  if (!m || !wf) return [];
  const tail = m[2] ?? '';
  const range = { start: offset - tail.length, end: offset };
  const paths = m[1] === 'context' ? contextPaths(wf.context) : eventDataPaths(wf);
  const kind: CompletionKind = 'context-field';
  return paths.map((p) => ({ label: p, kind, detail: m[1] === 'context' ? `context (default ${JSON.stringify(valueAt(wf.context, p))})` : 'event data used in this chart', range, insertText: p }));
}

function valueAt(obj: JsonObject, path: string): unknown {
  let v: unknown = obj;
  for (const k of path.split('.')) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined;
  return v ?? null;
}

/** `event.data` paths read by the chart's expressions, and the data keys its raise/emit/send actions send. */
function eventDataPaths(wf: Workflow): string[] {
  const index = indexChart(wf);
  const out = new Set<string>();
  for (const site of expressions(index)) {
    const parsed = parseExpression(site.expr.text);
    if (!parsed.ok) continue;
    for (const r of expressionReferences(parsed.expr)) if (r.kind === 'event' && r.path[0] === 'data' && r.path.length > 1) out.add(r.path.slice(1).join('.'));
  }
  for (const a of index.actions) if ((a.type === 'raise' || a.type === 'emit' || a.type === 'send') && a.data) for (const k of Object.keys(a.data)) out.add(k);
  return [...out].sort();
}
