/**
 * stategate's folder outside every workspace, in the user's state directory.
 * It holds what an agent working inside a workspace must not be able to erase
 * together with the run: the record that a workspace has an active run (so
 * deleting `.stategate/` is seen as tampering, not as "no run"), and the hook
 * launcher the hook entries call (so a moved or removed extension denies).
 *
 * `STATEGATE_STATE_DIR` overrides it (tests, and people who keep state
 * elsewhere); otherwise `$XDG_STATE_HOME/stategate`, `~/.local/state/stategate`
 * on Linux and macOS, and `%LOCALAPPDATA%\stategate\state` on Windows.
 */
import * as os from 'node:os';
import * as path from 'node:path';

export function userStateDir(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir(), platform: NodeJS.Platform = process.platform): string {
  const override = env['STATEGATE_STATE_DIR'];
  if (override) return path.resolve(override);
  if (platform === 'win32') return path.join(env['LOCALAPPDATA'] || path.join(home, 'AppData', 'Local'), 'stategate', 'state');
  const xdg = env['XDG_STATE_HOME'];
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'stategate');
  return path.join(home, '.local', 'state', 'stategate');
}
