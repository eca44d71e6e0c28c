/**
 * The AI APIs of VS Code that an editor built on VS Code may not offer, looked
 * up before use so that stategate activates without them (docs/agents.md,
 * "Cursor: the extension in a VS Code fork").
 *
 * `engines.vscode` (^1.101.0) and the pinned `@types/vscode` (1.101.0) keep
 * every API the extension calls at or below VS Code 1.101, and Cursor's
 * releases of 2026 are built on VS Code 1.105.1. But a fork replaces VS
 * Code's chat with its own: the chat participant, the language-model tools,
 * the MCP server definitions and the chat models may be missing, present but
 * throwing, or present and never used. Each is registered only when the
 * function is there, inside a try, and what was left out is listed (the
 * status of "stategate: Show Version", `StategateApi.unavailable`). The rest
 * of stategate (runs, the status bar, validation, the panel, Enable Agent
 * Enforcement, the hooks and `stategate mcp` for the fork's own agent) needs
 * none of them.
 */
import * as vscode from 'vscode';

export type OptionalApi = 'chat participant' | 'language model tools' | 'MCP server definitions' | 'chat models';

type Namespaces = { readonly chat?: Partial<typeof vscode.chat>; readonly lm?: Partial<typeof vscode.lm> };

const fn = (v: unknown): boolean => typeof v === 'function';

/** Is the API there (the functions stategate calls for it)? */
export function hasApi(api: OptionalApi): boolean {
  // Read as optional: in a fork the namespace itself may be missing.
  const { chat, lm } = vscode as unknown as Namespaces;
  switch (api) {
    case 'chat participant':
      return fn(chat?.createChatParticipant);
    case 'language model tools':
      return fn(lm?.registerTool) && fn(lm?.invokeTool) && Array.isArray(lm?.tools);
    case 'MCP server definitions':
      return fn(lm?.registerMcpServerDefinitionProvider) && fn((vscode as unknown as Record<string, unknown>)['McpStdioServerDefinition']);
    case 'chat models':
      return fn(lm?.selectChatModels) && fn(lm?.onDidChangeChatModels);
  }
}

const unavailable = new Map<OptionalApi, string>();

/** What this editor did not offer, with why (missing, or the registration threw). */
export function unavailableApis(): string[] {
  return [...unavailable].map(([api, why]) => `${api} (${why})`);
}

/**
 * `register()` when the API is there; otherwise nothing, and the API is listed
 * as unavailable. A registration that throws (a fork that keeps the function
 * but refuses the call) is listed the same way instead of failing activation.
 */
export function registerIfAvailable<T>(api: OptionalApi, register: () => T): T | undefined {
  if (!hasApi(api)) {
    unavailable.set(api, 'not in this editor');
    return undefined;
  }
  try {
    return register();
  } catch (err) {
    unavailable.set(api, `refused: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
}

/** The tool ids VS Code's `lm.tools` lists; none in an editor without the API. */
export function languageModelToolNames(): string[] {
  return hasApi('language model tools') ? vscode.lm.tools.map((t) => t.name) : [];
}
