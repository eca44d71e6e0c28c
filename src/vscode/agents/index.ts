/**
 * Everything that gates agents: the statewright_* language-model tools, the
 * @stategate participant, the hook installer commands, custom agent sync and
 * the MCP server definition. One call from extension.ts.
 */
import * as vscode from 'vscode';
import type { RunService } from '../runtime/run-service.js';
import { syncCustomAgent } from './agent-sync.js';
import { registerEnforcementCommands } from './enforcement.js';
import { registerLmTools } from './lm-tools.js';
import { registerMcpProvider } from './mcp-provider.js';
import { registerParticipant } from './participant.js';

export function registerAgents(context: vscode.ExtensionContext, service: RunService): vscode.Disposable[] {
  return [
    ...registerLmTools(service),
    registerParticipant(context, service),
    ...registerEnforcementCommands(context, service.folder),
    ...syncCustomAgent(service),
    ...registerMcpProvider(context, service.folder),
  ];
}
