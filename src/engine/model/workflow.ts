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
import type { ChartDef, ChartNode, ExprSource } from './chart.js';
import type { FlowDef, FlowStep } from './flow.js';
import type { JsonObject, JsonValue } from './json-types.js';
import type { NameRef, SourceLoc } from './source.js';

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
  /** Our addition: globs a write must match (undefined: no such limit). See util/paths/scope.ts. */
  readonly allowedPaths?: readonly string[];
  /** Our addition: globs no write may match. */
  readonly deniedPaths?: readonly string[];
  /** Our addition: `network: false` cuts the network of shell commands (inside the sandbox, src/engine/sandbox/). */
  readonly network?: boolean;
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
  // Stage pipelines (docs/pipelines.md). A state with `completionTool` is a
  // stage: its prompt is sent in a fresh transcript, and a call of the
  // completion tool whose payload matches `completionSchema` ends it.
  /** The stage prompt, a `{{ binding.path }}` template (stage/prompt-template.ts), with the range of its contents. */
  readonly prompt?: ExprSource;
  /** The tool whose call ends the stage; the transition on its name picks the next stage. */
  readonly completionTool?: string;
  /** The JSON Schema of the completion tool's payload. */
  readonly completionSchema?: JsonObject;
  /**
   * Where each value inside `completionSchema` is written, by its JSON pointer
   * relative to the schema ('' is the schema itself), so a problem in the
   * schema points inside it.
   */
  readonly completionSchemaLocs?: ReadonlyMap<string, SourceLoc>;
  /** Model turns the stage may take before it fails. */
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
  /** Flows only (see flow.ts): the tool call this state runs and where it goes next. */
  readonly flow?: FlowStep;
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

/**
 * Acts that loosen or end an enforced run. Each is a person's (VS Code's
 * commands and panel, `stategate run ...` in their own terminal) unless the
 * workflow's `meta.agent_may` grants it to the agent: an agent that could
 * pause, stop, replace or jump its own run could switch its gate off.
 * Approving is not among them: it is always a person's.
 */
export const AGENT_ACTS = ['pause', 'stop', 'load_workflow', 'force'] as const;
export type AgentAct = (typeof AGENT_ACTS)[number];
/**
 * `ask` (ours) and `ui` (the seed's word for the same thing) park a
 * `requires_approval` transition for a person; `none` is advisory.
 */
export type ApprovalMode = 'ask' | 'ui' | 'none';

export interface WorkflowMeta {
  readonly taskType?: string;
  readonly estimatedSteps?: number;
  readonly dangerLevel?: DangerLevel;
  /** Default 'ask' (ours; the seed's default is 'none': see docs/compat.md). */
  readonly approvalMode: ApprovalMode;
  readonly requiresHumanApproval?: boolean;
  readonly captureOutput: boolean;
  readonly debug: boolean;
  /** `agent_may`: the acts the agent may do itself (absent: none; see AGENT_ACTS). */
  readonly agentMay?: readonly AgentAct[];
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
  /** Flows only: the variables' defaults. */
  readonly flow?: FlowDef;
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
