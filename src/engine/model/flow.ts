import type { JsonObject, JsonValue } from './json-types.js';
import type { NameRef, SourceLoc } from './source.js';

/* ------------------------------------------------------------------------ *
 * Flows (FlowState style; docs/flows.md).
 *
 * A flow loads into the same `Workflow` / `StateNode` IR: each flow state is
 * an atomic node whose action is one tool call, kept in `StateNode.flow`; the
 * flow's `start-at` is `Workflow.initial` and its `variables` are
 * `Workflow.flow.variables`. A flow node's `on` is always empty: where it goes
 * next is decided by the tool's result (`next`, `on-error`, `goto`), which only
 * the flow runner reads.
 * ------------------------------------------------------------------------ */

/** The built-in tools of docs/flows.md's table, in the order the table lists them. */
export const FLOW_TOOLS = [
  'bash',
  'switch',
  'pause',
  'ask-user',
  'claude',
  'codex',
  'gemini',
  'claude-code',
  'get-gh-issue',
  'parallel',
  'sub-flow',
] as const;

export type FlowTool = (typeof FLOW_TOOLS)[number];

export function isFlowTool(name: string): name is FlowTool {
  return (FLOW_TOOLS as readonly string[]).includes(name);
}

/** Where a state's stdout goes: `var(NAME)` or `file(PATH)` (workspace-relative). */
export type FlowOutput =
  | { readonly kind: 'var'; readonly name: string; readonly loc: SourceLoc }
  | { readonly kind: 'file'; readonly path: string; readonly loc: SourceLoc };

/** One `on-error` entry: an exit code, or `_` for any code no other entry names. */
export interface FlowErrorRoute {
  readonly code: number | '_';
  readonly target: NameRef;
  /** Location of the key (`1`, `_`). */
  readonly keyLoc: SourceLoc;
}

/** One `goto` entry of a `switch`: the value matched as a string, or `_` as the default. */
export interface FlowGotoRoute {
  readonly value: string;
  readonly target: NameRef;
  readonly keyLoc: SourceLoc;
}

/**
 * One task of a `parallel` state: either a tool call of its own (`tool`,
 * `arguments`, `output`) or the name of a state of the flow to run as a task.
 */
export type FlowTask =
  | {
      readonly kind: 'call';
      /** As written; an unknown tool is a diagnostic, never a silent skip. */
      readonly tool: string;
      readonly toolLoc: SourceLoc;
      readonly arguments: JsonObject;
      readonly output?: FlowOutput;
      readonly loc: SourceLoc;
    }
  | { readonly kind: 'state'; readonly state: NameRef; readonly loc: SourceLoc };

/** What a flow state does (`StateNode.flow`). */
export interface FlowStep {
  /** As written; an unknown tool is a diagnostic, never a silent skip. */
  readonly tool: string;
  readonly toolLoc: SourceLoc;
  /** Values as written; strings may hold `{{ var }}` templates. */
  readonly arguments: JsonObject;
  /** Location of each argument's value, by argument name. */
  readonly argumentLocs: Readonly<Record<string, SourceLoc>>;
  readonly output?: FlowOutput;
  /** On success; absent: the flow ends after this state. */
  readonly next?: NameRef;
  /** In definition order; `_` matches any code no other entry names. */
  readonly onError: readonly FlowErrorRoute[];
  /** `switch` only (elsewhere a diagnostic). */
  readonly goto: readonly FlowGotoRoute[];
  /** `parallel` only: its `tasks` argument read into tasks. */
  readonly tasks?: readonly FlowTask[];
}

/** What only a flow has at its top (`Workflow.flow`). */
export interface FlowDef {
  /** Defaults of the flow's variables (`variables`). */
  readonly variables: Readonly<Record<string, JsonValue>>;
  readonly variablesLoc?: SourceLoc;
}
