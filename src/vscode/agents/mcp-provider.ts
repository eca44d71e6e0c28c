/**
 * Lists `stategate mcp` among VS Code's MCP servers (contributed in
 * `mcpServerDefinitionProviders`), run by the extension host's own runtime so
 * no Node install is needed. Trusted workspaces only: it starts a process.
 */
import * as vscode from 'vscode';
import { MCP_PROVIDER_ID } from '../contributions.js';
import { cliInvocation } from './cli-launch.js';
import { registerIfAvailable } from '../editor-apis.js';

export function registerMcpProvider(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder): vscode.Disposable[] {
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions() {
      if (!vscode.workspace.isTrusted) return [];
      const inv = cliInvocation({ execPath: process.execPath, extensionPath: context.extensionPath, platform: process.platform }, ['mcp']);
      const def = new vscode.McpStdioServerDefinition('stategate', inv.command, inv.args, inv.env, String(context.extension.packageJSON.version ?? ''));
      // The server finds `.stategate/` from its working directory.
      def.cwd = folder.uri;
      return [def];
    },
  };
  // A fork without the API (editor-apis.ts) gets `stategate mcp` through its own MCP config (Enable Agent Enforcement).
  const registered = registerIfAvailable('MCP server definitions', () => vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider));
  return registered ? [changed, vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()), registered] : [changed];
}
