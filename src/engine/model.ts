/**
 * The intermediate representation (IR) every loader produces and every other
 * part of stategate (validation, the machine, the policy, the panel, exports)
 * works on. Nothing downstream of a loader ever looks at raw JSON/YAML.
 *
 * Design rules:
 * - Every node keeps the source location it came from (`SourceLoc`), so a
 *   diagnostic, a hover or a "go to definition" can point at the exact range.
 * - The IR is hierarchical from the start: a state node may have children
 *   (compound / parallel). A flat Statewright workflow is the one-level case:
 *   the root's children are the workflow's states. A state's id is its path
 *   (`processing.validating`), which is also its display name.
 * - References to states and guards are kept as `NameRef`s with their own
 *   location, so rename and find-references work on the IR alone.
 */

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * Where a node came from. `start`/`end` are character offsets into the source
 * text (end exclusive). For string literals the range covers the contents
 * without the quotes, so a rename can replace it directly. `pointer` is the
 * RFC 6901 JSON pointer of the node in the document as written (including a
 * `/definition` prefix for gateway-wrapped files).
 */
export interface SourceLoc {
  readonly pointer: string;
  readonly start: number;
  readonly end: number;
}

/** A name that refers to something defined elsewhere (a state, a guard, a workflow). */
export interface NameRef {
  readonly name: string;
  readonly loc: SourceLoc;
}

/** The special target that ends an interrupt and returns to the interrupted state. */
export const RETURN_TARGET = '$return';

export type WorkflowFormat = 'statewright' | 'statechart' | 'flow';

export type StateKind =
  | 'atomic' // a leaf state the agent works in
  | 'final' // a leaf state that ends the (sub)machine
  | 'compound' // has children, exactly one active (statecharts)
  | 'parallel' // has children, all active (statecharts)
  | 'history'; // pseudo-state remembering a compound's last child (statecharts)

export type GuardOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists' | 'not_exists' | 'in' | 'contains';
export const GUARD_OPS: readonly GuardOp[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'exists', 'not_exists', 'in', 'contains'];

export interface GuardDef {
  readonly name: string;
  readonly field: string;
  readonly op: GuardOp;
  /** Absent for `exists` / `not_exists`. */
  readonly value?: JsonValue;
  /** Location of the guard's key in `guards`. */
  readonly keyLoc: SourceLoc;
  readonly loc: SourceLoc;
}

export interface ModelRung {
  readonly model: string;
  readonly thinkingLevel?: string;
  readonly healthUrl?: string;
  readonly requiresProviderSwitch?: boolean;
}

/** What a state allows and limits. Absent = no rule of that kind. */
export interface StateRules {
  readonly instructions?: string;
  /** undefined: every tool passes. []: none but stategate's own. */
  readonly allowedTools?: readonly string[];
  /** Denied even where `allowedTools` would allow. */
  readonly disallowedTools: readonly string[];
  /** undefined: any command for the shell tool (subject to blockedEnv). */
  readonly allowedCommands?: readonly string[];
  /** Which tool `allowedCommands` restricts (default: Bash, i.e. every shell tool). */
  readonly allowedCommandsTool?: string;
  /** From `blocked_env` or its alias `deny_env`. */
  readonly blockedEnv: readonly string[];
  /** From `env_overrides` or its alias `env`. */
  readonly envOverrides: Readonly<Record<string, string>>;
  readonly maxIterations?: number;
  readonly maxEditLines?: number;
  readonly maxFilesPerState?: number;
  readonly contextBudgetBytes?: number;
  /** Our addition: globs a write must match (undefined: no such limit). See path-scope.ts. */
  readonly allowedPaths?: readonly string[];
  /** Our addition: globs no write may match. */
  readonly deniedPaths?: readonly string[];
  readonly model?: string;
  readonly thinkingLevel?: string;
  readonly modelLadder?: readonly ModelRung[];
}

/** Fields every transition shape shares. */
interface TransitionBase {
  /** The event name as written under `on`. */
  readonly event: string;
  /** Location of the event key. */
  readonly eventLoc: SourceLoc;
  /** Location of the whole transition value. */
  readonly loc: SourceLoc;
}

/**
 * `"EVENT": "target"` (simple) or `"EVENT": {"target", "guard"?, "guards"?,
 * "requires_approval"?, "approval_message"?}` (guarded; with no guards it is
 * still a single-target transition, kept as `guarded` so approvals fit).
 */
export interface TargetTransition extends TransitionBase {
  readonly kind: 'simple' | 'guarded';
  readonly target: NameRef;
  /** `guard` and `guards` together: all must pass. */
  readonly guards: readonly NameRef[];
  readonly requiresApproval: boolean;
  readonly approvalMessage?: string;
}

