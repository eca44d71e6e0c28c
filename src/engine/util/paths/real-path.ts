/**
 * Where a path really leads, for every path rule (protected files, path
 * scope, `max_files_per_state` identity, interrupt patterns). A lexical check
 * is not enough: with `sub/link -> ../.stategate`, `sub/link/active` is the
 * run's own `active` file.
 *
 * The path is followed one segment at a time, the way the kernel does:
 * each existing prefix is replaced by its real path (so a `..` after a
 * symlink goes to the parent of the link's target), a dangling symlink is
 * followed to where it points (writing it creates its target), and the
 * part that does not exist yet is appended as written. The file system is
 * reached only through the functions passed in, so the logic is testable
 * with a fake one; `nodeFileSystem` is the real one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** What path resolution needs from a file system. Each returns undefined where the real call would fail. */
export interface PathLookup {
  /** The real path of an existing file or folder. */
  readonly realpath: (p: string) => string | undefined;
  /** The target of a symlink (as stored in the link), when `p` is one. */
  readonly readlink: (p: string) => string | undefined;
}

/** Symlinks followed before giving up (the kernel's ELOOP limit is 40). */
const MAX_LINKS = 40;

/**
 * The real location of `p` (made absolute against `base`): the real path of
 * its longest existing prefix, then the rest as written. Returns undefined
 * only when symlinks loop.
 */
export function resolveReal(p: string, base: string, fsx: PathLookup): string | undefined {
  // Not path.resolve: it would fold `link/..` before the link is followed.
  const start = path.isAbsolute(p) ? p : `${path.isAbsolute(base) ? base : path.resolve(base)}${path.sep}${p}`;
  const { root } = path.parse(start);
  const pending = segments(start.slice(root.length));
  let current = fsx.realpath(root) ?? root;
  let links = 0;
  let missing = false;
  while (pending.length > 0) {
    const segment = pending.shift()!;
    if (segment === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, segment);
    if (missing) {
      current = next;
      continue;
    }
    const real = fsx.realpath(next);
    if (real !== undefined) {
      current = real;
      continue;
    }
    const target = fsx.readlink(next);
    if (target === undefined) {
      // Nothing there yet: the rest is created as written.
      missing = true;
      current = next;
      continue;
    }
    // A dangling symlink: writing through it creates whatever it points at.
    if (++links > MAX_LINKS) return undefined;
    if (path.isAbsolute(target)) {
      const linkRoot = path.parse(target).root;
      pending.unshift(...segments(target.slice(linkRoot.length)));
      current = fsx.realpath(linkRoot) ?? linkRoot;
    } else pending.unshift(...segments(target));
  }
  return current;
}

/** Path segments, without empty ones and `.` (`..` is kept: it is followed where it stands). */
function segments(p: string): string[] {
  return p.split(path.sep === '\\' ? /[\\/]/ : '/').filter((s) => s !== '' && s !== '.');
}

/**
 * Is `p` the folder `dir` or inside it (both absolute)? `caseless` compares
 * without regard to case: right for protecting files (on a case-insensitive
 * disk `.CLAUDE/settings.json` is the same file), wrong for deciding that a
 * path is inside the workspace (on Linux `/WS` is another folder).
 */
export function isInside(p: string, dir: string, caseless = false): boolean {
  const rel = caseless ? path.relative(dir.toLowerCase(), p.toLowerCase()) : path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `f()`, or undefined where it throws (a file system call on a path that is not there). */
export function attempt<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** The real file system (Node's native realpath, which also resolves `subst` drives and case on Windows). */
export const nodeFileSystem: PathLookup = {
  realpath: (p) => attempt(() => fs.realpathSync.native(p)),
  readlink: (p) => attempt(() => fs.readlinkSync(p)),
};
