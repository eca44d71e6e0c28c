/**
 * The panel's history rows: one row per thing that happened. The journal keeps
 * two entries for two happenings a person sees as one, and both stay there
 * (a replay needs the statechart's first step, the audit the approval):
 * - a statechart run's `start` and the `chart` entry of its first step
 *   (entering the initial states), written together by startChartRun;
 * - an `approved` entry and the transition it lets through (`via: approved`),
 *   whose row already says "(approved)".
 * The second of each pair is left out of the rows; selecting the row that
 * stays shows the run after both (historyPoint).
 */
import type { HistoryEntry } from '../../protocol.js';

/** Whether `e` is told by the row of the entry before it (`prev`). */
export function foldedInto(prev: HistoryEntry | undefined, e: HistoryEntry): boolean {
  if (e.kind === 'chart' && e.op === 'start') return prev?.kind === 'start';
  return false;
}

/** Whether `e` is told by the row of the entry after it (`next`). */
function toldByNext(e: HistoryEntry, next: HistoryEntry | undefined): boolean {
  return e.kind === 'approved' && next?.kind === 'transition' && next.via === 'approved' && next.event === e.event;
}

/** The entries that get a row of their own, in journal order. */
export function historyRows(entries: readonly HistoryEntry[]): HistoryEntry[] {
  return entries.filter((e, i) => !foldedInto(entries[i - 1], e) && !toldByNext(e, entries[i + 1]));
}
