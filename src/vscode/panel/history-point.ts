/**
 * Time travel in the history: the run as it was right after one journal
 * entry, rebuilt by replaying the journal's prefix (the engine's replay, so
 * the panel can never disagree with the store). Read-only by construction.
 * An entry whose next entries have no row of their own (history-rows.ts: a
 * statechart's first step after its start) stands for them too: the prefix
 * takes them in.
 */
import { replay } from '../../engine/index.js';
import type { HistoryEntry, HistoryPoint } from '../../protocol.js';
import { foldedInto } from './history-rows.js';

export function historyPoint(history: readonly HistoryEntry[], seq: number): HistoryPoint | null {
  let end = history.findIndex((e) => e.seq === seq);
  if (end < 0) return null;
  while (end + 1 < history.length && foldedInto(history[end], history[end + 1]!)) end++;
  return { seq, ...replay(history.slice(0, end + 1)) };
}
