/**
 * Problems for workflow files and registry manifests, updated as you type:
 * each change is checked after a short pause (150 ms) so fast typing costs one
 * check, not one per key.
 */
import * as vscode from 'vscode';
import type { Diagnostic, RelatedInfo } from '../../engine/index.js';
import { isCheckedDocument, type WorkflowDocuments } from './documents.js';
import { locationOf, toRange } from './locations.js';

const DEBOUNCE_MS = 150;

const SEVERITY: Record<Diagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export function registerDiagnostics(context: vscode.ExtensionContext, docs: WorkflowDocuments): vscode.DiagnosticCollection {
  const collection = vscode.languages.createDiagnosticCollection('stategate');
  const timers = new Map<string, ReturnType<typeof setTimeout>>();

  const update = (doc: vscode.TextDocument): void => {
    const analysis = docs.diagnose(doc);
    if (!analysis) {
      collection.delete(doc.uri); // e.g. its `$schema` was removed
      return;
    }
    collection.set(doc.uri, analysis.diagnostics.map((d) => toVscode(doc, d)));
  };
  const schedule = (doc: vscode.TextDocument): void => {
    const key = doc.uri.toString();
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => {
      timers.delete(key);
      update(doc);
    }, DEBOUNCE_MS));
  };

  context.subscriptions.push(
    collection,
    vscode.workspace.onDidOpenTextDocument(update),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length && (isCheckedDocument(e.document) || collection.has(e.document.uri))) schedule(e.document);
    }),
    // Another file may have changed what an `invoke` resolves to, or whether a registered file loads: recheck on save.
    vscode.workspace.onDidSaveTextDocument(() => vscode.workspace.textDocuments.forEach((d) => isCheckedDocument(d) && schedule(d))),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      collection.delete(doc.uri);
      docs.forget(doc);
    }),
    { dispose: () => timers.forEach((t) => clearTimeout(t)) },
  );
  vscode.workspace.textDocuments.forEach(update);
  return collection;
}

function toVscode(doc: vscode.TextDocument, d: Diagnostic): vscode.Diagnostic {
  const out = new vscode.Diagnostic(toRange(doc, d.loc), d.message, SEVERITY[d.severity]);
  out.source = 'stategate';
  out.code = d.code;
  if (d.related?.length) out.relatedInformation = d.related.map((r) => related(doc, r));
  return out;
}

function related(doc: vscode.TextDocument, r: RelatedInfo): vscode.DiagnosticRelatedInformation {
  return new vscode.DiagnosticRelatedInformation(locationOf(doc, r), r.message);
}
