/**
 * Statechart actions -> IR: `entry` / `exit` / transition `actions` lists
 * (a name defined under the chart's `actions`, or an inline object; a single
 * one need not be in a list), and the chart's named `actions`. A name stays a
 * NameRef: whether it is defined is validation rule 7 (check/chart-actions.ts).
 * An inline action of an unknown `type` is reported here with rule 7's code,
 * since it never reaches the IR.
 */
import type { ActionDef, ActionRef, ActionType, AssignUpdate, ExprSource, NamedAction } from '../model/index.js';
import { ACTION_TYPES } from '../model/index.js';
import { closestName, didYouMean } from '../util/suggest.js';
import { childPointer, nodeLoc, type JsonNode } from './jsonc.js';
import type { Entry, Reader } from './reader.js';
import { ACTION_FIELDS } from './statechart-fields.js';
import { valueOf } from './statechart-read.js';
import { NONE } from './shared-empty.js';
import { emptyList, NamedActionRef, Ref, single } from './ir-objects.js';

export const UNKNOWN_ACTION = 'chart-unknown-action';

const ALL_FIELDS = ['type', ...new Set(Object.values(ACTION_FIELDS).flat())];

/** `entry: [a, {type: log}]`, `entry: a`, `entry: {type: log}`. */
export function readActionList(r: Reader, e: Entry, what: string): readonly ActionRef[] {
  if (e.node.type === 'array') {
    const out = emptyList<ActionRef>();
    const items = e.node.children ?? [];
    for (let i = 0; i < items.length; i++) {
      // An item is read by its node and pointer alone (no Entry, no label: nothing here names the item by itself).
      const ref = readActionRef(r, items[i] as JsonNode, childPointer(e.pointer, i), what);
      if (ref) out.push(ref);
    }
    return out.length ? out : NONE;
  }
  const one = readActionRef(r, e.node, e.pointer, what);
  return one ? single(one) : NONE;
}

function readActionRef(r: Reader, node: JsonNode, pointer: string, what: string): ActionRef | undefined {
  if (node.type === 'string') return new NamedActionRef(new Ref(node.value as string, nodeLoc(node, pointer)));
  if (node.type === 'object') {
    const action = readActionDef(r, node, pointer, `an action of ${what}`);
    return action ? { kind: 'inline', action } : undefined;
  }
  r.report('error', 'invalid-type', `Each action of ${what} must be an action name or an inline action object (\`{type: log, message: ...}\`).`, nodeLoc(node, pointer));
  return undefined;
}

/** The chart's `actions: {name: {type, ...}}`; names whose definition is malformed go to `skipped`. */
export function readNamedActions(r: Reader, e: Entry | undefined, skipped: Set<string>): Map<string, NamedAction> {
  const out = new Map<string, NamedAction>();
  if (!e || !r.isObject(e.node, e.pointer, '`actions`')) return out;
  for (const a of r.entries(e.node, e.pointer, '`actions`')) {
    const action = readActionDef(r, a.node, a.pointer, `action \`${a.key}\``);
    if (action) out.set(a.key, { name: a.key, nameLoc: a.keyLoc, action });
    else skipped.add(a.key);
  }
  return out;
}

