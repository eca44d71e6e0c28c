/**
 * Rename a state (a region's id included) or a named action, with every
 * reference: each `target` step, `initial`, dotted and `#` paths, entry/exit
 * and transition `actions`. A state rename is refused when it would change
 * what any target means (the nearest-in-scope rule could then find another
 * state, or lose this one): the chart is reloaded with the edits and every
 * target is resolved again with the interpreter's resolution function.
 */
import { loadWorkflowText } from '../../formats/index.js';
import type { SourceLoc, Workflow } from '../../model/index.js';
import { resolveTarget } from '../../statechart/targets.js';
import { targetSites } from '../../check/chart-targets.js';
import { indexChart } from '../../check/chart-walk.js';
import { applyEdits, type TextEdit } from '../edits.js';
import { chartOccurrenceAt, sameChartSymbol, type ChartModel, type ChartOccurrence } from './occurrences.js';

export type ChartRenameResult = { readonly edits: TextEdit[] } | { readonly error: string };
export type ChartPrepareResult = { readonly loc: SourceLoc; readonly placeholder: string } | { readonly error: string };

/** Names that read the same in YAML and JSON without quoting or escaping, and hold no `.` (a path separator). */
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function chartPrepareRename(m: ChartModel, offset: number): ChartPrepareResult {
  const hit = renameable(m, offset);
  if ('error' in hit) return hit;
  return { loc: hit.loc, placeholder: hit.kind === 'state' ? (m.wf.states.get(hit.name)?.key ?? hit.name) : hit.name };
}

export function chartRenameAt(m: ChartModel, text: string, file: string | undefined, offset: number, newName: string): ChartRenameResult {
  const hit = renameable(m, offset);
  if ('error' in hit) return hit;
  const wf = m.wf;
  const what = hit.kind === 'state' ? 'state' : 'action';
  if (!NAME.test(newName)) return { error: `A ${what} name is letters, digits, \`_\` and \`-\`, starting with a letter or \`_\` (\`${newName}\` is not).` };
  const edits = sameChartSymbol(m, hit).map((o) => ({ start: o.loc.start, end: o.loc.end, newText: newName }));
  if (hit.kind === 'action') {
    if (newName === hit.name) return { edits: [] };
    if (wf.chart?.actions.has(newName) || wf.chart?.skippedActions?.has(newName)) return { error: `An action named \`${newName}\` already exists.` };
    return { edits };
  }
  const state = wf.states.get(hit.name);
  if (!state || newName === state.key) return { edits: [] };
  const newId = state.parent === undefined ? newName : `${state.parent}.${newName}`;
  if (wf.states.has(newId)) return { error: `\`${state.parent ?? 'The chart'}\` already has a state \`${newName}\`.` };
  const problem = changesResolution(wf, text, file, edits, state.id, newId);
  return problem ? { error: problem } : { edits };
}

function renameable(m: ChartModel, offset: number): ChartOccurrence | { error: string } {
  const hit = chartOccurrenceAt(m, offset);
  if (!hit || hit.kind === 'context') return { error: 'Only states, regions and named actions can be renamed here.' };
  return hit;
}

/** Why the renamed chart would resolve some target differently, or undefined when every target keeps its state. */
function changesResolution(wf: Workflow, text: string, file: string | undefined, edits: readonly TextEdit[], oldId: string, newId: string): string | undefined {
  const renamed = loadWorkflowText(applyEdits(text, edits), file).workflow;
  if (!renamed) return 'The chart would not load after this rename.';
  const moved = (id: string | undefined): string | undefined =>
    id === undefined ? undefined : id === oldId ? newId : id.startsWith(`${oldId}.`) ? newId + id.slice(oldId.length) : id;
  const before = targetSites(indexChart(wf));
  const after = targetSites(indexChart(renamed));
  if (before.length !== after.length) return 'The chart would read differently after this rename.';
  for (let i = 0; i < before.length; i++) {
    const b = before[i]!;
    const a = after[i]!;
    const expected = moved(resolveTarget(wf, b.source, b.ref));
    const found = resolveTarget(renamed, a.source, a.ref);
    if (expected !== found) {
      const was = expected === undefined ? 'reaches no state' : `reaches \`${expected}\``;
      const would = found === undefined ? 'reach no state' : `reach \`${found}\``;
      return `Renaming would change what target \`${b.ref.name}\` of ${b.label} means: it ${was} now and would ${would} (the nearest state with a name wins). Choose another name.`;
    }
  }
  return undefined;
}
