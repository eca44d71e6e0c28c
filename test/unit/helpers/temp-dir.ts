// Temporary folders for tests, always removed: with the test that made them
// (t.after) when a test context is given, and in any case when the test
// process exits (folders made at module level, or by a test that failed
// before its own clean-up ran). Every test makes its temporary folders here
// (test/unit/temp-dir.test.ts checks that no test calls mkdtemp itself).
// STATEGATE_KEEP_TEMP=1 keeps them all, to look at what a failing test left.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** What `t` in `test('…', (t) => …)` offers, and `{ after }` from node:test for a whole file. */
export interface CleanupOwner {
  after(fn: () => void): unknown;
}

const keep = process.env.STATEGATE_KEEP_TEMP === '1';
const made = new Set<string>();
process.once('exit', () => {
  for (const dir of made) removeTempDir(dir);
});

/** Remove a folder made by tempDir now (unless STATEGATE_KEEP_TEMP=1); never throws. */
export function removeTempDir(dir: string): void {
  made.delete(dir);
  if (keep) return;
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // A folder that cannot be removed must not fail the test that made it.
  }
}

/** A new folder `<parent>/<prefix>XXXXXX` (parent: os.tmpdir()), removed after `owner` (else at exit). */
export function tempDir(prefix: string, owner?: CleanupOwner, parent = os.tmpdir()): string {
  const dir = fs.mkdtempSync(path.join(parent, prefix));
  made.add(dir);
  owner?.after(() => removeTempDir(dir));
  return dir;
}
