/**
 * The flow runner's public shapes (README.md, "The command line": the JSON of `flow run`,
 * `flow status`, `flow list`). The CLI prints them as they are; the extension
 * shows them in the Flows view.
 */

/** `interrupted` is never stored: it is a `running` instance whose runner process is gone. */
export type FlowStatusName = 'running' | 'completed' | 'failed' | 'paused' | 'stopped' | 'interrupted';

export interface FlowSummary {
  readonly instance: string;
  /** The flow's `name` (else its file's name without `.flow.yaml`). */
  readonly flow: string;
  readonly status: FlowStatusName;
  /** The current or last state path (`build`, `deploy/check` inside a sub-flow). */
  readonly state: string;
  /** The flow's exit code once it has ended (0 when paused), null while it runs or was interrupted. */
  readonly exit_code: number | null;
  /** The top-level variables (a sub-flow's come back as `<state>::<var>`). */
  readonly variables: Readonly<Record<string, string>>;
  /** Why it failed, paused, stopped or was interrupted. */
  readonly message?: string;
}

/** One state run, in run order. */
export interface FlowLogEntry {
  readonly state: string;
  /** null when the state failed without an exit code of its own (an undefined variable, a switch with no match). */
  readonly exit_code: number | null;
  /** ISO 8601. */
  readonly started: string;
  readonly ended: string;
  /** Size of the state's stdout in bytes. */
  readonly bytes: number;
}

export interface FlowStatus extends FlowSummary {
  readonly log: readonly FlowLogEntry[];
}

export interface StartFlowOptions {
  /** The flow file, absolute or relative to the host's workspace. */
  readonly file: string;
  /** The instance name (default: `<flow>-<n>`, the next free number). */
  readonly name?: string;
  /** Variables on top of the flow's `variables` (`--var K=V`; may set undeclared ones). */
  readonly vars?: Readonly<Record<string, string>>;
  /** Answers to `ask-user` states, keyed by the state's name (or its path inside a sub-flow). */
  readonly answers?: Readonly<Record<string, string>>;
  /**
   * What a person trusted of the flow (handlers/flow-trust.ts: its text and its custom tool registry's,
   * for a statechart handler's flow or VS Code's first run): the file and registry read to run are
   * refused with `changed` unless they make this text, so a file swapped after the trust check never runs.
   */
  readonly expectedText?: string;
}

export interface ResumeFlowOptions {
  /** Run again the state that was running when the runner died (an interrupted instance). */
  readonly rerun?: boolean;
  /** More answers to `ask-user` states (on top of those given at the start). */
  readonly answers?: Readonly<Record<string, string>>;
}

/**
 * Refusals before anything runs, and instance-store problems. `code` is for
 * the CLI's `{"error":{"code","message"}}`; `message` says what is wrong and
 * the way forward.
 */
export class FlowError extends Error {
  constructor(
    readonly code:
      | 'not_found'
      | 'not_a_flow'
      | 'invalid_flow'
      | 'changed'
      | 'invalid_name'
      | 'exists'
      | 'no_instance'
      | 'corrupt_instance'
      | 'busy'
      | 'interrupted'
      | 'not_resumable'
      | 'not_running'
      | 'io',
    message: string,
    /** For `invalid_flow`: each error as `file:line:col: message`. */
    readonly details?: readonly string[],
  ) {
    super(message);
    this.name = 'FlowError';
  }
}
