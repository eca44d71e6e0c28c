/**
 * Carry out the writes planEnable/planDisable planned (client-configs.ts)
 * under a workspace folder: each file replaced atomically, or removed when
 * the plan leaves it empty. Shared by `stategate enable|disable` and the
 * extension's Enable/Disable Agent Enforcement.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../store/atomic-file.js';
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
