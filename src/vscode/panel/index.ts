/**
 * The state panel: the activity-bar view, the same panel as an editor tab
 * (`stategate.showPanel`, restored after a window reload by a serializer),
 * and `stategate.exportSvg`, which saves the diagram exactly as the webview
 * drew it. activate() registers the view provider and the serializer with
 * stand-ins (extension.ts); this returns what they hand each webview to.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PANEL_EDITOR_TYPE, type RegisterCommand } from '../contributions.js';
import type { RunService } from '../runtime/run-service.js';
import { isChartWorkflow, type Workflow } from '../../engine/index.js';
import { FLOW_PANEL_COMMAND } from '../flows/flow-ids.js';
import { editorWorkflow } from '../runtime/editor-workflow.js';
import { chartSvg } from './chart-svg.js';
import { DefinitionFocus } from './definition-focus.js';
import { FlowFocus } from './flow-focus.js';
import { PanelHost } from './panel-host.js';
import { markWalkthroughStep } from '../walkthrough-step.js';

/** A file named by a command's argument (a URI, as the lens passes it, or a path). */
function fileArg(arg: unknown): string | undefined {
  if (arg instanceof vscode.Uri) return arg.scheme === 'file' ? arg.fsPath : undefined;
  return typeof arg === 'string' && arg !== '' ? arg : undefined;
}

/** The active run's workflow when it is a statechart run. */
function activeChart(service: RunService): Workflow | undefined {
  const s = service.current;
  return s.kind === 'active' && s.run.chart && s.workflow && isChartWorkflow(s.workflow) ? s.workflow : undefined;
}

export interface StatePanel {
  readonly view: vscode.WebviewViewProvider;
  readonly serializer: vscode.WebviewPanelSerializer;
  readonly disposables: vscode.Disposable[];
}

export function statePanel(context: vscode.ExtensionContext, service: RunService | undefined, register: RegisterCommand): StatePanel {
  const uri = context.extensionUri;
  const hosts = new Set<PanelHost>();
  let editor: vscode.WebviewPanel | undefined;
  const folder = service?.folder ?? vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  const flows = folder ? new FlowFocus(folder) : undefined;
  const definition = folder ? new DefinitionFocus(folder) : undefined;
  // Only the editor panel shows a file's definition: the side bar's view keeps showing the run.
  const attach = (webview: vscode.Webview, owner: { onDidDispose: vscode.Event<void> }, shows?: DefinitionFocus): PanelHost => {
    const host = new PanelHost(webview, service, uri, flows, shows);
    hosts.add(host);
    // However it came to show (the view, Show State Panel, a flow's run, a restored editor): the walkthrough's step is done.
    markWalkthroughStep(context.extension.id, 'watchPanel');
    owner.onDidDispose(() => (hosts.delete(host), host.dispose()));
    return host;
  };
  const adoptEditor = (panel: vscode.WebviewPanel): void => {
    editor = panel;
    panel.onDidDispose(() => (editor === panel ? ((editor = undefined), definition?.clear()) : undefined));
    attach(panel.webview, panel, definition);
  };
  const readyHost = (): PanelHost | undefined => [...hosts].find((h) => h.isReady);
  const webviewSvg = async (): Promise<string | null | undefined> => {
    // The diagram is laid out in the webview: make sure one is open and loaded.
    if (!readyHost()) await vscode.commands.executeCommand('stategate.showPanel');
    const deadline = Date.now() + 10_000;
    while (!readyHost() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    return await readyHost()?.requestSvg();
  };

  return {
    view: { resolveWebviewView: (view) => void attach(view.webview, view) },
    serializer: { deserializeWebviewPanel: async (panel) => adoptEditor(panel) },
    disposables: [
      ...(flows ? [flows] : []),
      ...(definition ? [definition] : []),
      // A Flows view row's "Show in Panel", and a flow run as it starts (flows/index.ts): the editor
      // panel shows the instance's diagram, opened beside without taking the focus from the terminal.
      register(FLOW_PANEL_COMMAND, (arg: unknown) => {
        const instance = typeof arg === 'string' ? arg : (arg as { instance?: unknown } | undefined)?.instance;
        if (!flows || typeof instance !== 'string' || instance === '') return undefined;
        definition?.clear();
        flows.show(instance);
        if (editor) return editor.reveal(undefined, true);
        adoptEditor(vscode.window.createWebviewPanel(PANEL_EDITOR_TYPE, 'stategate', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true }));
        return undefined;
      }),
      // With a file (the "Show diagram" lens): that file's diagram, the run's when the run is of it, else its definition.
      register('stategate.showPanel', async (arg?: unknown) => {
        const file = fileArg(arg);
        if (file && definition) {
          flows?.clear();
          definition.show(file, service ? await service.refresh() : { kind: 'none' });
        }
        // Asked from a file, the diagram opens beside it and the editor keeps the focus (as Markdown's preview to the side).
        const column = file ? { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true } : vscode.ViewColumn.Beside;
        // A panel in the file's own group would hide the file: it moves beside it.
        const sameGroup = file !== undefined && editor?.viewColumn !== undefined && editor.viewColumn === vscode.window.activeTextEditor?.viewColumn;
        if (editor) return editor.reveal(sameGroup ? vscode.ViewColumn.Beside : undefined, file !== undefined);
        adoptEditor(vscode.window.createWebviewPanel(PANEL_EDITOR_TYPE, 'stategate', column, { enableScripts: true }));
        return undefined;
      }),
      register('stategate.exportSvg', async (target?: unknown) => {
        // The workflow in the active editor, any format, as the CLI's export writes it; else the active run:
        // a statechart run as the CLI's export writes it, a flat workflow's diagram as the webview drew it.
        const chart = editorWorkflow()?.workflow ?? (service ? activeChart(service) : undefined);
        const svg = chart ? await chartSvg(chart) : await webviewSvg();
        if (!svg) {
          void vscode.window.showWarningMessage('stategate: no diagram to export (is a run active?)');
          return undefined;
        }
        const file = typeof target === 'string' && target ? target : (await vscode.window.showSaveDialog({
          filters: { SVG: ['svg'] },
          ...(service ? { defaultUri: vscode.Uri.joinPath(service.folder.uri, `${chart?.id ?? 'workflow'}.svg`) } : {}),
        }))?.fsPath;
        if (!file) return undefined;
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, svg);
        void vscode.window.setStatusBarMessage(`stategate: diagram saved to ${vscode.workspace.asRelativePath(file)}`, 4000);
        return file;
      }),
    ],
  };
}
