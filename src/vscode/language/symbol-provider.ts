/** The outline: states with their events, guards, interrupts. */
import * as vscode from 'vscode';
import { chartOutline, documentSymbols, flowOutline, type OutlineKind, type OutlineSymbol } from '../../engine/index.js';
import type { WorkflowDocuments } from './documents.js';
import { toRange } from './locations.js';

const KIND: Record<OutlineKind, vscode.SymbolKind> = {
  state: vscode.SymbolKind.Class,
  'final-state': vscode.SymbolKind.Struct,
  event: vscode.SymbolKind.Event,
  guard: vscode.SymbolKind.Boolean,
  interrupt: vscode.SymbolKind.Interface,
  'parallel-state': vscode.SymbolKind.Namespace,
  region: vscode.SymbolKind.Package,
  'history-state': vscode.SymbolKind.Key,
  action: vscode.SymbolKind.Function,
};

export class WorkflowSymbolProvider implements vscode.DocumentSymbolProvider {
  constructor(private readonly docs: WorkflowDocuments) {}

  provideDocumentSymbols(doc: vscode.TextDocument): vscode.DocumentSymbol[] | undefined {
    const analysis = this.docs.analyze(doc);
    const wf = analysis?.workflow;
    if (!analysis || !wf) return undefined;
    const convert = (s: OutlineSymbol): vscode.DocumentSymbol => {
      const symbol = new vscode.DocumentSymbol(s.name, s.detail, KIND[s.kind], toRange(doc, s.range), toRange(doc, s.selection));
      symbol.children = s.children.map(convert);
      return symbol;
    };
    const symbols = analysis.format === 'statechart' ? chartOutline(analysis) : analysis.format === 'flow' ? flowOutline(analysis) : documentSymbols(wf);
    return symbols.map(convert);
  }
}
