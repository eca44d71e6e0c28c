/** stategate.* settings the agent features read. */
import * as vscode from 'vscode';
import type { ExtraAliases } from '../../engine/tools.js';

/** `stategate.toolAliases`: extra tool ids mapped onto canonical names (the table's user extension). */
export function toolAliases(): ExtraAliases | undefined {
  const value = vscode.workspace.getConfiguration('stategate').get<unknown>('toolAliases');
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string' && v !== '') out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

export function syncCustomAgentEnabled(): boolean {
  return vscode.workspace.getConfiguration('stategate').get<boolean>('syncCustomAgent') === true;
}
