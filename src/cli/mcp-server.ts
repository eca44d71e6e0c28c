/**
 * `stategate mcp`: a stdio MCP server exposing stategate's agent tools
 * (statewright_*), so any MCP client (VS Code's agents, Claude Code, ...) can
 * read the workflow state and move it on. A thin adapter over engine/runs/agent-tools.ts;
 * the run lives in `.stategate/` of the working directory (or STATEGATE_DIR).
 *
 * The low-level Server is used because the tools' input schemas are plain
 * JSON Schema (shared with VS Code's languageModelTools), not zod shapes.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_TOOLS, offeredToolSpecs, invokeAgentTool, type AgentSession, Runner } from '../engine/index.js';

export const MCP_SERVER_NAME = 'stategate';

function isTypedDenial(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'denied_tool_call';
}

export function createMcpServer(runner: Runner, version: string): Server {
  const server = new Server({ name: MCP_SERVER_NAME, version }, { capabilities: { tools: { listChanged: true } } });
  // One session per server process: a client bound to a fork branch stays bound.
  const session: AgentSession = {};
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    // statewright_transition names the events of the run as it stands (a statechart's configuration);
    // a pipeline's live stages add their completion tools under their own names.
    tools: (await offeredToolSpecs(runner, session)).map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema as { type: 'object'; properties?: Record<string, object> },
      annotations: { readOnlyHint: t.readOnly, destructiveHint: false, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const result = await invokeAgentTool(runner, request.params.name, request.params.arguments ?? {}, session);
    // A call that may have moved the run changes statewright_transition's events: clients list the tools again.
    // A stage's completion tool is not one of AGENT_TOOLS: it moves the run too (the next stage has another tool).
    if (AGENT_TOOLS.find((t) => t.name === request.params.name)?.readOnly !== true) void server.sendToolListChanged().catch(() => undefined);
    // A typed denial (a tool outside the current stage) also comes as structured content, for clients that read it.
    const typed = isTypedDenial(result.data) ? { structuredContent: result.data as Record<string, unknown> } : {};
    return { content: [{ type: 'text' as const, text: result.text }], isError: result.isError, ...typed };
  });
  return server;
}

/** How often the server looks whether another process (a hook, the CLI, the participant) moved the pipeline to another stage. */
const STAGE_POLL_MS = 1000;

/** The live stages' completion tools, as a key: when it changes, the client's tool list is out of date. */
async function stageToolsKey(runner: Runner): Promise<string> {
  try {
    return (await runner.stages()).map((s) => `${s.branch ?? ''}:${s.completion_tool}:${s.stage_exec_id ?? ''}`).join('|');
  } catch {
    return '';
  }
}

export async function serveMcp(runner: Runner, version: string): Promise<void> {
  const server = createMcpServer(runner, version);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // The run's files are the truth and other processes change them: a stage change made elsewhere is told as tools/list_changed too.
  let key = await stageToolsKey(runner);
  let looking = false;
  const poll = setInterval(() => {
    if (looking) return; // a slow store: one look at a time
    looking = true;
    void stageToolsKey(runner)
      .then((now) => {
        if (now !== key) {
          key = now;
          void server.sendToolListChanged().catch(() => undefined);
        }
      })
      .finally(() => {
        looking = false;
      });
  }, STAGE_POLL_MS);
  poll.unref();
  // Keep serving until the client closes stdin.
  await new Promise<void>((resolve) => {
    process.stdin.on('end', resolve);
    process.stdin.on('close', resolve);
  });
  clearInterval(poll);
  await server.close();
}
