/**
 * One turn per tool call, whatever number of hooks ask. VS Code runs every
 * hook file it reads (`.github/hooks/stategate.json` and
 * `.claude/settings.json`), so one call can reach `stategate hook` twice; the
 * policy's decision is deduplicated by the run (recent-calls.ts), and a stage's
 * turn is counted only by the hook that first claims the call's id: an
 * exclusive create of a marker file, atomic across the hook processes. A client
 * that sends no call id is counted per hook call.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const STALE_MS = 24 * 60 * 60 * 1000;

/** True for the first hook process that asks about `callId` (and whenever the marker cannot be written: count rather than skip). */
export function claimTurn(dir: string, callId: string | undefined): boolean {
  if (!callId) return true;
  const folder = path.join(dir, 'sessions');
  const safe = callId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 120);
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.closeSync(fs.openSync(path.join(folder, `${safe}.turn`), 'wx'));
  } catch (err) {
    return (err as NodeJS.ErrnoException)?.code !== 'EEXIST';
  }
  sweep(folder);
  return true;
}

function sweep(folder: string): void {
  const now = Date.now();
  try {
    for (const name of fs.readdirSync(folder)) {
      if (!name.endsWith('.turn')) continue;
      const file = path.join(folder, name);
      if (now - fs.statSync(file).mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
    }
  } catch {
    /* raced with another hook: fine */
  }
}
