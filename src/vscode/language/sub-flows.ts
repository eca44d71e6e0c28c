/** How a flow's sub-flow files are found from the editor: under the document's workspace folder, then beside the flow. */
import * as vscode from 'vscode';
import { subFlowLoader, type LoadSubFlow } from '../../engine/index.js';

export function subFlows(doc: vscode.TextDocument, file: string): LoadSubFlow {
  const folder = doc.uri.scheme === 'file' ? vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath : undefined;
  return subFlowLoader(file, folder ? [folder] : []);
}
