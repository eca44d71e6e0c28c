/**
 * Recognising a call of the active stage's completion tool in a client's
 * spelling: bare (`submit_plan`, the participant and LM tools), or through
 * stategate's MCP server (`mcp__stategate__submit_plan` in Claude Code,
 * `stategate/submit_plan`). Like stategate's own tools, such a call is never
 * refused by the stage's envelope: it is how the stage ends. Another
 * server's tool of the same name gets no such pass.
 */
import { mcpParts } from '../policy/tools.js';

/** The MCP server name stategate registers (src/cli/mcp-server.ts, the VS Code provider). */
export const STATEGATE_SERVER = 'stategate';

/** The bare completion tool name when `callId` calls one of `tools` (bare or via stategate's server). */
export function completionToolCalled(callId: string, tools: readonly string[]): string | undefined {
  if (typeof callId !== 'string' || !tools.length) return undefined;
  if (tools.includes(callId)) return callId;
  const parts = mcpParts(callId);
  return parts && parts.server === STATEGATE_SERVER && tools.includes(parts.tool) ? parts.tool : undefined;
}
