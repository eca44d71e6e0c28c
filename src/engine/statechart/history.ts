/**
 * History: when a state with history children is exited, each history child
 * records what was active in it (shallow: its active children; deep: its
 * active atomic descendants). Entering a history node restores the record,
 * or takes its default (domain.ts `historyDefaultTargets`) when there is none.
 */
import type { RunState } from './run-state.js';
import { isAtomicKind } from './table.js';

/** Records the history children of `exiting` (called for every state about to be exited, before any is). */
export function recordHistory(rs: RunState, exiting: number): void {
  const node = rs.node(exiting);
  if (!node.histories.length) return;
  for (const h of node.histories) {
    const deep = rs.node(h).history === 'deep';
    const states: number[] = [];
    for (let i = exiting + 1; i < node.end; i++) {
      if (!rs.active[i]) continue;
      const candidate = rs.node(i);
      if (deep ? isAtomicKind(candidate.kind) : candidate.parent === exiting) states.push(i);
    }
    rs.setHistory(h, states);
  }
  rs.historyTouched = true;
}