/** One action object; undefined when it cannot be used (the problem is reported). */
export function readActionDef(r: Reader, node: JsonNode, pointer: string, what: string): ActionDef | undefined {
  if (!r.isObject(node, pointer, `The value of ${what}`)) return undefined;
  const type = typeOf(node);
  // With an unknown type, any action's fields pass: the type is what is wrong.
  const known = type === undefined ? ALL_FIELDS : ['type', ...ACTION_FIELDS[type]];
  const f = r.fields(node, pointer, what, known);
  const typeEntry = f.get('type');
  if (!typeEntry) {
    r.missing(node, pointer, 'type', what, ` Use one of ${ACTION_TYPES.join(', ')}.`);
    return undefined;
  }
  const written = r.string(typeEntry);
  if (written === undefined) return undefined;
  if (type === undefined) {
    const closest = closestName(written, ACTION_TYPES);
    r.report(
      'error',
      UNKNOWN_ACTION,
      `\`${written}\` is not a built-in action type (${ACTION_TYPES.join(', ')}).${didYouMean(closest)}`,
      nodeLoc(typeEntry.node, typeEntry.pointer),
      closest === undefined ? {} : { data: { closest } },
    );
    return undefined;
  }
  const loc = nodeLoc(node, pointer);
  const data = r.jsonObject(f.get('data'));
  const dataEntry = f.get('data');
  const strings = data && dataEntry ? dataStrings(dataEntry.node, dataEntry.pointer) : [];
  const dataFields = strings.length ? { dataStrings: strings } : {};
  const required = (key: string, hint: string): string | undefined => {
    if (!f.has(key)) r.missing(node, pointer, key, what, hint);
    return r.string(f.get(key));
  };
  switch (type) {
    case 'assign': {
      const updates = readUpdates(r, f.get('context_updates'));
      if (!f.has('context_updates')) r.missing(node, pointer, 'context_updates', what, ' Add `context_updates: {key: expression}`.');
      return { type, updates: updates ?? [], loc };
    }
    case 'raise':
    case 'emit': {
      const event = required('event', ' Name the event, e.g. `event: REGION_FAILED`.');
      if (event === undefined) return undefined;
      return data ? { type, event, data, ...dataFields, loc } : { type, event, loc };
    }
    case 'send': {
      const to = required('target', ' Name the run or invoked child that receives the event.');
      const event = required('event', ' Name the event to send.');
      if (to === undefined || event === undefined) return undefined;
      return data ? { type, to, event, data, ...dataFields, loc } : { type, to, event, loc };
    }
    case 'log': {
      const message = r.string(f.get('message'));
      return { type, ...(message !== undefined ? { message } : {}), ...(data ? { data, ...dataFields } : {}), loc };
    }
    case 'invoke': {
      const handler = required('handler', ' Name the handler to call, e.g. `handler: timers.start`.');
      const params = r.jsonObject(f.get('params'));
      if (handler === undefined) return undefined;
      return params ? { type, handler, params, loc } : { type, handler, loc };
    }
  }
}

/**
 * `context_updates: {key: expression}`. A number, true/false or null written
 * as a YAML/JSON value is the expression of that literal; objects and arrays
 * are not expressions.
 */
function readUpdates(r: Reader, e: Entry | undefined): AssignUpdate[] | undefined {
  if (!e || !r.isObject(e.node, e.pointer, '`context_updates`')) return undefined;
  const out: AssignUpdate[] = [];
  for (const u of r.entries(e.node, e.pointer, '`context_updates`')) {
    const loc = nodeLoc(u.node, u.pointer);
    if (u.node.type === 'string') out.push({ key: u.key, keyLoc: u.keyLoc, expr: { text: u.node.value as string, loc } });
    else if (u.node.type === 'number' || u.node.type === 'boolean' || u.node.type === 'null') {
      out.push({ key: u.key, keyLoc: u.keyLoc, expr: { text: JSON.stringify(u.node.value ?? null), loc } });
    } else {
      r.report('error', 'invalid-type', `The update of \`${u.key}\` must be an expression (a string such as "context.count + 1") or a literal.`, loc);
    }
  }
  return out;
}

/**
 * The strings of an action's `data` with their ranges, nested objects and
 * arrays walked. Which of them are expressions (those that read a binding, as
 * the interpreter decides) is validation's to tell: the loader does not load
 * the expression language (the hook's bundle stays without it).
 */
function dataStrings(node: JsonNode, pointer: string, out: ExprSource[] = []): ExprSource[] {
  if (node.type === 'string') {
    out.push({ text: node.value as string, loc: nodeLoc(node, pointer) });
  } else if (node.type === 'array') {
    (node.children ?? []).forEach((item, i) => dataStrings(item, childPointer(pointer, i), out));
  } else if (node.type === 'object') {
    for (const prop of node.children ?? []) {
      const [key, value] = prop.children ?? [];
      if (key && value && typeof key.value === 'string') dataStrings(value, childPointer(pointer, key.value), out);
    }
  }
  return out;
}

/** The action's `type` when it is a built-in one (read quietly: the Reader reports problems with it). */
function typeOf(node: JsonNode): ActionType | undefined {
  const value = valueOf(node, 'type')?.value;
  return typeof value === 'string' && (ACTION_TYPES as readonly string[]).includes(value) ? (value as ActionType) : undefined;
}
