/**
 * Calls one tool of a stdio MCP server with the MCP SDK's client: the server
 * is started in the workspace folder, asked once, and stopped. The SDK is
 * loaded on first use (mcp-client.ts, a bundle of its own), so no other
 * part of stategate pays for it.
 */
import type { JsonObject, JsonValue } from '../model/index.js';
import type { StdioServer } from './mcp-server-config.js';

export interface McpCallResult {
  readonly ok: boolean;
  /** The tool's structured content, else its text content (parsed when it is JSON). */
  readonly output: JsonValue;
  /** The size of what the tool answered. */
  readonly bytes: number;
  readonly error?: string;
}

interface ToolAnswer {
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
  readonly structuredContent?: JsonObject;
  readonly isError?: boolean;
}

export async function callMcpTool(server: StdioServer, cwd: string, tool: string, args: JsonObject, timeoutMs: number): Promise<McpCallResult> {
  const { Client, StdioClientTransport, getDefaultEnvironment } = require('./mcp-client.js') as typeof import('./mcp-client.js');
  const transport = new StdioClientTransport({ command: server.command, args: [...server.args], env: { ...getDefaultEnvironment(), ...server.env }, cwd, stderr: 'ignore' });
  const client = new Client({ name: 'stategate-handlers', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const answer = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs })) as ToolAnswer;
    const text = (answer.content ?? []).map((c) => (c.type === 'text' ? (c.text ?? '') : '')).join('');
    const output = answer.structuredContent ?? parsed(text);
    const bytes = Buffer.byteLength(JSON.stringify(answer));
    return answer.isError ? { ok: false, output, bytes, error: `the MCP tool ${tool} answered an error${text ? `: ${text.slice(0, 500)}` : ''}` } : { ok: true, output, bytes };
  } catch (err) {
    return { ok: false, output: '', bytes: 0, error: `calling the MCP tool ${tool} failed: ${(err as Error).message}` };
  } finally {
    await client.close().catch(() => undefined);
  }
}

function parsed(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
