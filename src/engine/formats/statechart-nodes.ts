/**
 * Statechart state nodes -> IR `StateNode`s, depth first and in document
 * order (a parent is in `states` before its children). A node's id is its
 * dotted path; `type` defaults to compound with `states`, parallel with
 * `regions`, else atomic; a parallel state's `regions: [{id, initial, states}]`
 * become its children, keyed by region id (XState's form, a parallel state
 * whose `states` are its regions, is read the same way). Statewright's state
 * rules are read on every node by the Statewright loader's own reader.
 */
import type { ActionRef, ChartMeta, ChartNode, ChartTransition, InvokeDef, SourceLoc, StateKind, StateNode } from '../model/index.js';
import { childPointer, nodeLoc, type JsonNode } from './jsonc.js';
import { fieldsOf, type Entry, type Fields, type Reader } from './reader.js';
import { readActionList } from './statechart-actions.js';
import { capitalize, valueOf } from './statechart-read.js';
import { HISTORY_FIELDS, HISTORY_VARIANTS, META_FIELDS, NODE_FIELDS, NODE_TYPES, POSITION_FIELDS, REGION_FIELDS } from './statechart-fields.js';
import { readAfter, readCandidates, readInvokes, readOn } from './statechart-transitions.js';
import { readRules } from './statewright.js';
import { readStage } from './stage-read.js';
import { NONE } from './shared-empty.js';
import { ALWAYS, ChartNodeData, ChartState, DONE, emptyList, emptyRecord } from './ir-objects.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Code of a field written where it has no effect (or is not read) for the node's kind. */
export const MISPLACED = 'chart-misplaced-field';

/**
 * How many levels of states a chart may nest. Far beyond any real chart; it
 * bounds the loader's and the validator's recursion, so a pathological file
 * is reported instead of exhausting the stack.
 */
export const MAX_NESTING = 100;

/** Where a node is written: under a `states` key, or as an item of `regions`. */
interface NodeSource {
  readonly key: string;
  readonly keyLoc: SourceLoc;
  readonly node: JsonNode;
  readonly pointer: string;
  /** Written as an item of `regions` (its key is its `id`). */
  readonly listItem: boolean;
  /** A child of a parallel state. */
  readonly region: boolean;
}

export class ChartNodes {
  readonly states = new Map<string, StateNode>();
  /** Ids of nodes written but left out because malformed (validation does not report targets naming them). */
  readonly skipped = new Set<string>();

  constructor(private readonly r: Reader) {}

  /** The children under a `states` key; their ids in document order. */
  readChildren(e: Entry, parentId: string | undefined, region: boolean): string[] {
    const r = this.r;
    const owner = parentId === undefined ? 'the statechart' : `\`${parentId}\``;
    const what = `\`states\` of ${owner}`;
    if (!r.isObject(e.node, e.pointer, what)) return [];
    const ids = emptyList<string>();
    for (const s of r.entries(e.node, e.pointer, what, 'duplicate-state')) {
      const id = this.readNode({ key: s.key, keyLoc: s.keyLoc, node: s.node, pointer: s.pointer, listItem: false, region }, parentId);
      if (id !== undefined) ids.push(id);
    }
    return ids;
  }

  /** `regions: [{id, initial, states}, ...]` of a parallel state. */
  private readRegions(e: Entry, parentId: string): string[] {
    const r = this.r;
    if (e.node.type !== 'array') {
      r.report('error', 'invalid-type', `\`regions\` of \`${parentId}\` must be a list of regions \`{id, initial, states}\`.`, nodeLoc(e.node, e.pointer));
      return [];
    }
    const ids = emptyList<string>();
    const seen = new Map<string, SourceLoc>();
    (e.node.children ?? []).forEach((item, i) => {
      const pointer = childPointer(e.pointer, i);
      const what = `region ${i + 1} of \`${parentId}\``;
      if (!r.isObject(item, pointer, `The value of ${what}`)) return;
      const idNode = valueOf(item, 'id');
      if (!idNode) return r.missing(item, pointer, 'id', what, ' Name the region: `id: <name>`.');
      const keyLoc = nodeLoc(idNode, `${pointer}/id`);
      if (idNode.type !== 'string') return r.report('error', 'invalid-type', `The \`id\` of ${what} must be a string.`, keyLoc);
      const key = idNode.value as string;
      const earlier = seen.get(key);
      if (earlier) {
        r.report('error', 'duplicate-state', `Region \`${key}\` appears twice in \`${parentId}\`; only the first one counts. Rename one of them.`, keyLoc, {
          related: [{ message: `first \`${key}\``, loc: earlier }],
        });
        return;
      }
      seen.set(key, keyLoc);
      const id = this.readNode({ key, keyLoc, node: item, pointer, listItem: true, region: true }, parentId);
      if (id !== undefined) ids.push(id);
    });
    return ids;
  }