export interface Branch {
  readonly target: NameRef;
  readonly guards: readonly NameRef[];
  readonly loc: SourceLoc;
  /**
   * Where `requires_approval: true` was written on this branch. Approvals are
   * not supported inside branched arrays; the validator reports it here.
   */
  readonly requiresApprovalLoc?: SourceLoc;
}

/** `"EVENT": [{"target", "guard"}, ..., {"target"}]`: the first branch whose guards pass wins. */
export interface BranchedTransition extends TransitionBase {
  readonly kind: 'branched';
  readonly branches: readonly Branch[];
}

/** `"EVENT": {"invoke": "workflow-id", "input"?, "on_complete", "on_fail"?}` */
export interface InvokeTransition extends TransitionBase {
  readonly kind: 'invoke';
  readonly workflow: NameRef;
  readonly input?: JsonObject;
  readonly onComplete: NameRef;
  readonly onFail?: NameRef;
}

export interface ForkBranch {
  readonly name: string;
  readonly nameLoc: SourceLoc;
  readonly initial: NameRef;
  readonly terminal: NameRef;
}

export type JoinRule = 'all' | 'any';
export type ForkMode = 'sequential' | 'parallel';

/** `"EVENT": {"fork": {"branches": {...}, "join", "on_complete", "on_fail"?}}` */
export interface ForkTransition extends TransitionBase {
  readonly kind: 'fork';
  /** In name order (the order sequential mode runs them in). */
  readonly branches: readonly ForkBranch[];
  readonly join: JoinRule;
  readonly mode: ForkMode;
  readonly onComplete: NameRef;
  readonly onFail?: NameRef;
}

export type Transition = TargetTransition | BranchedTransition | InvokeTransition | ForkTransition;

export interface StateNode {
  /** The local key (`validating`). */
  readonly key: string;
  /** The full path (`processing.validating`); unique; the display name. */
  readonly id: string;
  readonly kind: StateKind;
  /** Path of the parent; undefined for the root's children. */
  readonly parent?: string;
  /** Child ids in definition order (compound / parallel only). */
  readonly children: readonly string[];
  /** Initial child (compound only). */
  readonly initial?: NameRef;
  readonly rules: StateRules;
  /** Outgoing transitions in definition order. */
  readonly on: readonly Transition[];
  /** Fallback target for events the state does not define. */
  readonly safeNext?: NameRef;
  /** Stage pipelines: the tool whose call ends the stage. */
  readonly completionTool?: string;
  readonly completionSchema?: JsonObject;
  readonly turnCap?: number;
  /** Location of the state's key under `states`. */
  readonly keyLoc: SourceLoc;
  /** Location of the state's object. */
  readonly loc: SourceLoc;
  /**
   * Location of each field's value, keyed by the field name as written
   * (`max_iterations`, `deny_env`, ...), so diagnostics and hovers can point at
   * a rule's value. Optional: loaders of other formats may leave it out.
   */
  readonly fieldLocs?: Readonly<Record<string, SourceLoc>>;
  /** Statecharts only (see ChartNode below); undefined for Statewright and flow states. */
  readonly chart?: ChartNode;
}

export interface InterruptDef {
  readonly name: string;
  readonly nameLoc: SourceLoc;
  readonly filePattern: string;
  readonly filePatternLoc: SourceLoc;
  readonly target: NameRef;
  readonly loc: SourceLoc;
}

export type DangerLevel = 'safe' | 'moderate' | 'dangerous';
export type ApprovalMode = 'ask' | 'none';

export interface WorkflowMeta {
  readonly taskType?: string;
  readonly estimatedSteps?: number;
  readonly dangerLevel?: DangerLevel;
  /** Default 'ask' (ours; the seed's default is 'none': see docs/compat.md). */
  readonly approvalMode: ApprovalMode;
  readonly requiresHumanApproval?: boolean;
  readonly captureOutput: boolean;
  readonly debug: boolean;
  /** Final states that count as failure when run as a child or branch. */
  readonly failureStates?: readonly string[];
  readonly defaultModel?: string;
  /** Every meta key as written, known or not. */
  readonly raw: JsonObject;
}

