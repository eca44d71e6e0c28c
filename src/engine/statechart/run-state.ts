/**
 * The mutable state of one operation on a run (a start, an event, due
 * timers, an invocation's completion). It is built from the input snapshot,
 * changed in place by the steps (fast: flags by node number, no copies per
 * microstep), and turned into a new snapshot at the end; the input snapshot
 * is never touched.
 */
import type { JsonObject, JsonValue } from '../model/index.js';
import type { ChartEffect } from './effects.js';
import type { ChartHistoryRecord, ChartInvocation, ChartSnapshot, ChartStatus, ChartTimer } from './snapshot.js';
import type { ChartTable, NodeRow } from './table.js';
import type { ChildCharts, ChildWork } from './child-types.js';
import { ROOT, isAtomicKind } from './table.js';

/** What the expressions see as `event`. */
export interface EventBinding {
  readonly type: string;
  readonly data?: JsonValue;
}

export type ChartEventKind = 'event' | 'init' | 'done' | 'after' | 'invoke-done' | 'invoke-error';

/** An event as the interpreter handles it: what triggers it matches, and what expressions see. */
export interface ChartEvent {
  readonly kind: ChartEventKind;
  readonly binding: EventBinding;
  /** done: the state that is done; after: the state that declared the timer. */
  readonly node?: number;
  /** after: the position of the delay group in the node's `after`. */
  readonly group?: number;
  /** invoke-done / invoke-error: the invocation's id. */
  readonly invokeId?: string;
}

export interface StepOptions {
  /** The run's clock, milliseconds since the epoch. */
  readonly now: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `agents.select(role, hint)` for expressions. */
  readonly agents?: (role: string, hint: JsonValue) => string | null;
  /**
   * `evidence` for expressions: what the host observed in the run's current state (machine/evidence.ts),
   * as it was when the operation began (guards of eventless transitions later in the same step see it too).
   */
  readonly evidence?: JsonObject;
  /** The microstep limit for one event (default MAX_MICROSTEPS, docs/statecharts.md's 1,000; tests lower it). */
  readonly maxMicrosteps?: number;
  /** Runs `statechart:` invocations as child machines (child-runs.ts); without it they are handed out like agent tasks. */
  readonly children?: ChildCharts;
  /** The file of the chart being run (its `statechart:` invocations resolve from there). */
  readonly file?: string;
  /** How many machines invoke this one (0: the run's own chart). */
  readonly depth?: number;
}

/** How many nodes after the last one decoded are tried before the id map (the ids of a sibling's inactive subtree are skipped so). */
const LOOK_AHEAD = 8;
const NO_RECORDS: ReadonlyMap<number, readonly number[]> = new Map();
/** The history list of every snapshot with no records (frozen: snapshots share it). */
const NO_HISTORY: readonly ChartHistoryRecord[] = Object.freeze([]);

export class RunState {
  readonly nodes: readonly NodeRow[];
  /** 1 where the node is active (the root included). */
  readonly active: Uint8Array;
  /** The microstep that last entered each node (read for active nodes only; an exited node keeps its old value). */
  readonly stamps: Int32Array;
  step: number;
  context: JsonObject;
  /** History node number to the recorded node numbers (document order); made on the first record. */
  private records: Map<number, readonly number[]> | undefined;
  /** Shared with the input snapshot until the first change (see `ownTimers`). */
  timers: ChartTimer[];
  invocations: ChartInvocation[];
  private timersOwned = false;
  private invocationsOwned = false;
  readonly queue: ChartEvent[] = [];
  /**
   * The run's time of the macrostep being processed (ms since the epoch): the
   * operation's clock, except while a due timer's macrostep runs, when it is
   * the moment that timer was due. Timers scheduled and `now()` read there
   * count from it, so a run whose timers fire late (nobody loaded it for an
   * hour) ends where one watched the whole time would (timers.ts).
   */
  clock: number;
  /** Child machines to start and events to send them, done after the macrostep (children.ts). */
  childWork?: ChildWork[];
  readonly effects: ChartEffect[] = [];
  status: ChartStatus;
  output?: JsonValue;
  error?: string;
  /** Set when a microstep did something XState would see as a new snapshot (an assign, a child started or stopped). */
  touched = false;
  /** Set when a microstep recorded history (XState then always makes a new snapshot). */
  historyTouched = false;
  /** Whether any transition was taken in this operation. */
  transitioned = false;
  /** Whether the configuration is regular (value.ts), once known; reset when it changes. */
  regular: boolean | undefined;
  /** The snapshot this operation started from, whose unchanged parts the next one shares. */
  private input: ChartSnapshot | undefined;
  /** Whether decoding the input dropped or reordered anything (then its configuration is not reused as it is). */
  private reencoded = false;
  private released = false;

  constructor(
    readonly table: ChartTable,
    snapshot: ChartSnapshot | undefined,
    readonly options: StepOptions,
  ) {
    this.nodes = table.nodes;
    this.active = table.buffers.flags();
    this.stamps = table.buffers.stamps();
    this.active[ROOT] = 1;
    this.stamps[ROOT] = 0;
    this.clock = options.now;
    if (!snapshot) {
      this.step = 0;
      this.context = {};
      this.timers = [];
      this.invocations = [];
      this.status = 'running';
      return;
    }
    this.input = snapshot;
    this.decode(snapshot);
    this.step = snapshot.step;
    this.context = snapshot.context;
    this.timers = snapshot.timers as ChartTimer[];
    this.invocations = snapshot.invocations as ChartInvocation[];
    this.status = snapshot.status;
    if (snapshot.output !== undefined) this.output = snapshot.output;
    if (snapshot.error !== undefined) this.error = snapshot.error;
  }

