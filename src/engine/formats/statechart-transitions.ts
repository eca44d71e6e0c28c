/**
 * Statechart transitions -> IR `ChartTransition`s: `on` (an event's value is a
 * target name, one candidate object, or an array of guarded candidates tried in
 * order; the event may be `*`), `always`, `after` (a key of digits is
 * milliseconds, any other key an expression giving milliseconds), `onDone` /
 * `onAllDone`, and `invoke` with its `onDone` / `onError`. Targets stay
 * NameRefs as written; resolving them is validation (rule 2) and the machine.
 */
import type { ChartTransition, ChartTrigger, ExprSource, InvokeDef, NameRef, SourceLoc } from '../model/index.js';
import { childPointer, nodeLoc, type JsonNode } from './jsonc.js';
import type { Entry, Reader } from './reader.js';
import { readActionList } from './statechart-actions.js';
import { NONE } from './shared-empty.js';
import { AfterTrigger, Candidate, EventTrigger, Expr, InvokeTrigger, Ref, single } from './ir-objects.js';
import { INVOKE_FIELDS, TRANSITION_FIELDS } from './statechart-fields.js';

/** `NAME: target`, `NAME: {target, guard, actions, reenter}`, or `NAME: [candidate, ...]`; appended to `out`. */
export function readCandidates(r: Reader, e: Entry, trigger: ChartTrigger, what: string, out: ChartTransition[]): void {
  if (e.node.type === 'array') {
    const items = e.node.children ?? [];
    for (let i = 0; i < items.length; i++) {
      // An item is read by its node and pointer alone (no Entry: nothing in readCandidate names the item by itself).
      const t = readCandidate(r, items[i] as JsonNode, childPointer(e.pointer, i), trigger, `candidate ${i + 1} of ${what}`);
      if (t) out.push(t);
    }
    return;
  }
  const t = readCandidate(r, e.node, e.pointer, trigger, what);
  if (t) out.push(t);
}

function readCandidate(r: Reader, node: JsonNode, pointer: string, trigger: ChartTrigger, what: string): ChartTransition | undefined {
  const loc = nodeLoc(node, pointer);
  if (node.type === 'string') return new Candidate(trigger, single(new Ref(node.value as string, loc)), undefined, NONE, false, loc);
  if (node.type !== 'object') {
    r.report('error', 'invalid-type', `The value of ${what} must be a target state name or an object with \`target\`, \`guard\`, \`actions\`.`, loc);
    return undefined;
  }
  const f = r.fields(node, pointer, what, TRANSITION_FIELDS);
  const targetEntry = f.get('target');
  const targets = targetEntry ? readTargets(r, targetEntry) : NONE;
  const guardEntry = f.get('guard');
  const guard = readExpr(r, guardEntry, 'a guard expression such as "context.score >= 90"');
  const actionsEntry = f.get('actions');
  const actions = actionsEntry ? readActionList(r, actionsEntry, what) : NONE;
  const reenter = r.boolean(f.get('reenter')) ?? false;
  return new Candidate(trigger, targets, guard, actions, reenter, loc);
}

/** `target: name` or `target: [name, ...]` (one per parallel region). */
function readTargets(r: Reader, e: Entry): NameRef[] {
  if (e.node.type === 'array') return r.refArray(e) ?? [];
  const ref = r.ref(e);
  return ref ? single(ref) : [];
}

/** A string holding an expression, with the range of its contents (so a parse error points inside it). */
export function readExpr(r: Reader, e: Entry | undefined, expected: string): ExprSource | undefined {
  if (!e) return undefined;
  if (e.node.type !== 'string') {
    r.report('error', 'invalid-type', `\`${e.key}\` must be ${expected}, written as a string.`, nodeLoc(e.node, e.pointer));
    return undefined;
  }
  return new Expr(e.node.value as string, nodeLoc(e.node, e.pointer));
}

/** `on: {EVENT: ...}` */
export function readOn(r: Reader, e: Entry, owner: string, out: ChartTransition[]): void {
  const what = `\`on\` of ${owner}`; // once for both reads (each state with \`on\` made it twice)
  if (!r.isObject(e.node, e.pointer, what)) return;
  for (const event of r.entries(e.node, e.pointer, what)) {
    const first = out.length;
    readCandidates(r, event, new EventTrigger(event.key), `transition \`${event.key}\` of ${owner}`, out);
    const eventLoc = event.keyLoc; // one range shared by the event's candidates
    for (let i = first; i < out.length; i++) (out[i] as { eventLoc?: SourceLoc }).eventLoc = eventLoc;
  }
}

/** `after: {86400000: ..., "context.sla_ms": ...}` */
export function readAfter(r: Reader, e: Entry, owner: string, out: ChartTransition[]): void {
  const what = `\`after\` of ${owner}`;
  if (!r.isObject(e.node, e.pointer, what)) return;
  for (const d of r.entries(e.node, e.pointer, what)) {
    const delay: number | ExprSource = /^(0|[1-9]\d{0,14})$/.test(d.key) ? Number(d.key) : new Expr(d.key, d.keyLoc);
    readCandidates(r, d, new AfterTrigger(delay), `delayed transition \`${d.key}\` of ${owner}`, out);
  }
}

/**
 * `invoke: {id, src, input, onDone, onError}` or a list of them. An invocation
 * without `id` gets `<state id>:invoke:<n>` (n counts from 0 in the node), so
 * its done and error events have a stable name.
 */
export function readInvokes(r: Reader, e: Entry, ownerId: string, owner: string, invokes: InvokeDef[], out: ChartTransition[]): void {
  if (e.node.type === 'array') {
    (e.node.children ?? []).forEach((item, i) => readInvoke(r, item, childPointer(e.pointer, i), ownerId, `invocation ${i + 1} of ${owner}`, invokes, out));
  } else {
    readInvoke(r, e.node, e.pointer, ownerId, `the invocation of ${owner}`, invokes, out);
  }
}

function readInvoke(r: Reader, node: JsonNode, pointer: string, ownerId: string, what: string, invokes: InvokeDef[], out: ChartTransition[]): void {
  if (!r.isObject(node, pointer, `The value of ${what}`)) return;
  const f = r.fields(node, pointer, what, INVOKE_FIELDS);
  const idEntry = f.get('id');
  const written = r.string(idEntry);
  const id = written ?? `${ownerId}:invoke:${invokes.length}`;
  const src = r.ref(f.get('src'));
  if (!f.has('src')) r.missing(node, pointer, 'src', what, ' Use `statechart:<id>`, `agent:<name>` or a service name.');
  const input = r.jsonObject(f.get('input'));
  if (!src) return;
  invokes.push({
    id,
    ...(idEntry && written !== undefined ? { idLoc: nodeLoc(idEntry.node, idEntry.pointer) } : {}),
    src,
    ...(input ? { input } : {}),
    loc: nodeLoc(node, pointer),
  });
  // onDone / onError in the order written (a node's transitions keep document order).
  for (const entry of f.list) {
    if (entry.key === 'onDone') readCandidates(r, entry, new InvokeTrigger('invoke-done', id), `\`onDone\` of ${what}`, out);
    else if (entry.key === 'onError') readCandidates(r, entry, new InvokeTrigger('invoke-error', id), `\`onError\` of ${what}`, out);
  }
}
