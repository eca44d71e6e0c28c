/**
 * The outline of a workflow file: its states (with their events as children),
 * then its guards and interrupts.
 */
import type { SourceLoc, Workflow } from '../model/index.js';
import { transitionTargets } from '../model/index.js';

export type OutlineKind = 'state' | 'final-state' | 'event' | 'guard' | 'interrupt' | 'parallel-state' | 'region' | 'history-state' | 'action';

export interface OutlineSymbol {
  readonly name: string;
  readonly kind: OutlineKind;
  readonly detail: string;
  /** The whole entry, key included. */
  readonly range: { readonly start: number; readonly end: number };
  /** The name (what the editor highlights and reveals). */
  readonly selection: SourceLoc;
  readonly children: readonly OutlineSymbol[];
}

/** From a key's opening quote to the end of its value: the range an entry spans. */
function entryRange(keyLoc: SourceLoc, valueLoc: SourceLoc): { start: number; end: number } {
  return { start: Math.max(0, keyLoc.start - 1), end: Math.max(keyLoc.end + 1, valueLoc.end) };
}

export function documentSymbols(wf: Workflow): OutlineSymbol[] {
  const states: OutlineSymbol[] = [...wf.states.values()].map((s) => ({
    name: s.id,
    kind: s.kind === 'final' ? 'final-state' : 'state',
    detail: [s.kind === 'final' ? 'final' : '', wf.initial.name === s.id ? 'initial' : ''].filter(Boolean).join(', '),
    range: entryRange(s.keyLoc, s.loc),
    selection: s.keyLoc,
    children: s.on.map((t) => ({
      name: t.event,
      kind: 'event',
      detail: `→ ${[...new Set(transitionTargets(t).map((r) => r.name))].join(', ')}`,
      range: entryRange(t.eventLoc, t.loc),
      selection: t.eventLoc,
      children: [],
    })),
  }));
  const guards: OutlineSymbol[] = [...wf.guards.values()].map((g) => ({
    name: g.name,
    kind: 'guard',
    detail: `${g.field} ${g.op}${g.value === undefined ? '' : ` ${JSON.stringify(g.value)}`}`,
    range: entryRange(g.keyLoc, g.loc),
    selection: g.keyLoc,
    children: [],
  }));
  const interrupts: OutlineSymbol[] = wf.interrupts.map((i) => ({
    name: i.name,
    kind: 'interrupt',
    detail: `${i.filePattern} → ${i.target.name}`,
    range: entryRange(i.nameLoc, i.loc),
    selection: i.nameLoc,
    children: [],
  }));
  return [...states, ...guards, ...interrupts];
}
