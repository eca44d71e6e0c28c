/**
 * The agent sessions a run has seen, for the record's `active_agents`: the
 * hook notes each session id its input carries (`session_id` / `sessionId`)
 * in the active run's folder, before it asks the run, so the record written by
 * that call's commit lists the session. Only a session new to the run is
 * written (the hook's path stays a read of two small files); the record gives
 * it the time of the first change that lists it, on the run's clock.
 *
 *   runs/<id>/record-sessions.json   {"sessions": {"<session id>": {"client": "claude"}}}
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';

export const SESSIONS_FILE = 'record-sessions.json';
/** Sessions kept per run: a run that outlives many sessions keeps the newest. */
const KEEP_SESSIONS = 50;

export interface SeenSession {
  readonly id: string;
  readonly client?: string;
}

type SessionsFile = { sessions: Record<string, { client?: string }> };

function readFile(file: string): SessionsFile {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as SessionsFile;
    return v && typeof v.sessions === 'object' && v.sessions !== null && !Array.isArray(v.sessions) ? v : { sessions: {} };
  } catch {
    return { sessions: {} };
  }
}

/** The sessions noted in a run folder, oldest first. */
export function readSessions(runDir: string): SeenSession[] {
  return Object.entries(readFile(path.join(runDir, SESSIONS_FILE)).sessions).map(([id, s]) => ({ id, ...(typeof s?.client === 'string' ? { client: s.client } : {}) }));
}

/**
 * Note a hook's session id in the active run of the `.stategate` folder `storeDir`. Never throws:
 * the record is what it serves, and a hook must decide whatever happens here.
 */
export function noteSession(storeDir: string, sessionId: string | undefined, client: string): void {
  if (!sessionId || sessionId.length > 200) return;
  try {
    const runId = fs.readFileSync(path.join(storeDir, 'active'), 'utf8').trim();
    if (!/^[A-Za-z0-9._-]+$/.test(runId)) return;
    const runDir = path.join(storeDir, 'runs', runId);
    if (!fs.existsSync(runDir)) return;
    const file = path.join(runDir, SESSIONS_FILE);
    const seen = readFile(file);
    if (seen.sessions[sessionId]) return;
    const ids = Object.keys(seen.sessions);
    for (const old of ids.slice(0, Math.max(0, ids.length + 1 - KEEP_SESSIONS))) delete seen.sessions[old];
    seen.sessions[sessionId] = { client };
    writeFileAtomic(file, `${JSON.stringify(seen)}\n`, { durable: false });
  } catch {
    // no active run here, or a folder we cannot write: the record goes without this session
  }
}
