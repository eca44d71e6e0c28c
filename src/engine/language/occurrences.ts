/**
 * Every named thing in a workflow file, with where it is written: state and
 * guard definitions and each reference to them, events, interrupts, fork
 * branches, the workflow id and invoked ids. Definition, references, rename,
 * hover and code lenses all read this one list, so they always agree on what
 * counts as a reference.
 */
import { RETURN_TARGET, type NameRef, type SourceLoc, type Workflow } from '../model/index.js';
import { failureStateRefs } from './text-refs.js';

export type SymbolKind = 'state' | 'guard' | 'event' | 'workflow' | 'interrupt' | 'fork-branch';

/** Where a reference sits, so hovers and messages can say what it is. */
export type Slot =
  | 'definition'
  | 'initial'
  | 'target'
  | 'branch-target'
  | 'safe_next'
  | 'on_complete'
  | 'on_fail'
  | 'fork-initial'
  | 'fork-terminal'
  | 'interrupt-target'
  | 'failure_states'
  | 'guard'
  | 'event'
  | 'invoke';

export interface Occurrence {
  readonly kind: SymbolKind;
  readonly name: string;
  readonly loc: SourceLoc;
  readonly role: 'definition' | 'reference';
  readonly slot: Slot;
  /** The state whose `on` (or `safe_next`) holds this occurrence, if any. */
  readonly owner?: string;
  /** The event of the transition holding it, if any. */
  readonly event?: string;
}

/**
 * All occurrences the IR knows the location of, in no particular order.
 * (`meta.failure_states` entries are not among them: see `symbolOccurrences`.)
 */
export function occurrences(wf: Workflow): readonly Occurrence[] {
  // Hover, lenses and completion ask for the same IR many times per edit: compute once per IR.
  const hit = cache.get(wf);
  if (hit) return hit;
  const list = collect(wf);
  cache.set(wf, list);
  return list;
}

const cache = new WeakMap<Workflow, readonly Occurrence[]>();

/**
 * Every occurrence of one symbol. With `text` (the file the workflow was loaded
 * from), a state's entries in `meta.failure_states` are included, so a rename
 * leaves nothing behind; the text is searched only for states listed there.
 */
export function symbolOccurrences(wf: Workflow, sym: Pick<Occurrence, 'kind' | 'name'>, text?: string): Occurrence[] {
  const found = sameSymbol(occurrences(wf), sym);
  if (text === undefined || sym.kind !== 'state' || !wf.meta.failureStates?.includes(sym.name)) return found;
  const listed = failureStateRefs(text, wf).filter((r) => r.name === sym.name);
  return [...found, ...listed.map((r): Occurrence => ({ kind: 'state', name: r.name, loc: r.loc, role: 'reference', slot: 'failure_states' }))];
}

function collect(wf: Workflow): Occurrence[] {
  const out: Occurrence[] = [];
  const ref = (kind: SymbolKind, r: NameRef, slot: Slot, owner?: string, event?: string): void => {
    // `$return` is a keyword, not a state; an empty name marks a missing field the loader reported.
    if (r.name === '' || (kind === 'state' && r.name === RETURN_TARGET)) return;
    out.push({ kind, name: r.name, loc: r.loc, role: 'reference', slot, ...(owner !== undefined ? { owner } : {}), ...(event !== undefined ? { event } : {}) });
  };
  const def = (kind: SymbolKind, name: string, loc: SourceLoc, owner?: string): void => {
    out.push({ kind, name, loc, role: 'definition', slot: 'definition', ...(owner !== undefined ? { owner } : {}) });
  };

  if (wf.idLoc) def('workflow', wf.id, wf.idLoc);
  ref('state', wf.initial, 'initial');
  for (const [id, state] of wf.states) {
    def('state', id, state.keyLoc);
    if (state.safeNext) ref('state', state.safeNext, 'safe_next', id);
    for (const t of state.on) {
      out.push({ kind: 'event', name: t.event, loc: t.eventLoc, role: 'definition', slot: 'event', owner: id, event: t.event });
      const at = (kind: SymbolKind, r: NameRef, slot: Slot): void => ref(kind, r, slot, id, t.event);
      switch (t.kind) {
        case 'simple':
        case 'guarded':
          at('state', t.target, 'target');
          t.guards.forEach((g) => at('guard', g, 'guard'));
          break;
        case 'branched':
          for (const b of t.branches) {
            at('state', b.target, 'branch-target');
            b.guards.forEach((g) => at('guard', g, 'guard'));
          }
          break;
        case 'invoke':
          at('workflow', t.workflow, 'invoke');
          at('state', t.onComplete, 'on_complete');
          if (t.onFail) at('state', t.onFail, 'on_fail');
          break;
        case 'fork':
          for (const b of t.branches) {
            out.push({ kind: 'fork-branch', name: b.name, loc: b.nameLoc, role: 'definition', slot: 'definition', owner: id, event: t.event });
            at('state', b.initial, 'fork-initial');
            at('state', b.terminal, 'fork-terminal');
          }
          at('state', t.onComplete, 'on_complete');
          if (t.onFail) at('state', t.onFail, 'on_fail');
          break;
      }
    }
  }
  for (const [name, guard] of wf.guards) def('guard', name, guard.keyLoc);
  for (const i of wf.interrupts) {
    def('interrupt', i.name, i.nameLoc);
    ref('state', i.target, 'interrupt-target');
  }
  return out;
}

/**
 * The occurrence at `offset`. Every occurrence is a string literal and its
 * range excludes the quotes; the quotes count too (a mouse over either one
 * hovers the name) and so does the position right after the closing quote.
 */
export function occurrenceAt(all: readonly Occurrence[], offset: number): Occurrence | undefined {
  let best: Occurrence | undefined;
  for (const o of all) {
    if (offset < o.loc.start - 1 || offset > o.loc.end + 1) continue;
    // The innermost (shortest) range wins.
    if (!best || o.loc.end - o.loc.start < best.loc.end - best.loc.start) best = o;
  }
  return best;
}

/** Every occurrence of the same symbol (same kind and name). */
export function sameSymbol(all: readonly Occurrence[], target: Pick<Occurrence, 'kind' | 'name'>): Occurrence[] {
  return all.filter((o) => o.kind === target.kind && o.name === target.name);
}
