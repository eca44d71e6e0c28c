/**
 * The flow host of the command line (and of any plain Node process): every
 * effect is a real process in the workspace (bash, the vendors' CLIs, Claude
 * Code, gh), questions go to the terminal. The extension builds its own host
 * from the same bash effect and VS Code's language models, GitHub sign-in and
 * input box (src/vscode/flows/).
 */
import type { FlowHost, FlowSink } from '../host.js';
import { runBash } from './bash.js';
import { promptModelCli } from './vendor-cli.js';
import { runClaudeCode, type ClaudeCodeOptions } from './claude-code.js';
import { readGhIssue } from './gh-issue.js';
import { askInTerminal, type TerminalIo } from './ask-terminal.js';

export interface NodeFlowHostOptions extends ClaudeCodeOptions, Partial<TerminalIo> {
  /** The clock of the instance log (tests inject one). */
  readonly now?: () => Date;
}

export function nodeFlowHost(workspace: string, sink: FlowSink, opts: NodeFlowHostOptions = {}): FlowHost {
  const io: TerminalIo = {
    interactive: opts.interactive ?? process.stdin.isTTY === true,
    input: opts.input ?? process.stdin,
    output: opts.output ?? process.stderr,
  };
  return {
    workspace,
    sink,
    runCommand: (req) => runBash(req, sink, opts),
    askUser: (req) => askInTerminal(req, io),
    prompt: (req) => promptModelCli(req, sink, opts),
    claudeCode: (req) => runClaudeCode(req, sink, opts),
    ghIssue: (req) => readGhIssue(req, sink, opts),
    now: opts.now ?? (() => new Date()),
  };
}
