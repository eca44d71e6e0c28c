/**
 * The CLI's commands, by name, with a one-line summary each. The table is
 * data only, so `stategate --help` and the dispatcher load nothing else;
 * each command's code is loaded when it runs (a hook process must not pay
 * for the MCP server or the schema validator).
 */
export const COMMAND_SUMMARIES = {
  validate: 'check workflow files (schema and semantic rules)',
  run: 'drive the active run: start, send, state, tool, result, approve, pause, ...',
  hook: 'answer an agent hook (VS Code, Claude Code, Codex, Gemini CLI, Copilot CLI, Cursor, OpenCode; JSON on stdin)',
  enable: "write the agent clients' hook and MCP entries into a workspace",
  disable: "remove stategate's hook and MCP entries from a workspace",
  mcp: 'serve the statewright_* agent tools over MCP (stdio)',
  lsp: 'the language server for workflow, statechart and flow files (stdio), for any LSP editor',
  export: 'print a workflow diagram as Mermaid, DOT or PlantUML',
  flow: 'run FlowState flows: run, resume, stop, pause, status, list',
  store: 'the shared PostgreSQL store (STATEGATE_STORE_URL): init, status, migrate',
  trust: "trust a chart or flow file's content to run its handlers (a person's command)",
} as const;

export type CommandName = keyof typeof COMMAND_SUMMARIES;

export function isCommandName(name: string): name is CommandName {
  return Object.prototype.hasOwnProperty.call(COMMAND_SUMMARIES, name);
}
