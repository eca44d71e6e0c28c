import type { JsonObject } from './json-types.js';
import type { NameRef, SourceLoc } from './source.js';

/* ------------------------------------------------------------------------ *
 * Statecharts (AGENT-33 style; docs/statecharts.md).
 *
 * A statechart loads into the same `Workflow` / `StateNode` IR: the chart's
 * states are `states` (ids are dotted paths), compound and parallel nodes list
 * their `children`, a parallel node's children are its regions (keyed by region
 * id, kind 'compound'). What only statecharts have sits in `StateNode.chart`
 * and `Workflow.chart`; a Statewright workflow leaves both undefined and its
 * nodes keep `on` (a statechart node's `on` is always empty: its transitions
 * are `chart.transitions`).
 * ------------------------------------------------------------------------ */

/** An expression as written (guards, assign updates, inputs, named delays), with where it is. */
export interface ExprSource {
  readonly text: string;
  /** The string's contents without quotes, so a parse error offset maps inside it. */
  readonly loc: SourceLoc;
}

export type HistoryVariant = 'shallow' | 'deep';

/** A context key an `assign` writes, and the expression it evaluates. */
export interface AssignUpdate {
  readonly key: string;
  readonly keyLoc: SourceLoc;
  readonly expr: ExprSource;
}

/**
 * One action. `data`/`params` values are kept as written: a string value is an
 * expression when it parses as one that reads a binding (`context.x`,
 * `event.data.y`, `now()`, ...), else a literal (the seed mixes both).
 * `dataStrings`: the strings of `data` with where they are written; validation
 * reads those that are expressions as it reads guards.
 */
export type ActionDef =
  | { readonly type: 'assign'; readonly updates: readonly AssignUpdate[]; readonly loc: SourceLoc }
  | { readonly type: 'raise'; readonly event: string; readonly data?: JsonObject; readonly dataStrings?: readonly ExprSource[]; readonly loc: SourceLoc }
  | { readonly type: 'emit'; readonly event: string; readonly data?: JsonObject; readonly dataStrings?: readonly ExprSource[]; readonly loc: SourceLoc }
  | {
      readonly type: 'send';
      /** Another run's id or an invoked child's id. */
      readonly to: string;
      readonly event: string;
      readonly data?: JsonObject;
      readonly dataStrings?: readonly ExprSource[];
      readonly loc: SourceLoc;
    }
  | { readonly type: 'log'; readonly message?: string; readonly data?: JsonObject; readonly dataStrings?: readonly ExprSource[]; readonly loc: SourceLoc }
  | {
      readonly type: 'invoke';
      readonly handler: string;
      readonly params?: JsonObject;
      readonly loc: SourceLoc;
    };

export type ActionType = ActionDef['type'];
export const ACTION_TYPES: readonly ActionType[] = ['assign', 'raise', 'emit', 'send', 'log', 'invoke'];

/** An action in an `entry`/`exit`/`actions` list: a name defined under the chart's `actions`, or inline. */
export type ActionRef =
  | { readonly kind: 'named'; readonly name: NameRef }
  | { readonly kind: 'inline'; readonly action: ActionDef };

/** A named action under the chart's top-level `actions`. */
export interface NamedAction {
  readonly name: string;
  readonly nameLoc: SourceLoc;
  readonly action: ActionDef;
}

/** What makes a statechart transition eligible. */
export type ChartTrigger =
  /** `on: {NAME: ...}`; NAME may be `*` (matches sent and raised events, never done/timer events). */
  | { readonly kind: 'event'; readonly event: string }
  /** `always` (eventless). */
  | { readonly kind: 'always' }
  /** `after: {DELAY: ...}`: milliseconds, or an expression giving milliseconds. */
  | { readonly kind: 'after'; readonly delay: number | ExprSource }
  /** `onDone` of a compound state, `onAllDone` of a parallel state. */
  | { readonly kind: 'done' }
  /** An invocation's `onDone` / `onError`. */
  | { readonly kind: 'invoke-done' | 'invoke-error'; readonly invokeId: string };

/** One transition candidate, in document order (candidates of one trigger are tried in order). */
export interface ChartTransition {
  readonly trigger: ChartTrigger;
  /** Empty: a targetless transition (runs its actions, changes no state). */
  readonly targets: readonly NameRef[];
  readonly guard?: ExprSource;
  readonly actions: readonly ActionRef[];
  /** `reenter: true`: a self or ancestor target exits and re-enters. */
  readonly reenter: boolean;
  readonly loc: SourceLoc;
  /** `on` transitions: where the event's key is written (diagnostics about the event name point here). */
  readonly eventLoc?: SourceLoc;
}

