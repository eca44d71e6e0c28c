/** The flow effects of a plain Node process (the CLI's host); the extension reuses bash and the process-group kill. */
export { nodeFlowHost, type NodeFlowHostOptions } from './node-host.js';
export { runBash, BASH_BIN_VARIABLE, type EffectOptions } from './bash.js';
export { killProcessGroup, signalExitCode } from './process-group.js';
export { promptModelCli, VENDOR_CLIS, missingCliMessage } from './vendor-cli.js';
export { runClaudeCode, claudeHookCommandFor, claudeHookInstalled, claudeHookSettings, type ClaudeCodeOptions } from './claude-code.js';
export { readGhIssue, GH_BIN_VARIABLE, GH_ISSUE_FIELDS } from './gh-issue.js';
export { askInTerminal, headlessAnswerMessage, type TerminalIo } from './ask-terminal.js';
