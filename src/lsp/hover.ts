/** Hovers: state summaries, guard predicates, events, invoked workflows, field docs from the schema. */
import { MarkupKind, type Hover } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { chartHover, flowHover, hoverAt } from '../engine/index.js';
import type { ServerContext } from './context.js';
import { toRange } from './locations.js';

export function hover(ctx: ServerContext, doc: TextDocument, offset: number): Hover | null {
  const analysis = ctx.docs.analyze(doc);
  if (!analysis?.workflow) return null;
  let found: { readonly markdown: string; readonly loc: { readonly start: number; readonly end: number } } | undefined;
  if (analysis.format === 'statechart') {
    found = chartHover(analysis, offset, ctx.schemas.get('statechart-schema.json'), { 'workflow-schema.json': ctx.schemas.get('workflow-schema.json') });
  } else if (analysis.format === 'flow') {
    found = flowHover(analysis, offset, ctx.schemas.get('flow-schema.json'));
  } else {
    ctx.workspace.ready();
    found = hoverAt(analysis.text, analysis.workflow, offset, { schema: ctx.schemas.get('workflow-schema.json'), resolve: ctx.workspace.resolve, file: analysis.file });
  }
  return found ? { contents: { kind: MarkupKind.Markdown, value: found.markdown }, range: toRange(doc, found.loc) } : null;
}