  private readNode(src: NodeSource, parentId: string | undefined): string | undefined {
    const r = this.r;
    const id = parentId === undefined ? src.key : `${parentId}.${src.key}`;
    const label = `${src.listItem ? 'region' : 'state'} \`${id}\``;
    if (parentId !== undefined && depthOf(parentId) >= MAX_NESTING) {
      r.report('error', 'chart-nesting-limit', `States nest more than ${MAX_NESTING} levels deep here; \`${src.key}\` and the states inside it are ignored.`, src.keyLoc);
      this.skipped.add(id);
      return undefined;
    }
    if (src.key === '' || src.key.includes('.')) {
      r.report(
        'error',
        'invalid-state-name',
        `${src.key === '' ? 'An empty name' : `\`${src.key}\``} cannot name a state: a dot separates the levels of a target path (\`parent.child\`). Rename it; the state is ignored.`,
        src.keyLoc,
      );
      this.skipped.add(id);
      return undefined;
    }
    // `idle:` with nothing after it (YAML) is an empty atomic state, as `idle: {}`.
    const empty = src.node.type === 'null';
    if (!empty && src.node.type !== 'object' && !r.isObject(src.node, src.pointer, capitalize(label))) {
      this.skipped.add(id);
      return undefined;
    }
    const typeNode = empty ? undefined : valueOf(src.node, 'type');
    const history = typeNode?.value === 'history' && !src.listItem;
    const known = history ? HISTORY_FIELDS : src.listItem ? REGION_FIELDS : NODE_FIELDS;
    const f = empty ? fieldsOf([]) : r.fields(src.node, src.pointer, label, known);
    const kind = src.listItem ? 'compound' : (r.oneOf(f.get('type'), NODE_TYPES) ?? defaultKind(f));

    const fieldLocs = emptyRecord<SourceLoc>();
    for (const entry of f.list) fieldLocs[entry.key] = nodeLoc(entry.node, entry.pointer);
    const state: Mutable<StateNode> = new ChartState(src.key, id, kind, readRules(r, f), src.keyLoc, nodeLoc(src.node, src.pointer), fieldLocs);
    if (parentId !== undefined) state.parent = parentId;
    if (!src.listItem && !history) readStage(r, f, state); // regions and history nodes do not know the stage fields
    this.states.set(id, state); // before the children: `states` is in document order, parents first

    const chart: Mutable<ChartNode> = readBehaviour(r, f, id, label, kind);
    if (src.region) chart.region = true;
    const meta = readChartMeta(r, f.get('meta'));
    if (meta) chart.meta = meta;
    if (kind === 'history') {
      chart.history = r.oneOf(f.get('variant'), HISTORY_VARIANTS) ?? 'shallow';
      const target = r.ref(f.get('target'));
      if (target) chart.historyDefault = target;
    }
    state.chart = chart;

    const initial = r.ref(f.get('initial'));
    if (kind === 'compound' && initial) state.initial = initial;
    else if (kind !== 'compound') misplaced(r, f.get('initial'), `${label} is ${kind}: only a compound state has an initial child`);
    state.children = this.readNodeChildren(f, id, label, kind);
    return id;
  }

  private readNodeChildren(f: Fields, id: string, label: string, kind: StateKind): readonly string[] {
    const states = f.get('states');
    const regions = f.get('regions');
    if (kind === 'compound') {
      misplaced(this.r, regions, `${label} is compound: \`regions\` belong to a parallel state`, 'error');
      return states ? this.readChildren(states, id, false) : NONE;
    }
    if (kind === 'parallel') {
      if (regions) {
        misplaced(this.r, states, `${label} has \`regions\`: a parallel state's children are its regions`, 'error');
        return this.readRegions(regions, id);
      }
      return states ? this.readChildren(states, id, true) : NONE;
    }
    misplaced(this.r, states, `${label} is ${kind}: only a compound state has child \`states\``, 'error');
    misplaced(this.r, regions, `${label} is ${kind}: only a parallel state has \`regions\``, 'error');
    return NONE;
  }
}

