/**
 * One decision, counted once. Several configured hooks can answer the same
 * tool call: VS Code reading both its own hook file and Claude Code's
 * settings, Copilot CLI running its own file and VS Code's, a client whose
 * hooks are set both per user and per project. Each hook is its own process
 * and asks the runner; without this, each would count the call against
 * `max_iterations` (and a result's bytes against the budget) again.
 *
 * `.stategate/recent-calls.json` keeps the calls decided (and results
 * recorded) in the last WINDOW_MS, each with its client, its call id when the
 * client sends one (`tool_use_id`), and a digest of the call (the canonical
 * tool name and its input with keys sorted, so `toolArgs` as text and
 * `tool_input` as an object digest alike). A later ask is the same call when
 * the digests match within the window and either both carry a call id and
 * the ids are equal, or they came from different clients (two clients' hooks
 * for one call). It then gets the first answer again and counts nothing.
 * Read and written only under the run store's lock (Runner.apply), so hooks
 * running in parallel see each other's entries.
 *
 * The same file feeds the state panel's "recent calls" list (which client
 * each call came from).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';

export const RECENT_CALLS_FILE = 'recent-calls.json';
/** Two hooks of one call answer within a second or two; a second call of the same command by the same client carries its own id or client. */
export const DEDUPE_WINDOW_MS = 5000;
/** How many entries the panel may show; older ones are dropped. */
const KEEP = 40;

export interface RecentCall {
  readonly kind: 'decide' | 'result';
  readonly digest: string;
  readonly callId?: string;
  readonly client?: string;
  /** The tool id as the client named it. */
  readonly tool: string;
  readonly at: number;
  readonly decision?: 'allow' | 'deny';
  readonly reason?: string;
  readonly state?: string;
  /** How many hooks answered this call (1 when only one did). */
  readonly answers: number;
}

/** `value` with every object's keys in sorted order (for digests and comparisons that ignore key order). */
export function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, stable((value as Record<string, unknown>)[k])]));
  return value;
}

/** The call's digest: canonical tool name and input, key order ignored. */
export function callDigest(canonical: string, input: unknown): string {
  return createHash('sha256').update(JSON.stringify([canonical, stable(input ?? {})])).digest('hex').slice(0, 32);
}

export function readRecentCalls(dir: string): RecentCall[] {
  try {
    const value = JSON.parse(fs.readFileSync(path.join(dir, RECENT_CALLS_FILE), 'utf8')) as unknown;
    return Array.isArray(value) ? (value.filter((e) => e && typeof e === 'object' && typeof (e as RecentCall).digest === 'string') as RecentCall[]) : [];
  } catch {
    return []; // none yet, or torn: a missing entry only means a call may count twice
  }
}

function writeRecentCalls(dir: string, list: readonly RecentCall[]): void {
  try {
    // Not durable (no fsyncs, still never half-written): a list lost to a power cut only lets a second hook
    // of a call from before it count that call again, and its two fsyncs were a tenth of a hook's Read.
    writeFileAtomic(path.join(dir, RECENT_CALLS_FILE), `${JSON.stringify(list.slice(-KEEP))}\n`, { durable: false });
  } catch {
    /* best effort: counting twice is the worst outcome */
  }
}

/** The earlier answer to this same call, if another hook already gave one. */
export function findSameCall(list: readonly RecentCall[], ask: Pick<RecentCall, 'kind' | 'digest' | 'callId' | 'client' | 'at'>): RecentCall | undefined {
  for (let i = list.length - 1; i >= 0; i--) {
    const e = list[i]!;
    if (e.kind !== ask.kind || e.digest !== ask.digest || ask.at - e.at > DEDUPE_WINDOW_MS || ask.at < e.at) continue;
    if (e.callId !== undefined && ask.callId !== undefined) {
      if (e.callId === ask.callId) return e;
      continue;
    }
    if (e.client !== undefined && ask.client !== undefined && e.client !== ask.client) return e;
  }
  return undefined;
}

/** Record an answer, or count one more hook answering an earlier one. */
export function noteCall(dir: string, entry: RecentCall, same?: RecentCall): void {
  const list = readRecentCalls(dir);
  if (same) {
    const i = list.findIndex((e) => e.digest === same.digest && e.at === same.at && e.kind === same.kind);
    if (i >= 0) list[i] = { ...list[i]!, answers: list[i]!.answers + 1, client: [list[i]!.client, entry.client].filter(Boolean).join('+') };
  } else list.push(entry);
  writeRecentCalls(dir, list);
}
