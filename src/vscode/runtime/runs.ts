/**
 * Everything that reads or changes runs, as one bundle of its own
 * (dist/extension-runs.js, see scripts/build.mjs): the RunService of the
 * workspace folder with the status bar, the timers of statechart runs, the run commands, save-triggered
 * interrupts and approval notifications; the agent tools, the @stategate
 * participant, the enforcement commands and custom agent sync; the state panel;
 * the flow commands' context keys (flows/flow-context-keys.ts: a flow may run before its bundle loads);
 * the walkthrough's progress (walkthrough-progress.ts).
 * activate() loads none of it: lazy-runs.ts loads it right after activation
 * when a folder is open (so an existing run shows in the status bar), or on the
 * first command, tool call, chat request or panel that needs it.
 */
import * as vscode from 'vscode';
import type { CommandHandler } from '../contributions.js';
import { startAgents, type Agents } from '../agents/index.js';
import { trackFlowContextKeys } from '../flows/flow-context-keys.js';
import { statePanel, type StatePanel } from '../panel/index.js';
import { notifyApprovals } from './approvals.js';
import { ChartTimers } from './chart-timers.js';
import { ChartHandlers } from './chart-handlers.js';
import { registerRunCommands } from './commands.js';
import { RunService } from './run-service.js';
import { trackRunContextKeys } from './run-context-keys.js';
import { trackWalkthroughProgress } from './walkthrough-progress.js';
import { watchSaves } from './save-watcher.js';
import { RunStatusBar } from './status-bar.js';
import { registerStoreCommands, storePasswordFrom } from './store-commands.js';
import { watchStoreSetting } from './store-setting.js';

export interface RunParts {
  /** The run service of the workspace folder; none without a `file:` folder. */
  readonly service?: RunService;
  /** Command implementations by id (lazy-runs.ts registered the ids). */
  readonly commands: ReadonlyMap<string, CommandHandler>;
  readonly panel: StatePanel;
  /** The agent tools and the participant's handler; none without a folder. */
  readonly agents?: Agents;
}

export function startRuns(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder | undefined): RunParts {
  const commands = new Map<string, CommandHandler>();
  const register = (id: string, handler: CommandHandler): vscode.Disposable => {
    commands.set(id, handler);
    return { dispose: () => void (commands.get(id) === handler && commands.delete(id)) };
  };
  let service: RunService | undefined;
  let agents: Agents | undefined;
  if (folder) {
    service = new RunService(folder, { password: storePasswordFrom(context) });
    context.subscriptions.push(service, new RunStatusBar(service), trackRunContextKeys(service), new ChartTimers(service), new ChartHandlers(service), ...registerRunCommands(service, register), ...registerStoreCommands(context, service, register), watchStoreSetting(folder), watchSaves(service), notifyApprovals(service), trackFlowContextKeys(folder), trackWalkthroughProgress(context.extension.id, folder, service));
    agents = startAgents(context, service, register);
    context.subscriptions.push(...agents.disposables);
  }
  const panel = statePanel(context, service, register);
  context.subscriptions.push(...panel.disposables);
  return { ...(service ? { service } : {}), commands, panel, ...(agents ? { agents } : {}) };
}
