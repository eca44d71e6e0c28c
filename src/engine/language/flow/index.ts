/**
 * The flow language service: completion, hover, definition, references,
 * rename, outline, lenses and quick fixes on `*.flow.yaml|yml|json`, in YAML
 * or JSON. Each call takes the document's text, its file name (which says
 * YAML or JSON) and the flow the check loaded from that text.
 */
import type { Diagnostic, SourceLoc, Workflow } from '../../model/index.js';
import type { Hover } from '../hover.js';
import type { Lens } from '../lenses.js';
import type { OutlineSymbol } from '../outline.js';
import type { CodeFix } from '../quickfix.js';
import { isJsonChart } from '../chart/tree.js';
import { flowCompletionsAt, type FlowCompletionItem } from './completion.js';
import { flowHoverAt } from './hover.js';
import { flowCodeLenses } from './lenses.js';
import { flowModel, flowOccurrenceAt, sameFlowSymbol, type FlowModel } from './occurrences.js';
import { flowDocumentSymbols } from './outline.js';
import { flowPrepareRename, flowRenameAt, type FlowPrepareResult, type FlowRenameResult } from './rename.js';
import type { LoadSubFlow } from './sub-flows.js';
import { findFlowToolRegistry, type CustomFlowTool } from '../../formats/flow-tool-registry.js';

export { subFlowLoader, type LoadSubFlow } from './sub-flows.js';
export type { FlowCompletionItem } from './completion.js';

export interface FlowDocument {
  readonly text: string;
  readonly file?: string;
  /** The flow as loaded from `text`; undefined when it does not load. */
  readonly workflow?: Workflow;
}

const NOT_LOADED = 'The flow does not load; fix its errors first.';

const model = (d: FlowDocument): FlowModel | undefined => (d.workflow ? flowModel(d.workflow, d.text, isJsonChart(d.text, d.file)) : undefined);

/** `tools`: the custom tools to offer; default, those of the `.stategate/flow-tools.yaml` above the file. */
export const flowCompletions = (d: FlowDocument, offset: number, loadSubFlow?: LoadSubFlow, tools?: ReadonlyMap<string, CustomFlowTool>): FlowCompletionItem[] =>
  flowCompletionsAt(d.text, d.workflow, offset, isJsonChart(d.text, d.file), loadSubFlow, tools ?? registeredTools(d.file));

function registeredTools(file: string | undefined): ReadonlyMap<string, CustomFlowTool> | undefined {
  if (file === undefined) return undefined;
  const found = findFlowToolRegistry(file);
  return found.kind === 'ok' ? found.registry.tools : undefined;
}

export function flowHover(d: FlowDocument, offset: number, schema?: unknown): Hover | undefined {
  const m = model(d);
  return m ? flowHoverAt(m, offset, schema, registeredTools(d.file)) : undefined;
}

/** Where the name under the cursor is defined (a state's key; a variable's `variables` key and `var()` outputs). */
export function flowDefinition(d: FlowDocument, offset: number): SourceLoc[] {
  const m = model(d);
  const hit = m && flowOccurrenceAt(m, offset);
  return m && hit ? sameFlowSymbol(m, hit).filter((o) => o.role === 'definition').map((o) => o.loc) : [];
}

export function flowReferences(d: FlowDocument, offset: number, includeDeclaration: boolean): SourceLoc[] {
  const m = model(d);
  const hit = m && flowOccurrenceAt(m, offset);
  return m && hit ? sameFlowSymbol(m, hit).filter((o) => includeDeclaration || o.role === 'reference').map((o) => o.loc) : [];
}

export function flowPrepare(d: FlowDocument, offset: number): FlowPrepareResult {
  const m = model(d);
  return m ? flowPrepareRename(m, offset) : { error: NOT_LOADED };
}

export function flowRename(d: FlowDocument, offset: number, newName: string): FlowRenameResult {
  const m = model(d);
  return m ? flowRenameAt(m, offset, newName) : { error: NOT_LOADED };
}

export const flowOutline = (d: FlowDocument): OutlineSymbol[] => (d.workflow ? flowDocumentSymbols(d.workflow) : []);

export function flowLenses(d: FlowDocument): Lens[] {
  const m = model(d);
  return m ? flowCodeLenses(m) : [];
}

/** A misspelt tool or target (`data.closest`): change it to the closest name. */
export function flowFixes(d: FlowDocument, diagnostic: Diagnostic): CodeFix[] {
  const closest = diagnostic.data?.['closest'];
  const { start, end } = diagnostic.loc;
  if (typeof closest !== 'string' || end <= start) return [];
  return [{ title: `Change to \`${closest}\``, edits: [{ start, end, newText: closest }], preferred: true }];
}
