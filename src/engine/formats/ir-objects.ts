/**
 * The IR's most numerous objects, made by constructors rather than object
 * and array literals, for the reason tree-node.ts gives: V8 pretenures a
 * literal whose objects survive young-generation collections, which is what
 * a loaded workflow's ranges, names and transitions do. Their shapes are the
 * model's interfaces exactly (the same own fields in the same order, an
 * optional field only when it is set), so to everything else they are plain
 * data: spread, `JSON.stringify` and `structuredClone` see the same fields.
 */
import type { ActionRef, ChartNode, ChartTransition, ChartTrigger, ExprSource, InvokeDef, NameRef, SourceLoc, StateKind, StateRules, Transition } from '../model/index.js';
import { NONE } from './shared-empty.js';

export class Loc implements SourceLoc {
  constructor(
    readonly pointer: string,
    readonly start: number,
    readonly end: number,
  ) {}
}

export class Ref implements NameRef {
  constructor(
    readonly name: string,
    readonly loc: SourceLoc,
  ) {}
}

export class Expr implements ExprSource {
  constructor(
    readonly text: string,
    readonly loc: SourceLoc,
  ) {}
}

/** `{kind: 'named', name}`: an action given by its name. */
export class NamedActionRef {
  declare readonly kind: 'named';
  declare readonly name: NameRef;
  constructor(name: NameRef) {
    this.kind = 'named';
    this.name = name;
  }
}

/** `on: {NAME: ...}`'s trigger. */
export class EventTrigger {
  declare readonly kind: 'event';
  declare readonly event: string;
  constructor(event: string) {
    this.kind = 'event';
    this.event = event;
  }
}

/** `after: {DELAY: ...}`'s trigger. */
export class AfterTrigger {
  declare readonly kind: 'after';
  declare readonly delay: number | ExprSource;
  constructor(delay: number | ExprSource) {
    this.kind = 'after';
    this.delay = delay;
  }
}

/** An invocation's `onDone` / `onError` trigger. */
export class InvokeTrigger {
  declare readonly kind: 'invoke-done' | 'invoke-error';
  declare readonly invokeId: string;
  constructor(kind: 'invoke-done' | 'invoke-error', invokeId: string) {
    this.kind = kind;
    this.invokeId = invokeId;
  }
}

/** The triggers without data, one shared value each (the IR is read-only). */
export const ALWAYS: ChartTrigger = Object.freeze({ kind: 'always' });
export const DONE: ChartTrigger = Object.freeze({ kind: 'done' });

/** One transition candidate; `guard` is an own field only when there is one, as in the literal it replaces. */
export class Candidate implements ChartTransition {
  declare readonly trigger: ChartTrigger;
  declare readonly targets: readonly NameRef[];
  declare readonly guard?: ExprSource;
  declare readonly actions: readonly ActionRef[];
  declare readonly reenter: boolean;
  declare readonly loc: SourceLoc;
  declare eventLoc?: SourceLoc;
  constructor(trigger: ChartTrigger, targets: readonly NameRef[], guard: ExprSource | undefined, actions: readonly ActionRef[], reenter: boolean, loc: SourceLoc) {
    this.trigger = trigger;
    this.targets = targets;
    if (guard) this.guard = guard;
    this.actions = actions;
    this.reenter = reenter;
    this.loc = loc;
  }
}

/** A statechart node's behaviour (ChartNode); the optional fields are set after, when the node has them. */
export class ChartNodeData implements ChartNode {
  declare readonly transitions: readonly ChartTransition[];
  declare readonly entry: readonly ActionRef[];
  declare readonly exit: readonly ActionRef[];
  declare readonly invoke: readonly InvokeDef[];
  constructor(transitions: readonly ChartTransition[], entry: readonly ActionRef[], exit: readonly ActionRef[], invoke: readonly InvokeDef[]) {
    this.transitions = transitions;
    this.entry = entry;
    this.exit = exit;
    this.invoke = invoke;
  }
}

/** A statechart's state node (StateNode) with the fields every node has; the optional ones are set after. */
export class ChartState {
  declare readonly key: string;
  declare readonly id: string;
  declare readonly kind: StateKind;
  declare readonly children: readonly string[];
  declare readonly rules: StateRules;
  declare readonly on: readonly Transition[];
  declare readonly keyLoc: SourceLoc;
  declare readonly loc: SourceLoc;
  declare readonly fieldLocs: Readonly<Record<string, SourceLoc>>;
  constructor(key: string, id: string, kind: StateKind, rules: StateRules, keyLoc: SourceLoc, loc: SourceLoc, fieldLocs: Readonly<Record<string, SourceLoc>>) {
    this.key = key;
    this.id = id;
    this.kind = kind;
    this.children = NONE;
    this.rules = rules;
    this.on = NONE;
    this.keyLoc = keyLoc;
    this.loc = loc;
    this.fieldLocs = fieldLocs;
  }
}

/** An empty record that fields are added to (a `{}` literal would be pretenured too). */
class OpenRecord {}
export function emptyRecord<T>(): Record<string, T> {
  return new OpenRecord() as Record<string, T>;
}

/** A one-item array made without an array literal (`[item]`). */
export function single<T>(item: T): T[] {
  const out = new Array<T>(1);
  out[0] = item;
  return out;
}

/** An empty array to push to, made without an array literal (`[]`). */
export function emptyList<T>(): T[] {
  return new Array<T>();
}
