/**
 * Rebuilds a run's top-level state, context, status and transition count from
 * its journal alone. Each entry carries what it changed: transitions their
 * merged data, forks and invokes the data merged when they started, joins and
 * child returns the patch merged into the frame, force its patch, and any
 * entry that changed the run's status the new status. Entries of nested
 * frames and branches (those with a `scope`) only count as transitions. The
 * evidence of the current state (machine/evidence.ts) is rebuilt from the
 * tool_result entries since the state was last entered.
 */
import type { JsonObject } from '../model/index.js';
import { cloneJson, mergeShallow } from '../model/json-value.js';
import type { JournalEntry, RunStatus } from '../machine/run.js';
import { countTransitions } from '../statechart/effects.js';
import { noteEvidence, type Evidence } from '../machine/evidence.js';
import { anyExit } from '../machine/chart-run.js';
import { isOwnTool } from '../agent/tools.js';

export interface Replayed {
  state: string;
  context: JsonObject;
  status: RunStatus;
  /** Equals the snapshot's `counters.transitions`. */
  transitions: number;
  /** Equals the snapshot's `counters.evidence` (absent: none observed since the state was entered). */
  evidence?: Evidence;
  /** A statechart run: equals the snapshot's `chartEnv`, the variables captured when it started (machine/chart-env.ts). */
  chartEnv?: Record<string, string | null>;
}

/** The entry kinds `counters.transitions` counts, at every level of the run. */
const COUNTED: ReadonlySet<JournalEntry['kind']> = new Set(['transition', 'interrupt', 'join', 'child_done']);

export function replay(entries: readonly JournalEntry[]): Replayed {
  let state = '';
  let context: JsonObject = {};
  let status: RunStatus = 'running';
  let transitions = 0;
  let evidence: Evidence | undefined;
  let chartEnv: Record<string, string | null> | undefined;
  for (const e of entries) {
    if (COUNTED.has(e.kind)) transitions++;
    if (e.scope === undefined) {
      switch (e.kind) {
        case 'start':
          state = e.state;
          context = cloneJson(e.context);
          transitions = 0;
          evidence = undefined;
          chartEnv = e.env ? { ...e.env } : undefined;
          break;
        case 'transition':
          context = mergeShallow(context, e.data);
          state = e.to;
          evidence = undefined;
          break;
        case 'interrupt':
          state = e.to;
          evidence = undefined;
          break;
        case 'fork_start':
        case 'invoke_start':
          context = mergeShallow(context, e.data);
          break;
        case 'join':
        case 'child_done':
          context = mergeShallow(context, e.patch);
          if (e.to !== undefined) {
            state = e.to;
            evidence = undefined;
          }
          break;
        case 'chart':
          // A statechart operation: its entry carries the state and context it left.
          context = cloneJson(e.context);
          state = e.state;
          transitions += countTransitions(e.effects);
          if (anyExit(e.effects)) evidence = undefined;
          break;
        case 'force':
          context = mergeShallow(context, e.patch);
          state = e.to;
          evidence = undefined;
          break;
        case 'tool_result':
          // What record() kept as evidence of the call (policy/decide.ts): the same facts, in the same order.
          if (!isOwnTool(e.tool)) {
            const outcome = { ...(e.ok !== undefined ? { ok: e.ok } : {}), ...(e.exit_code !== undefined ? { exitCode: e.exit_code } : {}) };
            evidence = noteEvidence(evidence, { tool: e.tool, files: e.files ?? (e.file !== undefined ? [e.file] : []), ...(e.command !== undefined ? { command: e.command } : {}), ...(Object.keys(outcome).length ? { outcome } : {}) });
          }
          break;
        default:
          break;
      }
    }
    if (e.scope === undefined && e.status !== undefined) status = e.status;
  }
  return { state, context, status, transitions, ...(evidence ? { evidence } : {}), ...(chartEnv ? { chartEnv } : {}) };
}
