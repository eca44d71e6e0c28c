/**
 * Recognising a call of the active stage's completion tool in a client's
 * spelling: bare (`submit_plan`, the participant and LM tools), or through
 * stategate's MCP server (`mcp__stategate__submit_plan` in Claude Code,
 * `stategate/submit_plan`). Like stategate's own tools, such a call is never
 * refused by the stage's envelope: it is how the stage ends. Another
 * server's tool of the same name gets no such pass.
 */
import { mcpParts } from '../agent/tools.js';

/** The MCP server name stategate registers (src/cli/mcp-server.ts, the VS Code provider). */
export const STATEGATE_SERVER = 'stategate';

/**
 * Who may call a completion tool by its bare name: VS Code (its language-model
 * tools and the participant are stategate's own, in process) and callers with
 * no client (the CLI). Every hook client's bare name is a tool of its own
 * (an OpenCode custom tool the agent wrote, say): it must come through
 * stategate's server to end a stage.
 */
export function bareNamesAreOurs(client: string | undefined): boolean {
  return client === undefined || client === 'vscode';
}

/**
 * The bare completion tool name when `callId` calls one of `tools`: bare (where
 * `bare` says a bare name is stategate's), or through stategate's MCP server
 * (`mcp__stategate__submit_plan`, `stategate/submit_plan`, VS Code's
 * `mcp_stategate_submit_plan`).
 */
export function completionToolCalled(callId: string, tools: readonly string[], bare = true): string | undefined {
  if (typeof callId !== 'string' || !tools.length) return undefined;
  if (bare && tools.includes(callId)) return callId;
  const vscodeMcp = `mcp_${STATEGATE_SERVER}_`;
  if (callId.startsWith(vscodeMcp) && tools.includes(callId.slice(vscodeMcp.length))) return callId.slice(vscodeMcp.length);
  const parts = mcpParts(callId);
  return parts && parts.server === STATEGATE_SERVER && tools.includes(parts.tool) ? parts.tool : undefined;
}
