/**
 * Code lenses: "▶ Start run" (command `stategate.startRun` with the file's
 * URI), "◈ Show diagram" when a `stategate.showPanel` command exists, and per
 * state "↘ n in · m out", which opens the state's references.
 */
import * as vscode from 'vscode';
import { chartLenses, chartReferences, codeLenses, flowLenses, flowReferences, type Lens, referencesAt } from '../../engine/index.js';
import type { Analysis, WorkflowDocuments } from './documents.js';
import { locationOf, toRange } from './locations.js';

export const START_RUN_COMMAND = 'stategate.startRun';
export const SHOW_PANEL_COMMAND = 'stategate.showPanel';
/** Runs a flow file; its argument is the file's Uri (registered by the flow runner's part of the extension). */
export const RUN_FLOW_COMMAND = 'stategate.runFlow';

export class WorkflowLensProvider implements vscode.CodeLensProvider {
  constructor(private readonly docs: WorkflowDocuments) {}

  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[] | undefined> {
    const analysis = this.docs.analyze(doc);
    if (!analysis?.workflow) return undefined;
    // The panel may be registered by another part of the extension, later than us: ask each time.
    const diagram = (await vscode.commands.getCommands(true)).includes(SHOW_PANEL_COMMAND);
    const lenses =
      analysis.format === 'statechart' ? chartLenses(analysis, { diagram }) : analysis.format === 'flow' ? flowLenses(analysis) : codeLenses(analysis.workflow, { diagram });
    return lenses.map((l) => new vscode.CodeLens(toRange(doc, l.loc), this.command(doc, analysis, l)));
  }

  private command(doc: vscode.TextDocument, analysis: Analysis, lens: Lens): vscode.Command {
    switch (lens.action.kind) {
      case 'start-run':
        return { title: lens.title, command: START_RUN_COMMAND, arguments: [doc.uri] };
      case 'run-flow':
        return { title: lens.title, command: RUN_FLOW_COMMAND, arguments: [doc.uri] };
      case 'show-diagram':
        return { title: lens.title, command: SHOW_PANEL_COMMAND, arguments: [doc.uri] };
      case 'references': {
        const wf = analysis.workflow;
        const refs =
          analysis.format === 'statechart'
            ? chartReferences(analysis, lens.loc.start, false).map((loc) => ({ loc }))
            : analysis.format === 'flow'
              ? flowReferences(analysis, lens.loc.start, false).map((loc) => ({ loc }))
            : wf
              ? referencesAt(wf, lens.loc.start, false, { text: analysis.text })
              : [];
        return {
          title: lens.title,
          command: 'editor.action.showReferences',
          arguments: [doc.uri, doc.positionAt(lens.loc.start), refs.map((t) => locationOf(doc, t))],
        };
      }
    }
  }
}
