/**
 * What is under the cursor: a state, guard, event, interrupt, fork branch or
 * workflow id (definition or reference), or a field name of the format.
 */
import type { SourceLoc, Workflow } from '../model/index.js';
import { cursorAt, pathMatches } from './cursor.js';
import { occurrenceAt, occurrences, type Occurrence } from './occurrences.js';

/** A field name of the format (`allowed_tools`, `on`, ...), with its path for the schema's docs. */
export interface FieldSymbol {
  readonly kind: 'field';
  readonly name: string;
  /** JSON path of the field below the workflow object, ending with its name. */
  readonly path: readonly (string | number)[];
  readonly loc: SourceLoc;
}

export type SymbolAt = Occurrence | FieldSymbol;

/**
 * The symbol at `offset`. With `text`, field names are found too (the IR keeps
 * values, not every key), and `meta.failure_states` entries as state references.
 */
export function symbolAt(wf: Workflow, offset: number, text?: string): SymbolAt | undefined {
  const hit = occurrenceAt(occurrences(wf), offset);
  if (hit || text === undefined) return hit;
  const cursor = cursorAt(text, offset, wf.loc.pointer === '/definition');
  const str = cursor.string;
  if (!str) return undefined;
  const loc = { pointer: '', start: str.start, end: str.end };
  if (cursor.atKey) return { kind: 'field', name: str.value, path: cursor.path, loc };
  // The IR keeps `meta` as plain values, so a failure state's entry is recognised by its path.
  if (pathMatches(cursor.path, ['meta', 'failure_states', '#'])) return { kind: 'state', name: str.value, loc, role: 'reference', slot: 'failure_states' };
  return undefined;
}
