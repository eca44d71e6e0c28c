/**
 * What belongs at a path of a statechart document: the node the path is in
 * (found through `states` keys and `regions` items, as the loader reads them)
 * and what is written there: a target, an `initial`, an action name, an
 * expression, an event name or a field name of some kind of object.
 */
import type { Workflow } from '../../model/index.js';
import { childId, ROOT_ID } from '../../statechart/targets.js';

export type ObjectKind = 'chart' | 'state' | 'region' | 'history' | 'transition' | 'invoke' | 'action' | 'meta';

export type ChartSlot =
  | { readonly kind: 'target'; readonly source: string }
  | { readonly kind: 'initial'; readonly node: string }
  | { readonly kind: 'action' }
  | { readonly kind: 'expression' }
  | { readonly kind: 'event'; readonly node: string }
  /** Stage fields of a state node: the node's events for `completion_tool`, placeholders in `prompt`. */
  | { readonly kind: 'completion-tool'; readonly node: string }
  | { readonly kind: 'prompt'; readonly node: string }
  /** A handler name (an `invoke` action's `handler`; `prefix` `handler:` for an invoke's `src`). */
  | { readonly kind: 'handler'; readonly prefix: '' | 'handler:' }
  /** A key of an object; `path` is the object's path. */
  | { readonly kind: 'field'; readonly object: ObjectKind; readonly path: readonly (string | number)[] };

type Path = readonly (string | number)[];

/** The node a path leads into and what follows it; undefined when the path is not inside the chart. */
export function nodeOfPath(wf: Workflow | undefined, path: Path): { node: string; rest: Path } | undefined {
  if (path[0] !== 'statechart') return undefined;
  let node = ROOT_ID;
  let i = 1;
  for (;;) {
    const [a, b] = [path[i], path[i + 1]];
    if (a === 'states' && typeof b === 'string') {
      node = childId(node, b);
    } else if (a === 'regions' && typeof b === 'number') {
      const region = wf?.states.get(node)?.children[b];
      if (region === undefined) return undefined;
      node = region;
    } else {
      return { node, rest: path.slice(i) };
    }
    i += 2;
  }
}

/** The part of a path after a transition's key (`on.GO`, `always`, `after.5000`, `onDone`, an invoke's `onError`). */
function transitionTail(rest: Path): Path | undefined {
  const [a, b, c, d] = rest;
  if (a === 'on' || a === 'after') return b === undefined ? undefined : rest.slice(2);
  if (a === 'always' || a === 'onDone' || a === 'onAllDone') return rest.slice(1);
  if (a === 'invoke') {
    if (b === 'onDone' || b === 'onError') return rest.slice(2);
    if (typeof b === 'number' && (c === 'onDone' || c === 'onError')) return rest.slice(3);
    void d;
  }
  return undefined;
}

const isActionList = (p: Path): boolean => (p.length === 1 || (p.length === 2 && typeof p[1] === 'number')) && (p[0] === 'entry' || p[0] === 'exit' || p[0] === 'actions');

/** What a value at `path` is. */
export function valueSlot(wf: Workflow | undefined, path: Path): ChartSlot | undefined {
  const at = nodeOfPath(wf, path);
  if (!at) return undefined;
  const { node, rest } = at;
  if (rest.length === 1 && rest[0] === 'initial') return { kind: 'initial', node };
  if (rest.length === 1 && rest[0] === 'completion_tool' && node !== ROOT_ID) return { kind: 'completion-tool', node };
  if (rest.length === 1 && rest[0] === 'prompt' && node !== ROOT_ID) return { kind: 'prompt', node };
  if (rest.length === 1 && rest[0] === 'target' && wf?.states.get(node)?.kind === 'history') return { kind: 'target', source: node };
  if (node === ROOT_ID && rest[0] === 'interrupts' && rest[rest.length - 1] === 'target') return { kind: 'target', source: ROOT_ID };
  if (isActionList(rest)) return { kind: 'action' };
  if (node === ROOT_ID && rest[0] === 'actions' && rest[2] === 'context_updates' && rest.length === 4) return { kind: 'expression' };
  // docs/statechart-handlers.md: an invoke action's `handler`, an invocation's `src`.
  if (rest[0] !== 'handlers' && rest.length >= 2 && rest[rest.length - 1] === 'handler') return { kind: 'handler', prefix: '' };
  if (rest[0] === 'invoke' && rest[rest.length - 1] === 'src' && (rest.length === 2 || (rest.length === 3 && typeof rest[1] === 'number'))) return { kind: 'handler', prefix: 'handler:' };
  const tail = transitionTail(rest);
  if (tail) {
    const t = typeof tail[0] === 'number' ? tail.slice(1) : tail;
    if (t.length === 0 || (t.length === 1 && t[0] === 'target')) return { kind: 'target', source: node };
    if (t.length === 1 && t[0] === 'guard') return { kind: 'expression' };
    if (isActionList(t)) return { kind: 'action' };
  }
  // An inline action's updates: `entry: [{type: assign, context_updates: {k: expr}}]`.
  if (rest.length >= 3 && rest[rest.length - 2] === 'context_updates') return { kind: 'expression' };
  return undefined;
}

/** What a key at `path` (the last step is the key being typed) is. */
export function keySlot(wf: Workflow | undefined, path: Path): ChartSlot | undefined {
  const object = path.slice(0, -1);
  if (object.length === 1 && object[0] === 'statechart') return { kind: 'field', object: 'chart', path: object };
  const at = nodeOfPath(wf, object);
  if (!at) return undefined;
  const { node, rest } = at;
  if (rest.length === 0) {
    const state = wf?.states.get(node);
    const kind: ObjectKind = state?.kind === 'history' ? 'history' : state?.chart?.region ? 'region' : 'state';
    return { kind: 'field', object: kind, path: object };
  }
  if (rest.length === 1 && rest[0] === 'on') return { kind: 'event', node };
  if (rest.length === 1 && rest[0] === 'meta') return { kind: 'field', object: 'meta', path: object };
  if ((rest.length === 1 && rest[0] === 'invoke') || (rest.length === 2 && rest[0] === 'invoke' && typeof rest[1] === 'number')) {
    return { kind: 'field', object: 'invoke', path: object };
  }
  if (node === ROOT_ID && rest.length === 2 && rest[0] === 'actions') return { kind: 'field', object: 'action', path: object };
  if (rest.length === 2 && typeof rest[1] === 'number' && (rest[0] === 'entry' || rest[0] === 'exit')) return { kind: 'field', object: 'action', path: object };
  const tail = transitionTail(rest);
  if (tail && (tail.length === 0 || (tail.length === 1 && typeof tail[0] === 'number'))) return { kind: 'field', object: 'transition', path: object };
  if (tail) {
    const t = typeof tail[0] === 'number' ? tail.slice(1) : tail;
    if (t.length === 2 && t[0] === 'actions' && typeof t[1] === 'number') return { kind: 'field', object: 'action', path: object };
  }
  return undefined;
}
