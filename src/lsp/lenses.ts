/**
 * Code lenses: "▶ Start run" (or "▶ Run flow") with the file's URI, "◈ Show
 * diagram", and per state "↘ n in · m out", which opens the state's references.
 * Each only when the client can run its command (commands.ts).
 */
import type { CodeLens, Command } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { chartLenses, chartReferences, codeLenses, flowLenses, flowReferences, referencesAt, type Lens } from '../engine/index.js';
import { RUN_FLOW_COMMAND, SHOW_PANEL_COMMAND, SHOW_REFERENCES_COMMAND, START_RUN_COMMAND } from './commands.js';
import type { ServerContext } from './context.js';
import type { Analysis } from './documents.js';
import { locationOf, toRange } from './locations.js';

export function lenses(ctx: ServerContext, doc: TextDocument): CodeLens[] | null {
  const analysis = ctx.docs.analyze(doc);
  if (!analysis?.workflow) return null;
  const diagram = ctx.commands.has(SHOW_PANEL_COMMAND);
  const found = analysis.format === 'statechart' ? chartLenses(analysis, { diagram }) : analysis.format === 'flow' ? flowLenses(analysis) : codeLenses(analysis.workflow, { diagram });
  const out: CodeLens[] = [];
  for (const l of found) {
    const command = commandOf(ctx, doc, analysis, l);
    if (ctx.commands.has(command.command)) out.push({ range: toRange(doc, l.loc), command });
  }
  return out;
}

function commandOf(ctx: ServerContext, doc: TextDocument, analysis: Analysis, lens: Lens): Command {
  switch (lens.action.kind) {
    case 'start-run':
      return { title: lens.title, command: START_RUN_COMMAND, arguments: [doc.uri] };
    case 'run-flow':
      return { title: lens.title, command: RUN_FLOW_COMMAND, arguments: [doc.uri] };
    case 'show-diagram':
      return { title: lens.title, command: SHOW_PANEL_COMMAND, arguments: [doc.uri] };
    case 'references': {
      if (!ctx.commands.has(SHOW_REFERENCES_COMMAND)) return { title: lens.title, command: SHOW_REFERENCES_COMMAND };
      const wf = analysis.workflow;
      const refs =
        analysis.format === 'statechart'
          ? chartReferences(analysis, lens.loc.start, false).map((loc) => ({ loc }))
          : analysis.format === 'flow'
            ? flowReferences(analysis, lens.loc.start, false).map((loc) => ({ loc }))
            : wf
              ? referencesAt(wf, lens.loc.start, false, { text: analysis.text })
              : [];
      return { title: lens.title, command: SHOW_REFERENCES_COMMAND, arguments: [doc.uri, doc.positionAt(lens.loc.start), refs.map((t) => locationOf(doc, t, ctx.open))] };
    }
  }
}
