/**
 * Evidence: facts stategate observed itself in the current state, which guards
 * read under `evidence` and which the agent cannot claim. Event data and
 * contexts are what the agent (or anyone) says; evidence is only ever written
 * here, from what the client's post-call hook reported (Runner.result → the
 * policy's record()), never from data sent with an event.
 *
 * What guards see (`evidence.*`):
 * - `commands[<exact command text>]`: the last run of that shell command in
 *   this state: `exit_code` when the client told it (absent when it did not:
 *   never guessed), `ok` (the client's own success or failure, absent when it
 *   said neither), `runs` (how many results it reported for that text here).
 * - `files_written`: workspace-relative paths an edit tool wrote in this state.
 * - `tools[<tool as the client names it>]`: `calls` (results reported) and
 *   `failed` (those the client reported as failed).
 *
 * It lives in the position's counters (run.ts `Counters.evidence`) and starts
 * empty whenever the state is entered, a self-transition included
 * (progress.ts `enterState`, `resetStateCounters`). The value is never changed
 * in place: each fact gives a new object, so snapshots that share it (copyRun
 * copies counters shallowly) stay as they were.
 */
import type { JsonObject, JsonValue } from '../model/index.js';
import { isJsonObject, ownValue } from '../model/json-value.js';

/** What the client said about how a call ended; absent fields: it did not say. */
export interface CallOutcome {
  /** The client reported the call as successful (true) or failed (false). */
  readonly ok?: boolean;
  /** A shell command's exit status, when the client reported one. */
  readonly exitCode?: number;
}

export interface CommandEvidence {
  exit_code?: number;
  ok?: boolean;
  runs: number;
}

export interface Evidence {
  commands: Record<string, CommandEvidence>;
  files_written: string[];
  tools: Record<string, { calls: number; failed: number }>;
}

/** One reported call, as record() sees it. */
export interface ObservedCall {
  readonly tool: string;
  /** The shell command text, for a shell tool. */
  readonly command?: string;
  /** Workspace-relative paths the call wrote (edit tools). */
  readonly files: readonly string[];
  readonly outcome?: CallOutcome;
}

/** The key under which guards read evidence; event data may not carry it (operations.ts). */
export const EVIDENCE_KEY = 'evidence';
/** Commands longer than this are not kept (a guard names a command, it does not quote a script). */
export const MAX_COMMAND_CHARS = 2000;
/** Distinct commands, tools and files kept per state: the oldest go first, so run.json stays bounded. */
const MAX_ENTRIES = 200;

export function emptyEvidence(): Evidence {
  return { commands: {}, files_written: [], tools: {} };
}

/** The evidence guards read for `counters.evidence` (a stored value that is not an object reads as none). */
export function evidenceView(stored: unknown): JsonObject {
  return (isJsonObject(stored as JsonValue) ? stored : emptyEvidence()) as unknown as JsonObject;
}

/** `evidence` with one more observed call (a new object; `evidence` is left as it was). */
export function noteEvidence(evidence: unknown, call: ObservedCall): Evidence {
  const before = evidenceView(evidence);
  const commands = recordOf(before['commands']);
  const tools = recordOf(before['tools']);
  const written = Array.isArray(before['files_written']) ? (before['files_written'] as JsonValue[]).filter((f): f is string => typeof f === 'string') : [];
  const failed = call.outcome?.ok === false || (call.outcome?.exitCode !== undefined && call.outcome.exitCode !== 0);
  const tool = recordOf(ownValue(tools, call.tool));
  const next: Evidence = {
    commands: commands as unknown as Evidence['commands'],
    files_written: written,
    tools: bounded(tools, call.tool, { calls: count(tool['calls']) + 1, failed: count(tool['failed']) + (failed ? 1 : 0) }) as unknown as Evidence['tools'],
  };
  if (call.command !== undefined && call.command.length <= MAX_COMMAND_CHARS) {
    const prior = recordOf(ownValue(commands, call.command));
    const last: CommandEvidence = { runs: count(prior['runs']) + 1 };
    if (call.outcome?.exitCode !== undefined) last.exit_code = call.outcome.exitCode;
    const ok = call.outcome?.ok ?? (call.outcome?.exitCode !== undefined ? call.outcome.exitCode === 0 : undefined);
    if (ok !== undefined) last.ok = ok;
    next.commands = bounded(commands, call.command, last as unknown as JsonObject) as unknown as Evidence['commands'];
  }
  const added = call.files.filter((f) => !written.includes(f));
  if (added.length) next.files_written = [...written, ...added].slice(-MAX_ENTRIES);
  return next;
}

function recordOf(v: JsonValue | undefined): JsonObject {
  return isJsonObject(v) ? v : {};
}

function count(v: JsonValue | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/**
 * A copy of `all` with `key` set to `value`, moved to the end (the most recent),
 * and the oldest keys dropped past MAX_ENTRIES. Keys are the agent's text
 * (a command may be `__proto__`): defined as own data properties.
 */
function bounded(all: JsonObject, key: string, value: JsonValue): JsonObject {
  const out: JsonObject = {};
  const keys = Object.keys(all).filter((k) => k !== key);
  for (const k of keys.slice(Math.max(0, keys.length - (MAX_ENTRIES - 1)))) define(out, k, all[k] as JsonValue);
  define(out, key, value);
  return out;
}

function define(o: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}
