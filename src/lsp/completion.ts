/** Completion of workflow names (states, guards, tools, events, ids, a flow's variables) on top of the JSON schema's own. */
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { chartCompletions, completionsAt, flowCompletions, subFlowLoader, toolCompletions, type CompletionKind, type FlowCompletionItem } from '../engine/index.js';
import type { ServerContext } from './context.js';
import { toRange } from './locations.js';

/** `"` opens a string where a name goes; `:` and `,` start a value or the next array item; `{` a flow's `{{ var }}`. */
export const COMPLETION_TRIGGERS = ['"', ':', ',', '.', '{'];

const KIND: Record<CompletionKind, CompletionItemKind> = {
  state: CompletionItemKind.Class,
  keyword: CompletionItemKind.Keyword,
  guard: CompletionItemKind.Function,
  tool: CompletionItemKind.Method,
  'context-field': CompletionItemKind.Field,
  event: CompletionItemKind.Event,
  workflow: CompletionItemKind.Module,
  action: CompletionItemKind.Function,
  field: CompletionItemKind.Property,
};

export function completion(ctx: ServerContext, doc: TextDocument, offset: number): CompletionItem[] | null {
  const analysis = ctx.docs.analyze(doc);
  if (!analysis) return null;
  let items: readonly FlowCompletionItem[];
  if (analysis.format === 'statechart') {
    items = chartCompletions(analysis, offset);
  } else if (analysis.format === 'flow') {
    items = flowCompletions(analysis, offset, subFlowLoader(analysis.file));
  } else {
    ctx.workspace.ready();
    items = completionsAt(analysis.text, analysis.workflow, offset, { tools: toolCompletions(), workflowIds: ctx.workspace.ids() });
  }
  return items.map((c, i) => ({
    label: c.label,
    kind: KIND[c.kind],
    textEdit: { range: toRange(doc, c.range), newText: c.insertText },
    insertTextFormat: InsertTextFormat.PlainText,
    // Editors filter against the text in the range, which includes the opening quote when there is no string yet.
    filterText: c.insertText,
    ...(c.detail ? { detail: c.detail } : {}),
    ...(c.documentation ? { documentation: { kind: MarkupKind.Markdown, value: c.documentation } } : {}),
    sortText: String(i).padStart(5, '0'), // keep the file's order (states as written)
  }));
}
