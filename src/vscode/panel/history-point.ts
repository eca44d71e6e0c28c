/**
 * Time travel in the history: the run as it was right after one journal
 * entry, rebuilt by replaying the journal's prefix (the engine's replay, so
 * the panel can never disagree with the store). Read-only by construction.
 */
import { replay } from '../../engine/index.js';
import type { HistoryEntry, HistoryPoint } from '../../protocol.js';

export function historyPoint(history: readonly HistoryEntry[], seq: number): HistoryPoint | null {
  const end = history.findIndex((e) => e.seq === seq);
  if (end < 0) return null;
  return { seq, ...replay(history.slice(0, end + 1)) };
}
