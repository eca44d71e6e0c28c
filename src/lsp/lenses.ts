/**
 * Code lenses: "▶ Start run" (or "▶ Run flow") with the file's URI, "◈ Show
 * diagram", and per state "↘ n in · m out", which opens the state's references.
 * Each only when the client can run its command (commands.ts).
 */
import type { CodeLens } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { chartLenses, chartReferences, codeLenses, flowLenses, flowReferences, referencesAt, type Lens } from '../engine/index.js';
import { RUN_FLOW_COMMAND, SHOW_PANEL_COMMAND, SHOW_REFERENCES_COMMAND, START_RUN_COMMAND } from './commands.js';
import type { ServerContext } from './context.js';
import type { Analysis } from './documents.js';
import { locationOf, toRange } from './locations.js';

/** The command each kind of lens runs. */
const COMMAND_OF: Record<Lens['action']['kind'], string> = {
  'start-run': START_RUN_COMMAND,
  'run-flow': RUN_FLOW_COMMAND,
  'show-diagram': SHOW_PANEL_COMMAND,
  references: SHOW_REFERENCES_COMMAND,
};

export function lenses(ctx: ServerContext, doc: TextDocument): CodeLens[] | null {
  const analysis = ctx.docs.analyze(doc);
  if (!analysis?.workflow) return null;
  const diagram = ctx.commands.has(SHOW_PANEL_COMMAND);
  const found = analysis.format === 'statechart' ? chartLenses(analysis, { diagram }) : analysis.format === 'flow' ? flowLenses(analysis) : codeLenses(analysis.workflow, { diagram });
  const out: CodeLens[] = [];
  for (const lens of found) {
    const command = COMMAND_OF[lens.action.kind];
    if (ctx.commands.has(command)) out.push({ range: toRange(doc, lens.loc), command: { title: lens.title, command, arguments: argumentsOf(ctx, doc, analysis, lens) } });
  }
  return out;
}

/** A file's URI for the run and diagram commands; the peek's [uri, position, locations] for a state's references. */
function argumentsOf(ctx: ServerContext, doc: TextDocument, analysis: Analysis, lens: Lens): unknown[] {
  if (lens.action.kind !== 'references') return [doc.uri];
  const wf = analysis.workflow;
  const refs =
    analysis.format === 'statechart'
      ? chartReferences(analysis, lens.loc.start, false).map((loc) => ({ loc }))
      : analysis.format === 'flow'
        ? flowReferences(analysis, lens.loc.start, false).map((loc) => ({ loc }))
        : wf
          ? referencesAt(wf, lens.loc.start, false, { text: analysis.text })
          : [];
  return [doc.uri, doc.positionAt(lens.loc.start), refs.map((t) => locationOf(doc, t, ctx.open))];
}
