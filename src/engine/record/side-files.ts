/**
 * The two files the record's seed names beside `agent-state.json`:
 *
 * - `checkpoint.json`: the latest checkpoint's snapshot (the same content as
 *   the newest `checkpoints/checkpoint-NNN.json`), written when a checkpoint
 *   is made: at the run's start and at every state change.
 * - `locks.json`: the files each task at work has written since it began,
 *   for agents working in parallel to stay off each other's files: the run's
 *   current state, and every running branch of a parallel fork. Advisory:
 *   stategate does not refuse a write because of it (the state's rules do).
 *
 * Pure: record-file.ts writes them.
 */
import type { RunSnapshot } from '../machine/run.js';
import { AGENT_STATE_VERSION, type RecordTrack } from './types.js';

export const CHECKPOINT_FILE = 'checkpoint.json';
export const LOCKS_FILE = 'locks.json';

export interface FileLock {
  /** As the run counts it: relative to the workspace. */
  readonly file: string;
  /** The state that wrote it. */
  readonly task: string;
  /** The fork branch that holds it, for a branch's state. */
  readonly branch?: string;
  /** Since when: the state's entry (the fork's start for a branch). */
  readonly since: string;
}

export interface LocksFile {
  readonly version: typeof AGENT_STATE_VERSION;
  readonly run_id: string;
  readonly locks: readonly FileLock[];
}

/** The locks of a run as the record's change left it; none once the run has ended. */
export function locksOf(run: RunSnapshot, track: RecordTrack): LocksFile {
  const locks: FileLock[] = [];
  const ended = run.status === 'completed' || run.status === 'failed' || run.status === 'stopped';
  if (!ended) {
    for (const file of run.counters.filesEdited) locks.push({ file, task: run.state, since: track.state_entered });
    for (const b of run.fork?.branches ?? []) {
      if (b.status !== 'running') continue;
      for (const file of b.counters.filesEdited) locks.push({ file, task: b.state, branch: b.name, since: run.fork!.startedAt });
    }
  }
  return { version: AGENT_STATE_VERSION, run_id: run.runId, locks };
}
