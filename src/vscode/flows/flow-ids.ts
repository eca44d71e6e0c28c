/** Ids the activation bundle (lazy-flows.ts) and the flows bundle (index.ts) share; package.json contributes them. */
export const FLOWS_VIEW_ID = 'stategate.flows';

export const FLOW_COMMANDS = {
  run: 'stategate.runFlow',
  pause: 'stategate.pauseFlow',
  resume: 'stategate.resumeFlow',
  stop: 'stategate.stopFlow',
  show: 'stategate.showFlow',
  refresh: 'stategate.refreshFlows',
} as const;

/** The state panel (src/vscode/panel/) registers this: it shows a flow instance's diagram (arg: the instance, or a Flows view row). */
export const FLOW_PANEL_COMMAND = 'stategate.showFlowInPanel';
