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

/** How a run started from a person's trust checks each flow file it loads, on the text it read. */
export interface TrustCheck {
  /** Whether a person trusts `file` (absolute) with this text (formats/flow-trust-text.ts: the flow and its registry). */
  readonly trusts: (file: string, trustText: string) => boolean;
  /** The top flow's text as the person allowed it a moment ago: compared exactly instead of asking `trusts`. */
  readonly expectedText?: string;
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
   * A run started from a person's trust (VS Code's Run Flow, a chart's flow handler; handlers/flow-trust.ts):
   * the top flow must be the text the person allowed (`expectedText`, the flow with its custom tool
   * registry), and every sub-flow one a person trusted, each checked on the text read (load.ts), so a
   * file swapped or rewritten after the question never runs. Without it (`stategate flow run`, where the
   * person starts it from a terminal), nothing is checked.
   */
  readonly trust?: TrustCheck;
}

export interface ResumeFlowOptions {
  /** Run again the state that was running when the runner died (an interrupted instance). */
  readonly rerun?: boolean;
  /** As StartFlowOptions.trust: the top flow, and every sub-flow entered from now on, checked. */
  readonly trust?: TrustCheck;
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
      | 'untrusted'
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
