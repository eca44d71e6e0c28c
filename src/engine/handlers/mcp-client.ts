/**
 * The MCP SDK's client, alone: mcp-call.ts requires this file on first use,
 * and the build ships it as a bundle of its own (dist/cli/mcp-client.js), so
 * the shared engine bundle does not carry the SDK for every command.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
