/**
 * One webview showing the state panel (the activity-bar view or the editor
 * panel; both use this). It posts the whole render model whenever the run
 * changes and whenever the webview (re)loads and says `ready`, so a view that
 * was hidden, or a window that was reloaded, re-renders from `.stategate/`.
 */
import * as vscode from 'vscode';
import type { HostMessage, WebviewMessage } from '../../protocol.js';
import { WEBVIEW_MESSAGE_TYPES } from '../../protocol.js';
import type { RunService } from '../runtime/run-service.js';
import type { DefinitionFocus } from './definition-focus.js';
import type { FlowFocus } from './flow-focus.js';
import { historyPoint } from './history-point.js';
import { panelHtml, panelOptions } from './html.js';
import { handleAction } from './messages.js';
import { historyOf, renderModel } from './render-model.js';

const SVG_TIMEOUT_MS = 10_000;

export class PanelHost implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private nextRequest = 1;
  private readonly svgWaiters = new Map<number, (svg: string | null) => void>();
  private ready = false;

  constructor(
    readonly webview: vscode.Webview,
    private readonly service: RunService | undefined,
    extensionUri: vscode.Uri,
    /** The flow instance shown instead of the run, when one is. */
    private readonly flows?: FlowFocus,
    /** The workflow file shown instead of the run ("Show diagram" on another file), when one is. */
    private readonly definition?: DefinitionFocus,
  ) {
    webview.options = panelOptions(extensionUri);
    webview.html = panelHtml(webview, extensionUri);
    this.disposables.push(webview.onDidReceiveMessage((m: unknown) => this.receive(m)));
    if (service) this.disposables.push(service.onDidChange(() => this.render()));
    if (flows) this.disposables.push(flows.onDidChange(() => this.render()));
    if (definition) this.disposables.push(definition.onDidChange(() => this.render()));
  }

  /** Whether the webview has loaded its script and can answer (e.g. an SVG request). */
  get isReady(): boolean {
    return this.ready;
  }

  render(): void {
    if (!this.ready) return;
    const model = this.flows?.model() ?? (this.service && this.definition?.model(this.service.current)) ?? (this.service
      ? renderModel(this.service.current, this.service.journal(), Date.parse(this.service.runner.env.now()), this.service.record())
      : { kind: 'none' as const, reason: 'Open a folder to run workflows.' });
    this.post({ type: 'render', model });
  }

  /** The diagram as a standalone SVG document, or null when the webview has none. */
  requestSvg(): Promise<string | null> {
    const requestId = this.nextRequest++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => (this.svgWaiters.delete(requestId), resolve(null)), SVG_TIMEOUT_MS);
      this.svgWaiters.set(requestId, (svg) => (clearTimeout(timer), resolve(svg)));
      this.post({ type: 'requestSvg', requestId });
    });
  }

  dispose(): void {
    for (const w of this.svgWaiters.values()) w(null);
    this.svgWaiters.clear();
    for (const d of this.disposables) d.dispose();
  }

  private post(msg: HostMessage): void {
    void this.webview.postMessage(msg);
  }

  private receive(raw: unknown): void {
    const type = (raw as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || !WEBVIEW_MESSAGE_TYPES.has(type as WebviewMessage['type'])) return;
    const msg = raw as WebviewMessage;
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        void this.service?.refresh();
        this.render();
        return;
      case 'svg':
        this.svgWaiters.get(msg.requestId)?.(msg.svg);
        this.svgWaiters.delete(msg.requestId);
        return;
      case 'selectHistory': {
        const point = msg.seq === null || !this.service ? null : historyPoint(historyOf(this.service.journal()), msg.seq);
        this.post({ type: 'historyPoint', point });
        return;
      }
      case 'closeFlow':
        this.flows?.clear();
        return;
      case 'closeDefinition':
        this.definition?.clear();
        return;
      default:
        // While a flow instance is shown, a click on a state opens it in the flow file; the run's actions don't apply.
        if (this.flows?.instance !== undefined) {
          if (msg.type === 'openState') void this.flows.openState(msg.state);
          return;
        }
        // While a file's definition is shown, a click on a state opens it in that file.
        if (this.definition?.file !== undefined && msg.type === 'openState') return void this.definition.openState(msg.state);
        if (this.service) void handleAction(this.service, msg);
    }
  }
}
