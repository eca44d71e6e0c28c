/**
 * The workflow language service: pure functions on a workflow's text and IR
 * that the language server (src/lsp/) calls. Offsets in, offsets
 * and text edits out; nothing here throws on a broken document.
 */
export { completionsAt, type CompletionItem, type CompletionKind, type CompletionOptions, type ToolName } from './completion.js';
export { definitionAt, referencesAt, type NavigationOptions, type ResolveInvoke, type Target } from './navigation.js';
export { hoverAt, type Hover, type HoverOptions } from './hover.js';
export { prepareRename, renameAt, type PrepareResult, type RenameResult } from './rename.js';
export { documentSymbols, type OutlineKind, type OutlineSymbol } from './outline.js';
export { codeLenses, type Lens, type LensAction } from './lenses.js';
export { quickFixes, type CodeFix } from './quickfix.js';
export { symbolAt, type FieldSymbol, type SymbolAt } from './symbols.js';
export { applyEdits, type TextEdit } from './edits.js';
export { occurrences, type Occurrence, type SymbolKind } from './occurrences.js';
export { toolCompletions } from './tool-names.js';
export { chartCompletions, chartDefinition, chartFixes, chartHover, chartLenses, chartOutline, chartPrepare, chartReferences, chartRename, type ChartDocument } from './chart/index.js';
export { flowCompletions, flowDefinition, flowFixes, flowHover, flowLenses, flowOutline, flowPrepare, flowReferences, flowRename, subFlowLoader, type FlowCompletionItem, type FlowDocument, type LoadSubFlow } from './flow/index.js';
