// In-host: the Problems stategate reports for each workflow under rules/ (one file per semantic rule).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hostTest, waitFor } from '../src/suite';

export interface ReportedDiagnostic {
  readonly code: string;
  readonly message: string;
  readonly start: [number, number];
  readonly end: [number, number];
  readonly severity: string;
}

hostTest('diagnostics', 'stategate reports Problems for every workflow under rules/', async () => {
  const uris = await vscode.workspace.findFiles('rules/*.workflow.json');
  if (uris.length === 0) throw new Error('no rules/*.workflow.json in the workspace');
  const out: Record<string, ReportedDiagnostic[]> = {};
  for (const uri of uris) {
    // Opening a document (not even showing it) is what a person does; stategate checks it on open.
    await vscode.workspace.openTextDocument(uri);
    const diags = await waitFor(`Problems for ${path.basename(uri.fsPath)}`, () => {
      const ours = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'stategate');
      return ours.length ? ours : undefined;
    }, 20_000);
    out[path.basename(uri.fsPath)] = diags.map((d) => ({
      code: String(typeof d.code === 'object' && d.code !== null ? d.code.value : d.code),
      message: d.message,
      start: [d.range.start.line, d.range.start.character],
      end: [d.range.end.line, d.range.end.character],
      severity: vscode.DiagnosticSeverity[d.severity],
    }));
  }
  return out;
});
