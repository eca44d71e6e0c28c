/**
 * A compact lookup table per workflow IR, built once (WeakMap by the IR
 * object) and used by `sendEvent` for the common transition: a state's
 * event whose transition is "plain" (simple or guarded with no guards, a
 * named target that exists, no approval). Such a transition resolves to the
 * same move whatever the run's context is, so the table holds that move
 * ready: the event and the settled target (`settle`).
 *
 * It exists because the IR is large (source locations, rules) and spread
 * over the heap: on a 1000-state workflow, reaching a state's transition and
 * its target through the IR cost several cache misses per transition. Every
 * other transition (guards, `$return`, approvals, branched, invoke, fork,
 * unknown events, `safe_next`) is resolved by `resolveEvent` as before; the
 * table only says which transitions are plain and where they go.
 */
import type { StateNode, Workflow } from '../model/index.js';
import { RETURN_TARGET } from '../model/index.js';
import { settle } from './progress.js';

/** A plain transition of a state, resolved. */
export interface PlainMove {
  /** The transition's event (as written in the IR). */
  readonly event: string;
  /** The settled target (a compound target is entered through its initial leaf). */
  readonly to: string;
}

export interface StateEntry {
  readonly node: StateNode;
  readonly final: boolean;
  /**
   * For each event of the state (first definition wins, as `resolveEvent`
   * finds it), in definition order: the plain move, or undefined when that
   * event's transition needs the general resolution.
   */
  readonly events: readonly string[];
  readonly moves: readonly (PlainMove | undefined)[];
}

const tables = new WeakMap<Workflow, Map<string, StateEntry>>();

/** The table of `wf` (state name to entry), built on first use. */
export function stateTable(wf: Workflow): Map<string, StateEntry> {
  let table = tables.get(wf);
  if (!table) {
    table = buildTable(wf);
    tables.set(wf, table);
  }
  return table;
}

/** The plain move `event` selects in `entry`, if the state's transition for it is plain. */
export function plainMove(entry: StateEntry, event: string): PlainMove | undefined {
  const events = entry.events;
  for (let i = 0; i < events.length; i++) if (events[i] === event) return entry.moves[i];
  return undefined;
}

function buildTable(wf: Workflow): Map<string, StateEntry> {
  const table = new Map<string, StateEntry>();
  // One string object per distinct event name, so a state's events are compared against a few hot strings.
  const interned = new Map<string, string>();
  const intern = (s: string): string => {
    const hit = interned.get(s);
    if (hit !== undefined) return hit;
    interned.set(s, s);
    return s;
  };
  for (const [name, node] of wf.states) {
    const events: string[] = [];
    const moves: (PlainMove | undefined)[] = [];
    for (const t of node.on) {
      if (events.includes(t.event)) continue;
      events.push(intern(t.event));
      let move: PlainMove | undefined;
      if ((t.kind === 'simple' || t.kind === 'guarded') && t.guards.length === 0 && !t.requiresApproval) {
        const target = t.target.name;
        if (target !== RETURN_TARGET && wf.states.has(target)) {
          move = { event: t.event, to: settle(wf, target) };
        }
      }
      moves.push(move);
    }
    table.set(name, { node, final: node.kind === 'final', events, moves });
  }
  return table;
}
