/**
 * From what the shell analysis saw a command write (write-targets.ts)
 * to the paths the path rules check (util/paths/write-guard.ts).
 *
 * - A word's value is the path, with `~`, `$HOME` or `${HOME}` in front
 *   expanded; any other run-time part leaves the path unknown.
 * - An unquoted `*` in the last segment is expanded against the folder as
 *   it is now, dot files included (a terminal may have `dotglob` set); the
 *   word as written counts too (bash keeps a glob that matches nothing).
 * - A relative path is taken from the folder the command starts in and
 *   from every folder a `cd` in it may have led to; after a `cd` stategate
 *   cannot follow (run-time folder, in a loop or function), it is unknown.
 */
import * as path from 'node:path';
import type { DirChange, ShellWrite } from './write-targets.js';
import type { Word } from './words.js';
import type { PathGuard, ResolvedPath } from '../util/paths/write-guard.js';

/** Folders a command's relative paths may be taken from, before this many it gives up. */
const MAX_FOLDERS = 32;

/** A word as a path: home expanded; undefined when it is only known at run time. `glob`: holds a `*` to expand. */
function pathText(w: Word, home: string | undefined): { text: string; glob: boolean } | undefined {
  if (!w.dynamic) return { text: w.value, glob: false };
  const m = /^(~|\$HOME|\$\{HOME\})(?=\/|$)(.*)$/s.exec(w.value);
  const rest = m ? (m[2] ?? '') : w.value;
  const text = m ? (home === undefined ? undefined : `${home}${rest}`) : w.value;
  if (text === undefined || /[$`?[\]{}]/.test(rest)) return undefined;
  const glob = rest.includes('*');
  if (!m && !w.starGlob) return undefined;
  return { text, glob };
}

/** The folders relative paths may start from; undefined when a change cannot be followed (and `lenient` is off). */
export function startFolders(start: string, dirs: readonly DirChange[], home: string | undefined, lenient: boolean): string[] | undefined {
  let set = [start];
  for (const d of dirs) {
    const to = 'to' in d ? pathText(d.to, home) : undefined;
    if (to === undefined || to.glob) {
      if (lenient) continue;
      return undefined;
    }
    const next = path.isAbsolute(to.text) ? [path.resolve(to.text)] : set.map((c) => path.resolve(c, to.text));
    set = [...new Set([...set, ...next])];
    if (set.length > MAX_FOLDERS) return lenient ? set.slice(0, MAX_FOLDERS) : undefined;
  }
  return set;
}

export type ShellWritePaths = { readonly paths: ResolvedPath[] } | { readonly unknown: string };

/** The paths one shell write may touch. `folders`: from startFolders; `tmp`: the temporary folder. */
export function shellWritePaths(w: ShellWrite, folders: readonly string[] | undefined, guard: PathGuard, tmp: string | undefined): ShellWritePaths {
  const p = pathText(w.word, guard.home);
  if (p === undefined) return { unknown: `${w.word.text} is only known when the command runs` };
  let starts: readonly string[] | undefined = folders;
  if (w.inTmp) starts = [tmp ?? '/tmp'];
  else if (path.isAbsolute(p.text)) starts = [path.parse(p.text).root];
  if (starts === undefined) return { unknown: `${w.word.text} is relative, and the command changes folder in a way stategate cannot follow` };
  const out: ResolvedPath[] = [];
  for (const start of starts) {
    const spellings = [p.text];
    if (p.glob) {
      const dir = path.dirname(p.text);
      if (dir.includes('*')) return { unknown: `${w.word.text} has a wildcard before its last segment` };
      const picomatch = require('picomatch') as typeof import('picomatch');
      const match = picomatch(path.basename(p.text), { dot: true });
      const names = guard.env.readdir?.(guard.resolve(dir, start).real) ?? [];
      spellings.push(...names.filter((n) => match(n)).map((n) => path.join(dir, n)));
    }
    for (const s of spellings) {
      const resolved = { ...guard.resolve(s, start), shown: s === p.text ? w.word.text : s };
      if (w.unlessFolder && guard.isFolder(resolved)) continue;
      out.push(resolved);
    }
  }
  return { paths: out };
}
