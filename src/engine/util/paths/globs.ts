/**
 * The globs of `allowed_paths` / `denied_paths`: workspace-relative
 * (`src/**`), or absolute for places outside the workspace (`/tmp/**`,
 * `~/.cache/**`, `C:/build/**`). picomatch with `dot: true`, so `**` covers
 * dot files too. The folder a glob starts from (its part before the first
 * wildcard) is resolved like the written path itself, so `/tmp/**` still
 * matches where `/tmp` is a symlink (macOS: `/private/tmp`).
 */
import * as path from 'node:path';

/** Why a glob cannot be used, or undefined when it can (the validator reports it; at run time a bad glob fails closed). */
export function globProblem(glob: string): string | undefined {
  if (glob.trim() === '') return 'an empty glob matches nothing';
  if (glob.startsWith('!')) return 'negated globs (`!x`) are not supported: list what to exclude in denied_paths';
  const picomatch = require('picomatch') as typeof import('picomatch');
  try {
    const re = picomatch.makeRe(glob, { dot: true, strictBrackets: true });
    if (String(re) === '/$^/') return 'it cannot be read as a glob (a trailing backslash?)';
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}

export interface GlobPlaces {
  /** The workspace folder, as the path was made absolute against (lexical) and as it really is. */
  readonly root: string;
  readonly realRoot: string;
  readonly home?: string;
  /** Resolves a folder like the written path (real-path.ts). */
  readonly resolve: (p: string) => string | undefined;
}

const slash = (p: string): string => p.split(path.sep).join('/');

/** Absolute (`/x`, `C:/x`, `\\server\x`) or home-relative (`~`, `~/x`). */
export function isAbsoluteGlob(glob: string): boolean {
  return glob === '~' || glob.startsWith('~/') || path.isAbsolute(glob) || /^[A-Za-z]:[\\/]/.test(glob);
}

/**
 * Does `glob` match the path at `lexical` (absolute, as written) or `real`
 * (after symlinks)? `which` picks the spellings to try: a denial matches on
 * either, an admission only on where the write really lands.
 */
export function globMatches(glob: string, p: { lexical: string; real: string }, places: GlobPlaces, which: 'either' | 'real'): boolean {
  const picomatch = require('picomatch') as typeof import('picomatch');
  let spec = glob;
  if (spec === '~' || spec.startsWith('~/')) {
    if (places.home === undefined) return false;
    spec = slash(places.home) + spec.slice(1);
  }
  const absolute = isAbsoluteGlob(spec);
  const scan = picomatch.scan(spec);
  const base = absolute ? scan.base : path.join(places.root, scan.base);
  const rest = scan.isGlob ? scan.glob : '';
  let test: (rel: string) => boolean;
  try {
    const m = rest === '' ? undefined : picomatch(rest, { dot: true, strictBrackets: true });
    // The base folder itself: `src/**` covers `src` as picomatch reads `src/**` whole.
    const self = rest === '' ? undefined : picomatch(`_/${rest}`, { dot: true, strictBrackets: true });
    test = (rel) => (rel === '' ? rest === '' || self!('_') : m ? m(rel) : false);
  } catch {
    return false;
  }
  const bases: Array<[string, string]> = [[p.real, places.resolve(base) ?? base]];
  if (which === 'either') bases.push([p.lexical, path.resolve(absolute ? base : path.join(places.root, scan.base))]);
  for (const [target, from] of bases) {
    const rel = path.relative(from, target);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    if (test(slash(rel))) return true;
  }
  return false;
}
