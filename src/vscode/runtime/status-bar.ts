/**
 * The status bar: `<workflow id> › <state>` while a run is active (on a
 * statechart run, the active states in short form: chart-summary.ts), the
 * iteration count against max_iterations beside it, a warning style while an
 * approval or interrupt is pending, and a tooltip with what is allowed now.
 * An error style when the run cannot be read or was tampered with (its files
 * vanished or changed behind stategate's back). Nothing when there is no run.
 */
import * as vscode from 'vscode';
import { shownRunStatus, stateNames, STATUS_WORDS } from '../../engine/index.js';
import { chartConfiguration, configurationText } from './chart-summary.js';
import type { RunService, RunSituation } from './run-service.js';
import { storeHealthDetails, storeHealthLabel } from './store-health.js';

const RETRY_STORE = 'stategate.retryStore';
const OPEN_STORE_DOCS = 'stategate.openStoreDocs';

export class RunStatusBar implements vscode.Disposable {
  private readonly main = vscode.window.createStatusBarItem('stategate.run', vscode.StatusBarAlignment.Left, 100);
  private readonly usage = vscode.window.createStatusBarItem('stategate.usage', vscode.StatusBarAlignment.Left, 99);
  private readonly subscription: vscode.Disposable;

  constructor(private readonly service: RunService) {
    this.main.name = 'stategate run';
    this.usage.name = 'stategate iterations';
    this.main.command = 'stategate.sendEvent';
    this.usage.command = 'stategate.showPanel';
    this.subscription = service.onDidChange((s) => this.render(s));
    this.render(service.current);
  }

  private render(s: RunSituation): void {
    if (s.kind === 'none') {
      this.main.hide();
      this.usage.hide();
      return;
    }
    if (s.kind === 'unreadable' && s.store) {
      // The shared store itself failed: say so, with the reason, a retry and the docs (store-health.ts).
      this.main.text = `$(error) stategate: ${storeHealthLabel(s.store)}`;
      const md = new vscode.MarkdownString(storeHealthDetails(s.store, this.service.runner.store.location), true);
      md.isTrusted = { enabledCommands: [RETRY_STORE, OPEN_STORE_DOCS] };
      md.appendMarkdown(`\n\n[Retry now](command:${RETRY_STORE}) · [Open docs/team.md](command:${OPEN_STORE_DOCS})`);
      this.main.tooltip = md;
      this.main.accessibilityInformation = { label: `stategate: ${storeHealthLabel(s.store)}. ${s.store.message}` };
      this.main.command = RETRY_STORE;
      this.main.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
      this.main.show();
      this.usage.hide();
      return;
    }
    this.main.command = 'stategate.sendEvent';
    if (s.kind === 'unreadable') {
      this.main.text = s.tampered ? '$(warning) stategate: run tampered with' : 'stategate: run unreadable';
      this.main.accessibilityInformation = undefined;
      this.main.tooltip = `${s.reason}\n\nEnforcement denies every tool call until this is fixed.`;
      this.main.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
      this.main.show();
      this.usage.hide();
      return;
    }
    const v = s.view;
    if (s.run.status === 'stopped') {
      // A stopped run is over and enforces nothing: the item clears, as with no run (Past Runs… lists it).
      this.main.hide();
      this.usage.hide();
      return;
    }
    const configuration = chartConfiguration(s.run, s.workflow);
    const state = configuration ? configurationText(configuration, s.workflow) : v.branch ? `${v.state} [${v.branch}]` : v.state;
    const shown = shownRunStatus(s.run);
    const words = STATUS_WORDS[shown];
    // A running run is the usual case and reads plainly; any other status shows its icon (the shared words).
    this.main.text = `${shown === 'running' ? '' : `$(${words.icon}) `}${v.workflow.id} › ${state}`;
    this.main.accessibilityInformation = { label: `stategate: workflow ${v.workflow.id}, state ${state}, ${words.label}` };
    const pending = v.pending_approval !== undefined || v.interrupt !== undefined;
    this.main.backgroundColor = pending ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.main.tooltip = tooltip(s, configuration);
    this.main.show();
    if (v.max_iterations !== null && v.status === 'running') {
      this.usage.text = `$(pulse) ${v.iteration}/${v.max_iterations}`;
      this.usage.tooltip = `Tool calls in "${v.state}": ${v.iteration} of ${v.max_iterations}`;
      this.usage.show();
    } else {
      this.usage.hide();
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.main.dispose();
    this.usage.dispose();
  }
}

function tooltip(s: Extract<RunSituation, { kind: 'active' }>, configuration: readonly string[] | undefined): vscode.MarkdownString {
  const v = s.view;
  const name = stateNames(s.workflow);
  const md = new vscode.MarkdownString(undefined, true);
  if (configuration) {
    md.appendMarkdown(`**${v.workflow.id}** (${STATUS_WORDS[shownRunStatus(s.run)].label}), active states:\n\n${configuration.map((p) => `- ${name(p)}`).join('\n')}\n\n`);
  } else {
    md.appendMarkdown(`**${v.workflow.id}** › **${v.state}** (${STATUS_WORDS[shownRunStatus(s.run)].label})\n\n`);
  }
  if (v.pending_approval) md.appendMarkdown(`$(warning) Waiting for approval: ${v.pending_approval.event} → ${name(v.pending_approval.target)}\n\n`);
  if (v.interrupt) md.appendMarkdown(`$(zap) Interrupt **${v.interrupt.name}** active; \`$return\` goes back to ${name(v.interrupt.returnTo)}\n\n`);
  md.appendMarkdown(`Allowed tools: ${v.allowed_tools === null ? 'all' : v.allowed_tools.length ? v.allowed_tools.join(', ') : 'none'}\n\n`);
  if (v.transitions.length) {
    md.appendMarkdown(`Events: ${v.transitions.map((t) => `${t.event} → ${name(t.target)}${t.available ? '' : ' (blocked)'}`).join(', ')}\n\n`);
  }
  if (s.definitionChanged) md.appendMarkdown('$(info) The saved workflow file differs from the definition this run uses (Reload Workflow Definition applies it).\n\n');
  md.appendMarkdown('Click to send an event.');
  return md;
}
