/** Whether an executable of that name is on PATH (the check `which` makes, without a process). */
import * as fs from 'node:fs';
import * as path from 'node:path';

export function onPath(name: string, envPath = process.env.PATH ?? ''): boolean {
  return envPath.split(path.delimiter).some((dir) => {
    if (!dir) return false;
    try {
      fs.accessSync(path.join(dir, name), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