export interface InvokeDef {
  readonly id: string;
  readonly idLoc?: SourceLoc;
  /** `statechart:<id>[@version]`, `agent:<name>`, or a service name. */
  readonly src: NameRef;
  /** Values are expressions (strings) or literals, as in action data. */
  readonly input?: JsonObject;
  readonly loc: SourceLoc;
}

export interface ChartMeta {
  readonly label?: string;
  readonly description?: string;
  readonly color?: string;
  readonly position?: { readonly x: number; readonly y: number };
}

/** What a statechart node has beyond the shared StateNode fields. */
export interface ChartNode {
  /** Every transition of the node (`on`, `always`, `after`, `onDone`/`onAllDone`, invoke's onDone/onError), in document order. */
  readonly transitions: readonly ChartTransition[];
  readonly entry: readonly ActionRef[];
  readonly exit: readonly ActionRef[];
  readonly invoke: readonly InvokeDef[];
  /** Set exactly when the node's kind is 'history'. */
  readonly history?: HistoryVariant;
  /** A history node's default target (XState's `target` on a history node); absent: the parent's initial. */
  readonly historyDefault?: NameRef;
  /** True for a parallel node's region (a compound node written under `regions`). */
  readonly region?: boolean;
  readonly meta?: ChartMeta;
}

export interface MachineRegistryEntry {
  readonly id: string;
  readonly version?: string;
  /** Path of the chart file, relative to the file that registers it. */
  readonly src: string;
  readonly loc: SourceLoc;
}

/** What a statechart has beyond the shared Workflow fields. The root is the chart itself. */
export interface ChartDef {
  /** The root's own transitions, entry/exit and invocations (the chart may have `on` at the top). */
  readonly root: ChartNode;
  readonly actions: ReadonlyMap<string, NamedAction>;
  readonly machineRegistry: readonly MachineRegistryEntry[];
  /**
   * The chart's service table (`services:`): names an invoke `src` may use
   * besides `statechart:` and `agent:` (the workspace's `.stategate/registry.yaml`
   * may list more). Absent: the chart has none.
   */
  readonly services?: readonly NameRef[];
  /** Named actions written under `actions` but left out because malformed (the loader said why). */
  readonly skippedActions?: ReadonlySet<string>;
  /** Where the chart's `version` is written (validation checks it is semver). */
  readonly versionLoc?: SourceLoc;
  /** The environment variables the chart reads as `env.NAME` (root `env:`); absent: it declares none. */
  readonly env?: readonly ChartEnvVar[];
  /** The chart's own agents (root `agents:`), for `agents.select(role, hint)`. */
  readonly agents?: readonly ChartAgent[];
  /**
   * The chart's handlers (`handlers:`): what an `invoke` action, a
   * `handler:NAME` service or a `send` to NAME runs outside the chart.
   * Absent: the chart declares none.
   */
  readonly handlers?: ReadonlyMap<string, HandlerDef>;
}

/** A variable named under the chart's `env:`, with its default (null: none). Values are strings, as in the environment. */
export interface ChartEnvVar {
  readonly name: string;
  readonly default: string | null;
  readonly loc: SourceLoc;
}

/** An agent `agents.select(role, hint)` may pick (the chart's `agents:`, `.stategate/agents.yaml`, VS Code's custom agents). */
export interface ChartAgent {
  readonly id: string;
  readonly roles: readonly string[];
  readonly tags: readonly string[];
  readonly description?: string;
}

/** One entry of the chart's `handlers:` table: a command's argv, a FlowState flow file, or an MCP server's tool. */
export type HandlerDef =
  | { readonly kind: 'command'; readonly argv: readonly string[]; readonly loc: SourceLoc }
  | { readonly kind: 'flow'; readonly file: string; readonly loc: SourceLoc }
  | { readonly kind: 'mcp'; readonly server: string; readonly tool: string; readonly loc: SourceLoc };

/** Where an invoke `src` was found outside the chart (the chart file that runs, for `statechart:`). */
export interface ResolvedSrc {
  readonly file?: string;
}

/**
 * Looks a `statechart:<id>[@version]` or service `src` up outside the chart
 * itself (validation rule 8). `fromFile` is the chart's file. Undefined: not
 * found; `{problem}` (an InvokeProblem): a registry on the way is broken.
 */
export type ChartSrcResolver = (src: string, fromFile?: string) => ResolvedSrc | { readonly problem: string } | undefined;
