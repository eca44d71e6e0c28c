/**
 * The workspace side of planEnable/planDisable (client-configs.ts): reading a
 * client's configuration files, and carrying out the planned writes (each
 * file replaced atomically, or removed when the plan leaves it empty). Shared
 * by `stategate enable|disable` and the extension's Enable/Disable Agent
 * Enforcement.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';
import type { FileWrite } from './client-configs.js';

export function applyClientWrites(root: string, writes: readonly FileWrite[]): void {
  for (const w of writes) {
    const abs = path.join(root, w.file);
    if (w.text === undefined) fs.rmSync(abs, { force: true });
    else {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      writeFileAtomic(abs, w.text);
    }
  }
}

/** A reader of files under `root`: the text, or undefined when the file cannot be read. */
export function clientFileReader(root: string): (file: string) => string | undefined {
  return (file) => {
    try {
      return fs.readFileSync(path.join(root, file), 'utf8');
    } catch {
      return undefined;
    }
  };
}