  /** Reads the snapshot's ids into node numbers. */
  private decode(snapshot: ChartSnapshot): void {
    const { byId } = this.table;
    const nodes = this.nodes;
    const { configuration, entered } = snapshot;
    let last = ROOT;
    for (let i = 0; i < configuration.length; i++) {
      const id = configuration[i] as string;
      // The ids come in document order, usually a few nodes apart: look just ahead before asking the map.
      let index: number | undefined;
      for (let k = last + 1, stop = Math.min(nodes.length, last + 1 + LOOK_AHEAD); k < stop; k++) {
        if ((nodes[k] as NodeRow).id === id) {
          index = k;
          break;
        }
      }
      index ??= byId.get(id);
      if (index === undefined || index <= last) {
        this.reencoded = true;
        if (index === undefined) continue;
      }
      last = index;
      this.active[index] = 1;
      this.stamps[index] = entered[i] ?? 0;
    }
    if (entered.length !== configuration.length) this.reencoded = true;
    for (const record of snapshot.history) {
      const h = byId.get(record.history);
      if (h === undefined) continue;
      const states: number[] = [];
      for (const id of record.states) {
        const index = byId.get(id);
        if (index !== undefined) states.push(index);
      }
      this.setHistory(h, states);
    }
  }

  /** The history records (read-only; recordHistory writes through `setHistory`). */
  get history(): ReadonlyMap<number, readonly number[]> {
    return this.records ?? NO_RECORDS;
  }

  setHistory(history: number, states: readonly number[]): void {
    (this.records ??= new Map()).set(history, states);
  }

  /**
   * Gives the per-node arrays back to the chart's buffers: the caller has
   * made its last snapshot and uses this state no more.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.table.buffers.releaseFlags(this.active);
    this.table.buffers.releaseStamps(this.stamps);
  }

  node(index: number): NodeRow {
    return this.nodes[index] as NodeRow;
  }

  /** The active child of a compound node (-1 if none). */
  activeChild(index: number): number {
    for (const child of this.node(index).states) if (this.active[child]) return child;
    return -1;
  }

  /**
   * Active atomic (and final) nodes under some `always` transition, in the
   * order XState keeps them: by the microstep that entered them, then
   * document order.
   */
  eventlessCandidates(): number[] {
    const out: number[] = [];
    const nodes = this.nodes;
    for (let i = 1; i < nodes.length; i++) {
      const node = nodes[i] as NodeRow;
      if (this.active[i] && node.alwaysAbove && isAtomicKind(node.kind)) out.push(i);
    }
    if (out.length > 1) {
      const stamps = this.stamps;
      out.sort((a, b) => (stamps[a] as number) - (stamps[b] as number) || a - b);
    }
    return out;
  }

  /** Active atomic (and final) ids, for messages. */
  activeAtomicIds(): string[] {
    const out: string[] = [];
    for (let i = 1; i < this.nodes.length; i++) if (this.active[i] && isAtomicKind((this.nodes[i] as NodeRow).kind)) out.push((this.nodes[i] as NodeRow).id);
    return out;
  }

  /** The timer list, copied on the first change so the input snapshot's stays as it was. */
  ownTimers(): ChartTimer[] {
    if (!this.timersOwned) {
      this.timers = this.timers.slice();
      this.timersOwned = true;
    }
    return this.timers;
  }

  /** Replaces the timer list with a new array of this operation's own. */
  setTimers(timers: ChartTimer[]): void {
    this.timers = timers;
    this.timersOwned = true;
  }

  /** Replaces the invocation list with a new array of this operation's own. */
  setInvocations(invocations: ChartInvocation[]): void {
    this.invocations = invocations;
    this.invocationsOwned = true;
  }

  /** The invocation list, copied on the first change. */
  ownInvocations(): ChartInvocation[] {
    if (!this.invocationsOwned) {
      this.invocations = this.invocations.slice();
      this.invocationsOwned = true;
    }
    return this.invocations;
  }

  effect(e: ChartEffect): void {
    this.effects.push(e);
  }

  /** Ends the run as failed (the caller restores the configuration from before the operation's event). */
  fail(error: string): void {
    this.status = 'failed';
    this.error = error;
    this.effect({ type: 'run-failed', error });
  }

  /** The snapshot of the state now. */
  toSnapshot(): ChartSnapshot {
    const input = this.input;
    let configuration: readonly string[];
    let entered: readonly number[];
    if (input && !this.reencoded && this.step === input.step) {
      // No microstep changed the configuration or its entry stamps (each change moves `step` on): shared as it was.
      configuration = input.configuration;
      entered = input.entered;
    } else {
      const ids: string[] = [];
      const stamps: number[] = [];
      const nodes = this.nodes;
      for (let i = 1; i < nodes.length; i++) {
        if (!this.active[i]) continue;
        ids.push((nodes[i] as NodeRow).id);
        stamps.push(this.stamps[i] as number);
      }
      configuration = ids;
      entered = stamps;
    }
    let history: readonly ChartHistoryRecord[] = NO_HISTORY;
    const records = this.records;
    if (records?.size) {
      const list: ChartHistoryRecord[] = [];
      for (const h of [...records.keys()].sort((a, b) => a - b)) {
        list.push({ history: this.node(h).id, states: (records.get(h) as readonly number[]).map((s) => this.node(s).id) });
      }
      history = list;
    }
    const snapshot: ChartSnapshot = {
      status: this.status,
      configuration,
      entered,
      step: this.step,
      context: this.context,
      history,
      timers: this.timers,
      invocations: this.invocations,
      ...(this.output !== undefined ? { output: this.output } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
    };
    return snapshot;
  }
}
