/**
 * Rename a state or a guard: its definition and every reference in the file
 * (initial, targets, branches, safe_next, invoke and fork targets, interrupt
 * targets, guard/guards, meta.failure_states). Refuses names that exist or
 * that the format cannot hold.
 */
import { RETURN_TARGET, type SourceLoc, type Workflow } from '../model/index.js';
import { jsonStringContents, type TextEdit } from './edits.js';
import { symbolOccurrences, type Occurrence } from './occurrences.js';
import { symbolAt } from './symbols.js';

export type RenameResult = { readonly edits: TextEdit[] } | { readonly error: string };
export type PrepareResult = { readonly loc: SourceLoc; readonly placeholder: string } | { readonly error: string };

/** Where a rename at `offset` would apply (the name's range), or why there is none. */
export function prepareRename(text: string, wf: Workflow, offset: number): PrepareResult {
  const found = renameable(text, wf, offset);
  return 'error' in found ? found : { loc: found.loc, placeholder: found.name };
}

export function renameAt(text: string, wf: Workflow, offset: number, newName: string): RenameResult {
  const found = renameable(text, wf, offset);
  if ('error' in found) return found;
  if (newName === found.name) return { edits: [] };
  const problem = invalidName(wf, found.kind, newName);
  if (problem) return { error: problem };
  const replacement = jsonStringContents(newName);
  const edits = symbolOccurrences(wf, found, text).map((o) => ({ start: o.loc.start, end: o.loc.end, newText: replacement }));
  return { edits };
}

function renameable(text: string, wf: Workflow, offset: number): (Occurrence & { kind: 'state' | 'guard' }) | { error: string } {
  const hit = symbolAt(wf, offset, text);
  if (!hit || (hit.kind !== 'state' && hit.kind !== 'guard')) return { error: 'Only states and guards can be renamed here.' };
  // A name with no definition is a broken reference: renaming "all of them" would only move the error.
  const defined = hit.kind === 'state' ? wf.states.has(hit.name) : wf.guards.has(hit.name);
  if (!defined) return { error: `${hit.kind === 'state' ? 'State' : 'Guard'} \`${hit.name}\` is not defined; define it (quick fix) or correct the reference.` };
  return { ...hit, kind: hit.kind };
}

/** Why `name` cannot be the new name of a state / guard, or undefined when it can. */
export function invalidName(wf: Workflow, kind: 'state' | 'guard', name: string): string | undefined {
  const what = kind === 'state' ? 'state' : 'guard';
  if (name.trim() === '') return `A ${what} name cannot be empty.`;
  if (name !== name.trim()) return `A ${what} name cannot start or end with spaces.`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(name)) return `A ${what} name cannot hold control characters.`;
  if (kind === 'state') {
    if (name.startsWith('$')) return `\`${RETURN_TARGET}\` and other names starting with \`$\` are reserved.`;
    // A state's id is its path in statecharts (`processing.validating`), so a dot would read as nesting.
    if (name.includes('.')) return 'A state name cannot contain `.` (it separates nested states).';
    if (wf.states.has(name) || wf.skippedStates?.has(name)) return `A state named \`${name}\` already exists.`;
  } else if (wf.guards.has(name) || wf.skippedGuards?.has(name)) {
    return `A guard named \`${name}\` already exists.`;
  }
  return undefined;
}
