/**
 * Which project a workspace belongs to in a shared store: the runs of a team
 * are keyed by it, so a hook on another machine, in another clone of the same
 * repository, finds the team's active run. It is the repository's remote URL
 * (`origin`, else the first remote) normalised so that the forms one
 * repository is cloned by agree (`git@host:org/repo.git`,
 * `https://user@host/org/repo`, `ssh://git@host/org/repo.git` all give
 * `host/org/repo`), or what a person names with `--project` /
 * STATEGATE_PROJECT. Credentials in a remote URL are never part of the key.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const PROJECT_ENV = 'STATEGATE_PROJECT';

export class ProjectKeyError extends Error {}

/** `host/path` of a git remote URL: no scheme, user, port for ssh, `.git` or trailing slash; the host in lower case. */
export function normaliseRemote(url: string): string {
  let u = url.trim();
  // scp-like syntax: [user@]host:path (no scheme, and the colon is not a Windows drive)
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(u);
  let host: string;
  let rest: string;
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(u)) {
    host = scp[1]!;
    rest = scp[2]!;
  } else {
    const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/:]+)(?::\d+)?(\/.*)?$/i.exec(u);
    if (!m) return u.replace(/\.git$/, '').replace(/\/+$/, '');
    host = m[1]!;
    rest = m[2] ?? '';
  }
  u = rest.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/, '');
  return `${host.toLowerCase()}/${u}`;
}

/** The git config of the repository `folder` is in (a worktree's `.git` file points at its git dir). */
function gitConfigFor(folder: string): string | undefined {
  let dir = path.resolve(folder);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    try {
      const st = fs.statSync(dotGit);
      if (st.isDirectory()) return path.join(dotGit, 'config');
      const pointer = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (pointer) {
        const gitDir = path.resolve(dir, pointer);
        // A worktree's git dir holds `commondir`, the main repository's git dir with the config.
        let common = gitDir;
        try {
          common = path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
        } catch {
          /* not a worktree */
        }
        return path.join(common, 'config');
      }
    } catch {
      /* not here */
    }
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** The remote URLs in a git config, `origin` first. */
function remotes(configText: string): string[] {
  const found: Array<{ name: string; url: string }> = [];
  let current: string | undefined;
  for (const line of configText.split(/\r?\n/)) {
    const section = /^\s*\[\s*remote\s+"([^"]+)"\s*\]/.exec(line);
    if (section) {
      current = section[1];
      continue;
    }
    if (/^\s*\[/.test(line)) {
      current = undefined;
      continue;
    }
    const url = current !== undefined ? /^\s*url\s*=\s*(.+?)\s*$/.exec(line) : null;
    if (url && current !== undefined) found.push({ name: current, url: url[1]! });
  }
  found.sort((a, b) => (a.name === 'origin' ? -1 : b.name === 'origin' ? 1 : 0));
  return found.map((r) => r.url);
}

/**
 * The project key of the workspace at `folder`: `explicit` (--project), else
 * STATEGATE_PROJECT, else its git remote. Throws ProjectKeyError saying what to
 * do when there is none.
 */
export function projectKeyFor(folder: string, explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const named = explicit?.trim() || env[PROJECT_ENV]?.trim();
  if (named) return named;
  const config = gitConfigFor(folder);
  let text = '';
  try {
    text = config ? fs.readFileSync(config, 'utf8') : '';
  } catch {
    text = '';
  }
  const url = remotes(text)[0];
  if (!url) {
    throw new ProjectKeyError(
      `${folder} has no git remote to name its project in the shared store: set ${PROJECT_ENV} (or pass --project NAME) to the same name on every machine of the team`,
    );
  }
  return normaliseRemote(url);
}
