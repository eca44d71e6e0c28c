/**
 * One briefing per first prompt. Both clients fire SessionStart and then, for
 * the first prompt, UserPromptSubmit; each injects the state briefing, so the
 * model read the same text twice. SessionStart leaves a one-shot marker with
 * the text it gave; the session's next UserPromptSubmit skips the briefing
 * when the text is still the same (nothing moved in between) and removes the
 * marker, so every later prompt is briefed again.
 *
 * Markers are best effort: when one cannot be written or read the briefing is
 * simply given (twice at worst), never withheld because of a file error.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Markers older than this belong to sessions that never prompted. */
const STALE_MS = 24 * 60 * 60 * 1000;

function markerPath(dir: string, sessionId: string): string {
  // Session ids are client-chosen: keep the file name to a safe alphabet and length.
  const safe = sessionId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 120);
  return path.join(dir, 'sessions', `${safe}.briefed`);
}

/** After SessionStart briefed `sessionId` with `text`. Also sweeps stale markers. */
export function markBriefed(dir: string, sessionId: string, text: string): void {
  const file = markerPath(dir, sessionId);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    sweepStale(path.dirname(file));
  } catch {
    /* best effort: without the marker the first prompt is briefed again */
  }
}

/** True when this UserPromptSubmit would repeat the SessionStart briefing word for word. Consumes the marker. */
export function alreadyBriefed(dir: string, sessionId: string, text: string): boolean {
  const file = markerPath(dir, sessionId);
  let given: string;
  try {
    given = fs.readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  try {
    fs.rmSync(file, { force: true });
  } catch {
    /* a marker that stays is swept after a day */
  }
  return given === text;
}

function sweepStale(folder: string): void {
  const now = Date.now();
  for (const name of fs.readdirSync(folder)) {
    if (!name.endsWith('.briefed')) continue;
    const file = path.join(folder, name);
    try {
      if (now - fs.statSync(file).mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
    } catch {
      /* raced with another hook: fine */
    }
  }
}
