/** Rename a state or guard (a flow's state or variable) and every reference to it in the file. */
import { ErrorCodes, ResponseError, type Range, type WorkspaceEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { chartPrepare, chartRename, flowPrepare, flowRename, prepareRename, renameAt } from '../engine/index.js';
import type { ServerContext } from './context.js';
import { toRange } from './locations.js';

/** Why a rename cannot happen here, as an error the editor shows to the person. */
function refused(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidRequest, message);
}

export function prepare(ctx: ServerContext, doc: TextDocument, offset: number): { range: Range; placeholder: string } | null {
  const analysis = ctx.docs.analyze(doc);
  if (!analysis?.workflow) return null;
  const r = analysis.format === 'statechart' ? chartPrepare(analysis, offset) : analysis.format === 'flow' ? flowPrepare(analysis, offset) : prepareRename(analysis.text, analysis.workflow, offset);
  if ('error' in r) throw refused(r.error);
  return { range: toRange(doc, r.loc), placeholder: r.placeholder };
}

export function rename(ctx: ServerContext, doc: TextDocument, offset: number, newName: string): WorkspaceEdit | null {
  const analysis = ctx.docs.analyze(doc);
  if (!analysis?.workflow) return null;
  const r =
    analysis.format === 'statechart'
      ? chartRename(analysis, offset, newName)
      : analysis.format === 'flow'
        ? flowRename(analysis, offset, newName)
        : renameAt(analysis.text, analysis.workflow, offset, newName);
  if ('error' in r) throw refused(r.error);
  return { changes: { [doc.uri]: r.edits.map((e) => ({ range: toRange(doc, e), newText: e.newText })) } };
}
