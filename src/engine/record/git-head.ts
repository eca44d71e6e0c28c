/**
 * The workspace's git HEAD sha for a checkpoint, read from `.git` itself: a
 * checkpoint is taken at every state change, and a hook process (one per tool
 * call) must not spawn `git` for it. Follows what git does for the common
 * layouts: `.git` a folder or a `gitdir:` file (worktrees, submodules), a
 * detached HEAD, a symbolic ref found loose (in the git dir, then in the
 * common dir a worktree names) or in `packed-refs`. Anything else (a reftable
 * repository, a ref it cannot find) falls back to `git rev-parse HEAD`; no
 * repository, or an unborn branch, is null.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The git dir of the repository holding `folder` (walking up), or undefined. */
export function gitDirOf(folder: string): string | undefined {
  let dir = path.resolve(folder);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(dotGit);
    } catch {
      stat = undefined;
    }
    if (stat?.isDirectory()) return dotGit;
    if (stat?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
      if (m?.[1]) return path.resolve(dir, m[1]);
    }
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** The sha a ref names, from loose refs or packed-refs of the git dir and its common dir. */
function resolveRef(gitDir: string, ref: string): string | undefined | 'unknown' {
  const common = readText(path.join(gitDir, 'commondir'))?.trim();
  const dirs = [gitDir, ...(common ? [path.resolve(gitDir, common)] : [])];
  for (const d of dirs) {
    const loose = readText(path.join(d, ref))?.trim();
    if (loose && SHA.test(loose)) return loose;
  }
  for (const d of dirs) {
    const packed = readText(path.join(d, 'packed-refs'));
    if (packed === undefined) continue;
    for (const line of packed.split('\n')) {
      const [sha, name] = line.split(' ');
      if (name === ref && sha && SHA.test(sha)) return sha;
    }
  }
  // A reftable repository keeps refs elsewhere: ask git. Otherwise the branch has no commit yet.
  return dirs.some((d) => fs.existsSync(path.join(d, 'reftable'))) ? 'unknown' : undefined;
}

/** HEAD's full sha for the repository holding `folder`; null outside git or before the first commit. */
export function gitHead(folder: string, runGit: (folder: string) => string | undefined = revParse): string | null {
  const gitDir = gitDirOf(folder);
  if (!gitDir) return null;
  const head = readText(path.join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return runGit(folder) ?? null;
  if (SHA.test(head)) return head;
  const m = /^ref:\s*(\S+)$/.exec(head);
  if (!m?.[1]) return runGit(folder) ?? null;
  const sha = resolveRef(gitDir, m[1]);
  if (sha === 'unknown') return runGit(folder) ?? null;
  return sha ?? null;
}

function revParse(folder: string): string | undefined {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const out = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: folder, encoding: 'utf8', timeout: 2000 });
  const sha = out.status === 0 ? out.stdout.trim() : '';
  return SHA.test(sha) ? sha : undefined;
}