export interface Workflow {
  readonly format: WorkflowFormat;
  readonly id: string;
  readonly idLoc?: SourceLoc;
  readonly name?: string;
  readonly description?: string;
  readonly version?: string | number;
  /** The initial top-level state. */
  readonly initial: NameRef;
  readonly context: JsonObject;
  readonly meta: WorkflowMeta;
  /** Every state node by id (path), the root's children and their descendants. */
  readonly states: ReadonlyMap<string, StateNode>;
  /** Ids of the top-level states in definition order. */
  readonly topLevel: readonly string[];
  readonly guards: ReadonlyMap<string, GuardDef>;
  /** In definition order: the first matching interrupt wins. */
  readonly interrupts: readonly InterruptDef[];
  /** Where the workflow object sits in the file (the `definition` of a gateway wrapper). */
  readonly loc: SourceLoc;
  /**
   * Names of states / guards that are written in the file but were left out of
   * the IR because their definition was malformed (the loader reported why).
   * The validator does not report references to them as undefined.
   */
  readonly skippedStates?: ReadonlySet<string>;
  readonly skippedGuards?: ReadonlySet<string>;
  /** Location of the `states` key (for diagnostics about the states as a whole). */
  readonly statesLoc?: SourceLoc;
  /** Statecharts only: the root's transitions, named actions, machine registry. */
  readonly chart?: ChartDef;
}

/** A workflow found for an `invoke` (by id or by a registered name), and the file it came from. */
export interface ResolvedWorkflow {
  readonly workflow: Workflow;
  readonly file?: string;
}

/**
 * Why an invoke cannot be resolved, when it is more than "no such name": a
 * registry manifest the lookup had to read is broken (the name may be
 * registered there), or the file registered under the name does not load.
 */
export interface InvokeProblem {
  /** Names the file and says what is wrong with it. */
  readonly problem: string;
}

/**
 * Finds the workflow an `invoke` names. `fromFile` is the file whose invoke is
 * being resolved (names resolve beside it); absent means the file being checked.
 */
export type InvokeResolver = (name: string, fromFile?: string) => ResolvedWorkflow | InvokeProblem | undefined;

/** Whether a lookup ended in a problem rather than a workflow. */
export function isInvokeProblem<T extends object>(found: T | InvokeProblem | undefined): found is InvokeProblem {
  return found !== undefined && 'problem' in found;
}

export type Severity = 'error' | 'warning' | 'info';

export interface RelatedInfo {
  readonly message: string;
  readonly loc: SourceLoc;
  /** Another file, when the related place is not in the diagnosed file. */
  readonly file?: string;
}

export interface Diagnostic {
  readonly severity: Severity;
  /** Stable code, e.g. `unknown-target`; documented in docs/format.md. */
  readonly code: string;
  readonly message: string;
  readonly loc: SourceLoc;
  readonly related?: readonly RelatedInfo[];
  /** Machine-readable hints for quick fixes (e.g. the closest state name). */
  readonly data?: Readonly<Record<string, JsonValue>>;
}

/** A leaf state: where an agent can actually be. */
export function isFinal(node: StateNode): boolean {
  return node.kind === 'final';
}

/** All outgoing target references of a transition (every branch, invoke and fork targets). */
export function transitionTargets(t: Transition): NameRef[] {
  switch (t.kind) {
    case 'simple':
    case 'guarded':
      return [t.target];
    case 'branched':
      return t.branches.map((b) => b.target);
    case 'invoke':
      return t.onFail ? [t.onComplete, t.onFail] : [t.onComplete];
    case 'fork':
      return [
        ...(t.onFail ? [t.onComplete, t.onFail] : [t.onComplete]),
        ...t.branches.flatMap((b) => [b.initial, b.terminal]),
      ];
  }
}

/** All guard references of a transition (including inside branches). */
export function transitionGuards(t: Transition): NameRef[] {
  switch (t.kind) {
    case 'simple':
    case 'guarded':
      return [...t.guards];
    case 'branched':
      return t.branches.flatMap((b) => b.guards);
    default:
      return [];
  }
}

/* ------------------------------------------------------------------------ *
 * Statecharts (AGENT-33 style; DESIGN.md "Statecharts: semantics we chose").
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
 */
export type ActionDef =
  | { readonly type: 'assign'; readonly updates: readonly AssignUpdate[]; readonly loc: SourceLoc }
  | { readonly type: 'raise'; readonly event: string; readonly data?: JsonObject; readonly loc: SourceLoc }
  | { readonly type: 'emit'; readonly event: string; readonly data?: JsonObject; readonly loc: SourceLoc }
  | {
      readonly type: 'send';
      /** Another run's id or an invoked child's id. */
      readonly to: string;
      readonly event: string;
      readonly data?: JsonObject;
      readonly loc: SourceLoc;
    }
  | { readonly type: 'log'; readonly message?: string; readonly data?: JsonObject; readonly loc: SourceLoc }
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
}
