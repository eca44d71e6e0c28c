/**
 * The statechart language service: the same editor features as workflows
 * (completion, hover, definition, references, rename, outline, lenses, quick
 * fixes) on `*.statechart.yaml|yml|json`, in YAML or JSON. Each call takes the
 * document's text, its file name (which says YAML or JSON) and the chart the
 * check loaded from that text.
 */
import type { Diagnostic, SourceLoc, Workflow } from '../../model/index.js';
import type { CompletionItem } from '../completion.js';
import type { Hover } from '../hover.js';
import type { Lens } from '../lenses.js';
import type { OutlineSymbol } from '../outline.js';
import type { CodeFix } from '../quickfix.js';
import { chartCompletionsAt } from './completion.js';
import { chartHoverAt } from './hover.js';
import type { SchemaRefs } from '../schema-docs.js';
import { chartCodeLenses } from './lenses.js';
import { chartDefinitionAt, chartReferencesAt } from './navigation.js';
import { chartModel, type ChartModel } from './occurrences.js';
import { chartDocumentSymbols } from './outline.js';
import { chartQuickFixes } from './quickfix.js';
import { chartPrepareRename, chartRenameAt, type ChartPrepareResult, type ChartRenameResult } from './rename.js';
import { isJsonChart } from './tree.js';

export interface ChartDocument {
  readonly text: string;
  readonly file?: string;
  /** The chart as loaded from `text`; undefined when it does not load. */
  readonly workflow?: Workflow;
}

const model = (d: ChartDocument): ChartModel | undefined => (d.workflow ? chartModel(d.workflow, d.text, isJsonChart(d.text, d.file)) : undefined);

export const chartCompletions = (d: ChartDocument, offset: number): CompletionItem[] => chartCompletionsAt(d.text, d.workflow, offset, isJsonChart(d.text, d.file));

export function chartHover(d: ChartDocument, offset: number, schema?: unknown, refs?: SchemaRefs): Hover | undefined {
  const m = model(d);
  return m ? chartHoverAt(m, d.text, isJsonChart(d.text, d.file), offset, schema, refs) : undefined;
}

export const chartDefinition = (d: ChartDocument, offset: number): SourceLoc[] => {
  const m = model(d);
  return m ? chartDefinitionAt(m, offset) : [];
};

export const chartReferences = (d: ChartDocument, offset: number, includeDeclaration: boolean): SourceLoc[] => {
  const m = model(d);
  return m ? chartReferencesAt(m, offset, includeDeclaration) : [];
};

export function chartPrepare(d: ChartDocument, offset: number): ChartPrepareResult {
  const m = model(d);
  return m ? chartPrepareRename(m, offset) : { error: 'The chart does not load; fix its errors first.' };
}

export function chartRename(d: ChartDocument, offset: number, newName: string): ChartRenameResult {
  const m = model(d);
  return m ? chartRenameAt(m, d.text, d.file, offset, newName) : { error: 'The chart does not load; fix its errors first.' };
}

export const chartOutline = (d: ChartDocument): OutlineSymbol[] => (d.workflow ? chartDocumentSymbols(d.workflow) : []);

export function chartLenses(d: ChartDocument, options: { readonly diagram?: boolean } = {}): Lens[] {
  const m = model(d);
  return m ? chartCodeLenses(m, options) : [];
}

export function chartFixes(d: ChartDocument, diagnostic: Diagnostic): CodeFix[] {
  const m = model(d);
  return m ? chartQuickFixes(m, d.text, isJsonChart(d.text, d.file), diagnostic) : [];
}
