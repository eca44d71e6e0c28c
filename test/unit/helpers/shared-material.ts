/**
 * Material outside the repository: `../shared/corpus` (real workflows written by
 * others) and `../shared/seeds`, which sit beside the repository only in
 * stategate's own development and CI. In a user's clone they are absent, and
 * the tests that read them are skipped with the reason shown; under CI
 * (`CI=true`) absence is a failure instead, so CI still checks every file.
 *
 * STATEGATE_SHARED names another folder to use as `../shared` (a git worktree
 * has none beside it; a missing folder shows the skip).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './cli.js';

export type SharedName = 'corpus' | 'seeds';

export interface SharedMaterial {
  readonly dir: string;
  readonly present: boolean;
  /** node:test's `skip` option for the tests that read it: the reason when it is absent outside CI, else false. */
  readonly skip: string | false;
}

/** Where `../shared/<name>` is looked for. Registers no test (safe in worker threads). */
export function sharedPath(name: SharedName): string {
  const shared = process.env.STATEGATE_SHARED ? path.resolve(process.env.STATEGATE_SHARED) : path.resolve(REPO_ROOT, '..', 'shared');
  return path.join(shared, name);
}

/** CI services set CI=true; `false`, `0` and empty mean a person's machine. */
export function underCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = (env.CI ?? '').trim().toLowerCase();
  return ci !== '' && ci !== 'false' && ci !== '0';
}

/**
 * The material, and a test of its presence (registered at the top level of
 * the calling file): skipped with the reason when absent outside CI, failing
 * when absent under CI. Pass `skip` to every test that reads it.
 */
export function requireShared(name: SharedName): SharedMaterial {
  const dir = sharedPath(name);
  const present = fs.existsSync(dir);
  const reason = `${dir} is absent: ../shared/${name} is material outside the repository, present only in stategate's own development and CI`;
  const skip = present || underCi() ? false : reason;
  test(`../shared/${name} is present beside the repository`, { skip }, () => {
    assert.ok(present, `${reason}; under CI (CI=true) it must be there (set STATEGATE_SHARED if it is elsewhere)`);
  });
  return { dir, present, skip };
}
