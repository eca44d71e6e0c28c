/**
 * What the flow runner needs from the place it runs in (the CLI, the
 * extension host). The runner (flow/runner.ts) owns the semantics: routing,
 * templating, outputs, instances. A host only performs effects: run a process,
 * ask a person, prompt a model, read an issue. The CLI's host and the
 * extension's host differ only in those effects (docs/flows.md).
 *
 * Every effect reports a `ToolOutcome`, never throws for an expected failure
 * (a missing vendor CLI, no GitHub sign-in, a headless question): the runner
 * routes on `exitCode` and shows `message`.
 */

/** The result of one tool's effect. */
export interface ToolOutcome {
  /** 0 on success; routed through `on-error` otherwise. */
  readonly exitCode: number;
  /** What `output: var()/file()` captures (one trailing newline is removed by the runner). */
  readonly stdout: string;
  /** Why it failed when it is not a process's own exit (e.g. "gh is not installed and ..."). */
  readonly message?: string;
}

/** Where progress and live output go: stderr in the CLI, the terminal in VS Code. */
export interface FlowSink {
  /** A line of progress from the runner ("▶ test (bash)", "✓ test 1.2 s"). */
  progress(line: string): void;
  /** A chunk of a tool's live output (stderr of bash, a model's streamed answer). */
  output(state: string, chunk: string, stream: 'stdout' | 'stderr'): void;
}

export interface CommandRequest {
  /** The flow state's path (`build`, `deploy/check`), for output and the instance record. */
  readonly state: string;
  /** Already templated. Run with bash in `cwd`. */
  readonly command: string;
  readonly cwd: string;
  /** Extra environment on top of the host's. */
  readonly env?: Readonly<Record<string, string>>;
  /** Aborted by `flow stop` / the Stop button: the whole process group is killed. */
  readonly signal: AbortSignal;
  /** Called once the process is started, with its process-group id (recorded so another process can stop it). */
  onStarted?(pgid: number): void;
}

export interface AskRequest {
  readonly state: string;
  /** Already templated. */
  readonly question: string;
  readonly signal: AbortSignal;
}

export type ModelVendor = 'claude' | 'codex' | 'gemini';

export interface PromptRequest {
  readonly state: string;
  readonly vendor: ModelVendor;
  /** Already templated. */
  readonly prompt: string;
  /** The `model` argument when given. */
  readonly model?: string;
  readonly cwd: string;
  readonly signal: AbortSignal;
}

export interface IssueRequest {
  readonly state: string;
  /** Already templated `issue-number`. */
  readonly issueNumber: string;
  /** The `repo` argument (OWNER/NAME) when given. */
  readonly repo?: string;
  readonly cwd: string;
  readonly signal: AbortSignal;
}

/** The effects a flow can have, one per kind of tool that leaves the runner. */
export interface FlowHost {
  /** The workspace: `bash` runs there, `file()` resolves against it, instances live in `<workspace>/.stategate/flows/`. */
  readonly workspace: string;
  readonly sink: FlowSink;
  /** `bash`. */
  runCommand(req: CommandRequest): Promise<ToolOutcome>;
  /** `ask-user`. A headless host answers exitCode != 0 with a message naming the state. */
  askUser(req: AskRequest): Promise<ToolOutcome>;
  /** `claude`, `codex`, `gemini`: the answer is stdout; streamed chunks go to `sink.output`. */
  prompt(req: PromptRequest): Promise<ToolOutcome>;
  /** `claude-code`: `claude -p`, under the stategate hook when a workflow run is active. */
  claudeCode(req: PromptRequest): Promise<ToolOutcome>;
  /** `get-gh-issue`: the issue JSON is stdout. */
  ghIssue(req: IssueRequest): Promise<ToolOutcome>;
  /** The clock of the log's `started`/`ended` (tests inject one). */
  now(): Date;
}
