/**
 * How a hook finds the shared store VS Code was told about. A hook is a fresh
 * process started by the agent's client (VS Code's agent mode, Claude Code in
 * a terminal...) and sees only its environment; the `stategate.store` setting
 * lives in VS Code's user settings, which it cannot read. Without this, a hook
 * in a workspace whose team run is in the shared store would read the empty
 * `.stategate/` and find no run: fail open.
 *
 * So the extension writes the store's URL, without any password, to a file of
 * the workspace under the user's state folder (util/user-state-dir.ts), outside
 * every workspace, beside the active-run records: never a file in the
 * workspace, which an agent can write (docs/team.md). The password
 * is not written anywhere: a hook takes it from its environment (PGPASSWORD)
 * and fails closed, saying so, without it.
 *
 * Order (store-choice.ts): a URL passed in (the extension's setting), then
 * STATEGATE_STORE_URL when set (an empty value means the files), then this
 * pointer, then the files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recordFileFor, workspaceOf } from './active-record.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { userStateDir } from '../util/user-state-dir.js';

/** The pointer file of a workspace (its real path keys it, as the active-run record's). */
export function storePointerFile(workspaceRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const stateDir = userStateDir(env);
  const real = workspaceOf(path.join(workspaceRoot, '.stategate'));
  return path.join(stateDir, 'stores', path.basename(recordFileFor(real, stateDir)));
}

/** `url` without a password (in the user part or a password= parameter). */
export function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    u.searchParams.delete('password');
    return u.toString();
  } catch {
    return url.replace(/(\/\/[^:/@]*):[^@]*@/, '$1@').replace(/([?&])password=[^&]*&?/i, '$1');
  }
}

/** Point the workspace's hooks at `url` (its password left out), or back at the files (undefined). */
export function writeStorePointer(workspaceRoot: string, url: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  const file = storePointerFile(workspaceRoot, env);
  if (!url) {
    fs.rmSync(file, { force: true });
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify({ url: withoutPassword(url), workspace: workspaceRoot, written_by: 'vscode' }, null, 2)}\n`);
}

/** The URL the workspace's pointer names, if any. A torn or foreign file names none. */
export function readStorePointer(workspaceRoot: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(storePointerFile(workspaceRoot, env), 'utf8')) as { url?: unknown };
    return typeof v.url === 'string' && v.url.trim() !== '' ? v.url.trim() : undefined;
  } catch {
    return undefined;
  }
}
