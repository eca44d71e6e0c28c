/**
 * Rename a state or a variable with every reference: a state's key,
 * `start-at`, `next`, `on-error` and `goto` targets, parallel state tasks and
 * the `<state>` of `{{ <state>::<var> }}`; a variable's `variables` key, each
 * `output: var(NAME)` and each `{{ NAME }}`. Refused, with the reason, when
 * the new name is reserved (`/`, a leading `_`), not a plain name, or taken.
 */
import type { SourceLoc } from '../../model/index.js';
import { VARIABLE_NAME } from '../../formats/flow-fields.js';
import type { TextEdit } from '../edits.js';
import { definesVariable, flowOccurrenceAt, sameFlowSymbol, type FlowModel, type FlowOccurrence } from './occurrences.js';

export type FlowRenameResult = { readonly edits: TextEdit[] } | { readonly error: string };
export type FlowPrepareResult = { readonly loc: SourceLoc; readonly placeholder: string } | { readonly error: string };

/** YAML reads these plain words as something other than a string. */
const YAML_WORD = /^(true|false|null|yes|no|on|off|y|n)$/i;

export function flowPrepareRename(m: FlowModel, offset: number): FlowPrepareResult {
  const hit = renameable(m, offset);
  return 'error' in hit ? hit : { loc: hit.loc, placeholder: hit.name };
}

export function flowRenameAt(m: FlowModel, offset: number, newName: string): FlowRenameResult {
  const hit = renameable(m, offset);
  if ('error' in hit) return hit;
  if (newName === hit.name) return { edits: [] };
  const what = hit.kind === 'state' ? 'state' : 'variable';
  if (newName.includes('/') || newName.startsWith('_')) {
    return { error: `\`${newName}\` is reserved: names with \`/\` (sub-flow state paths) or a leading \`_\` are kept for stategate. Choose another ${what} name.` };
  }
  if (!VARIABLE_NAME.test(newName) || YAML_WORD.test(newName)) {
    return { error: `A ${what} name is letters, digits, \`_\` and \`-\`, starting with a letter, and not a YAML word such as \`true\` (\`${newName}\` is not).` };
  }
  const taken = hit.kind === 'state' ? m.wf.states.has(newName) || !!m.wf.skippedStates?.has(newName) : m.all.some((o) => o.kind === 'variable' && o.name === newName);
  if (taken) return { error: `The flow already has a ${what} named \`${newName}\`.` };
  return { edits: sameFlowSymbol(m, hit).map((o) => ({ start: o.loc.start, end: o.loc.end, newText: newName })) };
}

function renameable(m: FlowModel, offset: number): FlowOccurrence | { error: string } {
  const hit = flowOccurrenceAt(m, offset);
  if (!hit || hit.kind === 'tool') return { error: 'Only states and variables can be renamed here.' };
  if (hit.kind === 'variable' && hit.name.includes('::')) return { error: `\`${hit.name}\` is set by the sub-flow's own file: rename it there.` };
  // A name with no definition is a broken reference: renaming "all of them" would only move the error.
  const defined = hit.kind === 'state' ? m.wf.states.has(hit.name) : definesVariable(m, hit.name);
  if (!defined) return { error: `${hit.kind === 'state' ? 'State' : 'Variable'} \`${hit.name}\` is not defined in this flow; correct the reference instead.` };
  return hit;
}
