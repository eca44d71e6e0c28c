/**
 * `claude`, `codex`, `gemini` from the command line: the vendor's own CLI,
 * non-interactive, the prompt on stdin (a prompt holding a test log can pass
 * the 128 KiB a single argument may have on Linux, and nothing in it can be
 * read as an option), the answer on stdout, progress on stderr.
 *
 *   claude  `claude -p [--model M]`                       (print mode reads the prompt from stdin)
 *   codex   `codex exec --skip-git-repo-check [--model M] -`  (`-`: the prompt from stdin; only the final message on stdout)
 *   gemini  `gemini [--model M]`                            (headless when stdin is not a terminal)
 *
 * The program is the name on PATH, or STATEGATE_<VENDOR>_BIN (tests put a
 * scripted stand-in there). Not installed: exit 127 with what to install; in
 * VS Code flows use VS Code's language models instead (src/vscode/flows/).
 */
import type { FlowSink, ModelVendor, PromptRequest, ToolOutcome } from '../host.js';
import { runInProcessGroup } from './process-group.js';
import { programFor, toOutcome, toolEnv } from './outcome.js';
import type { EffectOptions } from './bash.js';

export interface VendorCli {
  /** The program's name on PATH. */
  readonly name: string;
  /** The variable that names another program instead. */
  readonly variable: string;
  /** What it is, for the error. */
  readonly product: string;
  /** How to get it (a command a person runs). */
  readonly install: string;
  /** Arguments, the prompt going to stdin. */
  args(model: string | undefined): string[];
}

const withModel = (model: string | undefined): string[] => (model ? ['--model', model] : []);

export const VENDOR_CLIS: Readonly<Record<ModelVendor, VendorCli>> = {
  claude: { name: 'claude', variable: 'STATEGATE_CLAUDE_BIN', product: 'Claude Code', install: 'npm install -g @anthropic-ai/claude-code, then run `claude` once to sign in', args: (m) => ['-p', ...withModel(m)] },
  codex: { name: 'codex', variable: 'STATEGATE_CODEX_BIN', product: 'the OpenAI Codex CLI', install: 'npm install -g @openai/codex, then `codex login`', args: (m) => ['exec', '--skip-git-repo-check', ...withModel(m), '-'] },
  gemini: { name: 'gemini', variable: 'STATEGATE_GEMINI_BIN', product: 'the Gemini CLI', install: 'npm install -g @google/gemini-cli, then run `gemini` once to sign in', args: (m) => withModel(m) },
};

/** Why a tool cannot run: the CLI is not there. Names the program, how to get it, and the override. */
export function missingCliMessage(tool: string, cli: VendorCli, program: string): string {
  return (
    `the ${tool} tool needs ${program} (${cli.product}) from the command line, and it is not installed or not on PATH. ` +
    `Install it (${cli.install}) or set ${cli.variable} to its path. In VS Code, flows use VS Code's language models instead.`
  );
}

/** Run a vendor CLI with the prompt on stdin; its stdout is the answer, streamed to the sink as it comes. */
export async function runVendorCli(
  tool: string,
  cli: VendorCli,
  args: readonly string[],
  req: PromptRequest,
  sink: FlowSink,
  opts: EffectOptions,
): Promise<ToolOutcome> {
  const env = toolEnv(opts.env ?? process.env);
  const program = programFor(env, cli.variable, cli.name);
  const result = await runInProcessGroup({
    program,
    args,
    cwd: req.cwd,
    env,
    input: req.prompt,
    signal: req.signal,
    onStdout: (chunk) => sink.output(req.state, chunk, 'stdout'),
    onStderr: (chunk) => sink.output(req.state, chunk, 'stderr'),
    ...(opts.killGraceMs !== undefined ? { killGraceMs: opts.killGraceMs } : {}),
  });
  return toOutcome(result, missingCliMessage(tool, cli, program));
}

/** The `claude` / `codex` / `gemini` tools. */
export function promptModelCli(req: PromptRequest, sink: FlowSink, opts: EffectOptions = {}): Promise<ToolOutcome> {
  const cli = VENDOR_CLIS[req.vendor];
  return runVendorCli(req.vendor, cli, cli.args(req.model), req, sink, opts);
}
