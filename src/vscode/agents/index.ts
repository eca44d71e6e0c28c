/**
 * Everything that gates agents: the statewright_* language-model tools, the
 * @stategate participant, the hook installer commands, custom agent sync,
 * the settings files for processes outside VS Code (tool aliases, the run record's mirror); and, at start, hook
 * entries re-pointed at this version of the extension.
 * activate() registers the tools and the participant by name with stand-ins
 * (extension.ts); this returns what they hand each call to. The MCP server
 * definition (mcp-provider.ts) loads nothing, so activate() registers it itself.
 */
import type * as vscode from 'vscode';
import type { RegisterCommand } from '../contributions.js';
import type { RunService } from '../runtime/run-service.js';
import { syncCustomAgent } from './agent-sync.js';
import { syncSettingFiles } from './setting-files-sync.js';
import { registerEnforcementCommands, repointHooks } from './enforcement.js';
import { lmTools, type AgentTool } from './lm-tools.js';
import { participantHandler } from './participant.js';
import { ANSWER_GRANT_COMMAND, GrantWaiters } from './grant-buttons.js';

export interface Agents {
  readonly tools: ReadonlyMap<string, AgentTool>;
  readonly participant: vscode.ChatRequestHandler;
  readonly disposables: vscode.Disposable[];
}

export function startAgents(context: vscode.ExtensionContext, service: RunService, register: RegisterCommand): Agents {
  repointHooks(context, service.folder);
  // A pipeline's grant questions wait on the Approve / Deny buttons, which run this command.
  const waiters = new GrantWaiters();
  return {
    tools: lmTools(service),
    participant: participantHandler(service, waiters),
    disposables: [
      ...registerEnforcementCommands(context, service.folder, register),
      register(ANSWER_GRANT_COMMAND, (proposalId: unknown, approved: unknown) => waiters.answer(proposalId, approved)),
      ...syncCustomAgent(service),
      ...syncSettingFiles(service),
    ],
  };
}
