/**
 * Where an `{mcp: {server, tool}}` handler's server is configured: the
 * workspace's `.mcp.json` (`mcpServers.NAME`, Claude Code's) or
 * `.vscode/mcp.json` (`servers.NAME`, VS Code's), first found. Only stdio
 * servers (`command`, `args`, `env`) are run; an HTTP server is refused with
 * a message saying so. The file's text comes back too: a person must trust
 * the exact content that names the server's command, and the server found in
 * that read is the one started (run-handlers.ts), as for a flow file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';

export interface StdioServer {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export type McpServerFound = { readonly file: string; readonly text: string; readonly server: StdioServer } | { readonly problem: string };

const PLACES: readonly (readonly [rel: string, key: string])[] = [
  ['.mcp.json', 'mcpServers'],
  [path.join('.vscode', 'mcp.json'), 'servers'],
];

export function findMcpServer(workspace: string, name: string): McpServerFound {
  for (const [rel, key] of PLACES) {
    const file = path.join(workspace, rel);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const root = parse(text, [], { allowTrailingComma: true }) as unknown;
    const servers = isObject(root) ? root[key] : undefined;
    const entry = isObject(servers) && Object.hasOwn(servers, name) ? servers[name] : undefined;
    if (entry === undefined) continue;
    if (!isObject(entry)) return { problem: `${rel} has \`${key}.${name}\`, but it is not an object` };
    const type = entry.type;
    if (typeof entry.command !== 'string' || entry.command === '' || (type !== undefined && type !== 'stdio')) {
      return { problem: `the MCP server ${name} in ${rel} is not a stdio server (a \`command\` to start): stategate runs stdio servers only` };
    }
    const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
    const env: Record<string, string> = {};
    if (isObject(entry.env)) for (const [k, v] of Object.entries(entry.env)) if (typeof v === 'string') env[k] = v;
    return { file, text, server: { command: entry.command, args, env } };
  }
  return { problem: `no MCP server ${name} is configured in the workspace's .mcp.json or .vscode/mcp.json` };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
