/**
 * Interrupts: which interrupt a changed file fires, the "handler region" an
 * active interrupt stays in, and firing one at a position.
 *
 * Matching: workspace-relative paths with `/` separators, picomatch with
 * `dot: true`; the first matching interrupt in definition order wins. A path
 * that is absolute or climbs out of the workspace (`../`) never matches (the
 * caller makes hook paths relative first). Matchers are compiled once per
 * workflow IR object, and picomatch itself loads on the first match (a hook
 * process deciding a Read never matches a path, so it never loads it).
 *
 * Handler region: a handler may span several states (`checking -> fixing ->
 * $return`). The interrupt stays active while the position is in a state
 * from which a `$return` transition can still be reached; a transition into
 * any other state "leaves the handler" and ends the interrupt (docs/format.md:
 * leaving the handler by any other transition also ends it). For a one-state
 * handler this is exactly "any transition but `$return` ends it".
 */
import type { InterruptDef, Workflow } from '../../model/index.js';
import { handlerRegion } from './handler-region.js';
import type { Loc, Op } from '../cursor.js';
import { afterMove, enterState } from '../progress.js';

type Matcher = (path: string) => boolean;

const matcherCache = new WeakMap<Workflow, readonly Matcher[]>();

function matchers(wf: Workflow): readonly Matcher[] {
  let m = matcherCache.get(wf);
  if (!m) {
    const picomatch = wf.interrupts.length ? (require('picomatch') as typeof import('picomatch')) : undefined;
    m = wf.interrupts.map((i) => {
      try {
        return picomatch!(i.filePattern, { dot: true });
      } catch {
        // A pattern picomatch cannot compile never matches (validation reports it).
        return () => false;
      }
    });
    matcherCache.set(wf, m);
  }
  return m;
}

/** `a\\b.ts` -> `a/b.ts`, `./a` -> `a`; undefined for absolute or escaping paths. */
export function normaliseRelPath(path: string): string | undefined {
  let p = path.replace(/\\/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  if (p === '' || p.startsWith('/') || /^[A-Za-z]:/.test(p)) return undefined;
  if (p.split('/').includes('..')) return undefined;
  return p;
}

/** The first interrupt (definition order) whose pattern matches the path. */
export function matchInterrupt(wf: Workflow, path: string): InterruptDef | undefined {
  const rel = normaliseRelPath(path);
  if (rel === undefined) return undefined;
  const m = matchers(wf);
  return wf.interrupts.find((_, i) => m[i]?.(rel) === true);
}

export type FireResult =
  | { fired: true; name: string; from: string; to: string; withdrew?: string }
  | { fired: false; name: string; reason: 'final_state' | 'interrupt_active' | 'already_in_handler' };

/**
 * Fires `def` at `loc` unless the state is final, an interrupt is already
 * active there (no nesting), or the position already stands in the handler
 * state (re-entry suppression: a second save of the same file while handling
 * it does not fire again). A parked approval is withdrawn first: the state it
 * was asked from is no longer current.
 */
export function fireInterrupt(op: Op, loc: Loc, wf: Workflow, def: InterruptDef, file?: string): FireResult {
  const pos = op.position(loc);
  if (wf.states.get(pos.state)?.kind === 'final') return { fired: false, name: def.name, reason: 'final_state' };
  if (pos.interrupt) return { fired: false, name: def.name, reason: 'interrupt_active' };
  if (pos.state === def.target.name) return { fired: false, name: def.name, reason: 'already_in_handler' };
  let withdrew: string | undefined;
  const pending = pos.pendingApproval;
  if (pending) {
    delete pos.pendingApproval;
    withdrew = pending.event;
    op.log(loc, {
      kind: 'approval_withdrawn',
      event: pending.event,
      from: pending.from,
      target: pending.target,
      reason: `interrupt "${def.name}" fired`,
    });
  }
  const from = pos.state;
  pos.interrupt = { name: def.name, returnTo: from, target: def.target.name, ...(file === undefined ? {} : { file }), firedAt: op.at };
  enterState(op, loc, from, `interrupt:${def.name}`, def.target.name);
  op.countTransition(loc);
  op.log(loc, { kind: 'interrupt', name: def.name, from, to: def.target.name, ...(file === undefined ? {} : { file }) });
  afterMove(op, loc, wf);
  return { fired: true, name: def.name, from, to: def.target.name, ...(withdrew === undefined ? {} : { withdrew }) };
}
