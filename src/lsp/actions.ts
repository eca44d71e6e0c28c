/** Quick fixes for stategate's diagnostics (create / rename / define / add final / remove unreachable). */
import { CodeActionKind, type CodeAction, type Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { chartFixes, flowFixes, quickFixes } from '../engine/index.js';
import type { ServerContext } from './context.js';
import { toRange } from './locations.js';

export function codeActions(ctx: ServerContext, doc: TextDocument, shown: readonly LspDiagnostic[]): CodeAction[] | null {
  const analysis = ctx.docs.analyze(doc);
  if (!analysis) return null;
  const actions: CodeAction[] = [];
  for (const diagnostic of shown) {
    if (diagnostic.source !== 'stategate') continue;
    // Match the editor's diagnostic back to the engine's (which carries `data`) by code and range.
    const d = analysis.diagnostics.find((x) => x.code === diagnostic.code && sameRange(toRange(doc, x.loc), diagnostic.range));
    if (!d) continue;
    const fixes = analysis.format === 'statechart' ? chartFixes(analysis, d) : analysis.format === 'flow' ? flowFixes(analysis, d) : quickFixes(analysis.text, analysis.workflow, d);
    for (const fix of fixes) {
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: fix.preferred ?? false,
        edit: { changes: { [doc.uri]: fix.edits.map((e) => ({ range: toRange(doc, e), newText: e.newText })) } },
      });
    }
  }
  return actions;
}

function sameRange(a: LspDiagnostic['range'], b: LspDiagnostic['range']): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
