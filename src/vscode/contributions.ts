/**
 * Ids the activation bundle (dist/extension.js) and the lazily loaded bundles
 * share, and the command registry the lazy bundles fill: activate() registers
 * every command, provider and tool with a handler that loads its bundle on
 * first use (see extension.ts), so this file imports nothing but types.
 */
import type * as vscode from 'vscode';

export const PARTICIPANT_ID = 'stategate.agent';
export const PANEL_VIEW_ID = 'stategate.statePanel';
export const PANEL_EDITOR_TYPE = 'stategate.statePanelEditor';
export const MCP_PROVIDER_ID = 'stategate.mcp';


/** Command arguments are whatever the caller passes. */
export type CommandHandler = (...args: any[]) => unknown;
/** Registers a command's implementation (vscode.commands.registerCommand's shape). */
export type RegisterCommand = (id: string, handler: CommandHandler) => vscode.Disposable;

/**
 * The names a package.json contribution point lists: `contributed(pkg, 'commands', 'command')`
 * are the command ids, `contributed(pkg, 'languageModelTools', 'name')` the tool names.
 */
export function contributed(packageJSON: unknown, point: string, key: string): string[] {
  const list = (packageJSON as { contributes?: Record<string, unknown> } | undefined)?.contributes?.[point];
  if (!Array.isArray(list)) return [];
  return list.map((c) => (c as Record<string, unknown> | null)?.[key]).filter((v): v is string => typeof v === 'string');
}
