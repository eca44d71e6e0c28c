/** The outline: states with their events, guards, interrupts (a chart's regions, a flow's actions). */
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { chartOutline, documentSymbols, flowOutline, type OutlineKind, type OutlineSymbol } from '../engine/index.js';
import type { ServerContext } from './context.js';
import { toRange } from './locations.js';

const KIND: Record<OutlineKind, SymbolKind> = {
  state: SymbolKind.Class,
  'final-state': SymbolKind.Struct,
  event: SymbolKind.Event,
  guard: SymbolKind.Boolean,
  interrupt: SymbolKind.Interface,
  'parallel-state': SymbolKind.Namespace,
  region: SymbolKind.Package,
  'history-state': SymbolKind.Key,
  action: SymbolKind.Function,
};

export function symbols(ctx: ServerContext, doc: TextDocument): DocumentSymbol[] | null {
  const analysis = ctx.docs.analyze(doc);
  const wf = analysis?.workflow;
  if (!analysis || !wf) return null;
  const convert = (s: OutlineSymbol): DocumentSymbol => ({
    name: s.name,
    ...(s.detail ? { detail: s.detail } : {}),
    kind: KIND[s.kind],
    range: toRange(doc, s.range),
    selectionRange: toRange(doc, s.selection),
    children: s.children.map(convert),
  });
  const outline = analysis.format === 'statechart' ? chartOutline(analysis) : analysis.format === 'flow' ? flowOutline(analysis) : documentSymbols(wf);
  return outline.map(convert);
}
