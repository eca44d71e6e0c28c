/** Go to definition and find references, in the file and (for workflow ids) across the workspace. */
import type { Location } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { chartDefinition, chartReferences, definitionAt, flowDefinition, flowReferences, referencesAt, type NavigationOptions } from '../engine/index.js';
import type { ServerContext } from './context.js';
import type { Analysis } from './documents.js';
import { locationOf } from './locations.js';

export function definition(ctx: ServerContext, doc: TextDocument, offset: number): Location[] | null {
  const analysis = ctx.docs.analyze(doc);
  if (!analysis?.workflow) return null;
  if (analysis.format === 'statechart') return chartDefinition(analysis, offset).map((loc) => locationOf(doc, { loc }, ctx.open));
  if (analysis.format === 'flow') return flowDefinition(analysis, offset).map((loc) => locationOf(doc, { loc }, ctx.open));
  ctx.workspace.ready();
  return definitionAt(analysis.workflow, offset, options(ctx, analysis)).map((t) => locationOf(doc, t, ctx.open));
}

export function references(ctx: ServerContext, doc: TextDocument, offset: number, includeDeclaration: boolean): Location[] | null {
  const analysis = ctx.docs.analyze(doc);
  if (!analysis?.workflow) return null;
  if (analysis.format === 'statechart') return chartReferences(analysis, offset, includeDeclaration).map((loc) => locationOf(doc, { loc }, ctx.open));
  if (analysis.format === 'flow') return flowReferences(analysis, offset, includeDeclaration).map((loc) => locationOf(doc, { loc }, ctx.open));
  ctx.workspace.ready();
  return referencesAt(analysis.workflow, offset, includeDeclaration, options(ctx, analysis)).map((t) => locationOf(doc, t, ctx.open));
}

function options(ctx: ServerContext, analysis: Analysis): NavigationOptions {
  return { text: analysis.text, file: analysis.file, resolve: ctx.workspace.resolve, invocations: (id) => ctx.workspace.invocations(id) };
}