/** How many levels deep the state `id` is (1 at the top: keys have no dots). */
function depthOf(id: string): number {
  let depth = 1;
  for (let i = id.indexOf('.'); i >= 0; i = id.indexOf('.', i + 1)) depth++;
  return depth;
}

/** compound with `states`, parallel with `regions`, else atomic. */
function defaultKind(f: Fields): StateKind {
  if (f.has('regions')) return 'parallel';
  if (f.has('states')) return 'compound';
  return 'atomic';
}

/**
 * A node's behaviour in document order: entry/exit actions, invocations and
 * every transition. The chart root reads its own with `kind` 'compound'.
 */
export function readBehaviour(r: Reader, f: Fields, id: string, label: string, kind: StateKind): Pick<ChartNode, 'transitions' | 'entry' | 'exit' | 'invoke'> {
  const transitions = emptyList<ChartTransition>();
  let entry: readonly ActionRef[] = NONE;
  let exit: readonly ActionRef[] = NONE;
  const invoke = emptyList<InvokeDef>();
  const final = kind === 'final';
  for (const e of f.list) {
    switch (e.key) {
      case 'entry':
        entry = readActionList(r, e, `\`entry\` of ${label}`);
        break;
      case 'exit':
        exit = readActionList(r, e, `\`exit\` of ${label}`);
        break;
      case 'on':
      case 'always':
      case 'after':
      case 'invoke':
        if (final) misplaced(r, e, `${label} is final: it is never left, so its \`${e.key}\` never runs`);
        else if (e.key === 'on') readOn(r, e, label, transitions);
        else if (e.key === 'always') readCandidates(r, e, ALWAYS, `\`always\` of ${label}`, transitions);
        else if (e.key === 'after') readAfter(r, e, label, transitions);
        else readInvokes(r, e, id === '' ? '(machine)' : id, label, invoke, transitions);
        break;
      case 'onDone':
        if (kind === 'compound' || kind === 'parallel') readCandidates(r, e, DONE, `\`onDone\` of ${label}`, transitions);
        else misplaced(r, e, `${label} is ${kind}: \`onDone\` belongs to a compound state (and \`onAllDone\` to a parallel one)`);
        break;
      case 'onAllDone':
        if (kind === 'parallel') readCandidates(r, e, DONE, `\`onAllDone\` of ${label}`, transitions);
        else misplaced(r, e, `${label} is ${kind}: \`onAllDone\` belongs to a parallel state (a compound state has \`onDone\`)`);
        break;
    }
  }
  return new ChartNodeData(transitions.length ? transitions : NONE, entry, exit, invoke.length ? invoke : NONE);
}

/** `meta: {label, description, color, position: {x, y}}`; other keys are the author's own and pass. */
export function readChartMeta(r: Reader, e: Entry | undefined): ChartMeta | undefined {
  if (!e || !r.isObject(e.node, e.pointer, '`meta`')) return undefined;
  const f = fieldsOf(r.entries(e.node, e.pointer, '`meta`'));
  const meta: Mutable<ChartMeta> = {};
  for (const key of META_FIELDS) {
    if (key === 'position') continue;
    const value = r.string(f.get(key));
    if (value !== undefined) meta[key] = value;
  }
  const pos = f.get('position');
  if (pos && r.isObject(pos.node, pos.pointer, '`position`')) {
    const p = r.fields(pos.node, pos.pointer, '`position`', POSITION_FIELDS);
    const x = r.number(p.get('x'));
    const y = r.number(p.get('y'));
    if (!p.has('x')) r.missing(pos.node, pos.pointer, 'x', '`position`');
    if (!p.has('y')) r.missing(pos.node, pos.pointer, 'y', '`position`');
    if (x !== undefined && y !== undefined) meta.position = { x, y };
  }
  return Object.keys(meta).length ? meta : undefined;
}

function misplaced(r: Reader, e: Entry | undefined, why: string, severity: 'error' | 'warning' = 'warning'): void {
  if (!e) return;
  r.report(severity, MISPLACED, `${capitalize(why)}; \`${e.key}\` is ignored here.`, e.keyLoc, { data: { field: e.key } });
}
