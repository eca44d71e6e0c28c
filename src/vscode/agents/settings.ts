/** stategate.* settings the agent features read. */
import * as vscode from 'vscode';
import { cleanAliases, isSecurityMode, parseModelPrices, type ExtraAliases, type ModelPrices, type SecurityMode } from '../../engine/index.js';
import { DEFAULT_CONCURRENCY } from './pipeline-loop.js';

/** `stategate.toolAliases`: extra tool ids mapped onto canonical names (the table's user extension). */
export function toolAliases(scope?: vscode.ConfigurationScope): ExtraAliases | undefined {
  return cleanAliases(vscode.workspace.getConfiguration('stategate', scope).get<unknown>('toolAliases'));
}

export function syncCustomAgentEnabled(): boolean {
  return vscode.workspace.getConfiguration('stategate').get<boolean>('syncCustomAgent') === true;
}

/** `stategate.mirrorRunRecord`: copy the run record to `.claude/agent-state.json`. */
export function mirrorRunRecord(scope?: vscode.ConfigurationScope): boolean {
  return vscode.workspace.getConfiguration('stategate', scope).get<boolean>('mirrorRunRecord') === true;
}

/** `stategate.securityMode` for `@stategate /run`: set only when the person chose one (the workflow's meta.security_mode comes first). */
export function securityMode(scope?: vscode.ConfigurationScope): SecurityMode | undefined {
  const inspected = vscode.workspace.getConfiguration('stategate', scope).inspect<unknown>('securityMode');
  const chosen = inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
  return isSecurityMode(chosen) ? chosen : undefined;
}

/** `stategate.modelPrices`: dollars per million tokens by model (VS Code's API tells no price), for the run's cost. */
export function modelPrices(scope?: vscode.ConfigurationScope): ModelPrices {
  return parseModelPrices(vscode.workspace.getConfiguration('stategate', scope).get<unknown>('modelPrices'));
}

/**
 * `stategate.participant.maxParallelStages`: how many branch stages of a
 * parallel fork `@stategate /run` runs at once. A value that is not a whole
 * number of at least 1 is the default (a bad setting must not stop the pipeline).
 */
export function maxParallelStages(scope?: vscode.ConfigurationScope): number {
  const v = vscode.workspace.getConfiguration('stategate', scope).get<unknown>('participant.maxParallelStages');
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : DEFAULT_CONCURRENCY;
}
