/**
 * The counters a call's limits are checked against and counted in.
 *
 * A flat run (and a fork branch or a child run) has one set per position,
 * reset on every state change. A statechart run counts each limit in force
 * (the innermost level that sets it, effective-rules.ts) in the node that
 * declares it: `run.nodeCounters[nodeId]`, which chart-run.ts drops when that
 * node is exited, so a limit on a phase covers all of its children and starts
 * again the next time the phase is entered. The position's own counters still
 * count every call on a statechart run: they are the `usage` the state view
 * shows (since the configuration last changed), never a limit.
 */
import type { NodeCounters, Position, RunSnapshot } from '../machine/run.js';
import type { LimitKey } from './effective-rules.js';

export interface CallCounters {
  /** What the limit `key` is checked against. */
  read(key: LimitKey): Readonly<NodeCounters>;
  /** Counts an allowed call: one iteration, its edit lines, the files it edits for the first time. */
  countCall(editLines: number, newFiles: readonly string[]): void;
  /** Adds a result's bytes (for context_budget_bytes). */
  addBytes(bytes: number): void;
}

const ZERO: Readonly<NodeCounters> = Object.freeze({ iterations: 0, filesEdited: [], editLines: 0, bytesRead: 0 });

/**
 * The counters of a call decided at `position` of `run` (the policy's own
 * copy: counting changes it in place). `owners` is the node each limit in
 * force counts in, on a statechart run; undefined on a flat run.
 */
export function callCounters(run: RunSnapshot, position: Position, owners: Partial<Record<LimitKey, string>> | undefined): CallCounters {
  const c = position.counters;
  const existing = (key: LimitKey): NodeCounters | undefined => {
    const id = owners?.[key];
    const all = run.nodeCounters;
    return id !== undefined && all && Object.prototype.hasOwnProperty.call(all, id) ? all[id] : undefined;
  };
  const owned = (key: LimitKey): NodeCounters | undefined => {
    const id = owners?.[key];
    if (id === undefined) return undefined;
    const found = existing(key);
    if (found) return found;
    const fresh: NodeCounters = { iterations: 0, filesEdited: [], editLines: 0, bytesRead: 0 };
    // defineProperty: a node id is the chart author's text, and `__proto__` must stay a plain key.
    Object.defineProperty((run.nodeCounters ??= {}), id, { value: fresh, enumerable: true, writable: true, configurable: true });
    return fresh;
  };
  return {
    read: (key) => (owners ? (existing(key) ?? ZERO) : c),
    countCall(editLines, newFiles) {
      c.iterations++;
      c.stepsTotal++;
      c.editLines += editLines;
      for (const f of newFiles) if (!c.filesEdited.includes(f)) c.filesEdited.push(f);
      if (!owners) return;
      const iterations = owned('maxIterations');
      if (iterations) iterations.iterations++;
      const lines = editLines ? owned('maxEditLines') : undefined;
      if (lines) lines.editLines += editLines;
      const files = newFiles.length ? owned('maxFilesPerState') : undefined;
      if (files) files.filesEdited.push(...newFiles);
    },
    addBytes(bytes) {
      c.bytesRead += bytes;
      const budget = bytes && owners ? owned('contextBudgetBytes') : undefined;
      if (budget) budget.bytesRead += bytes;
    },
  };
}
