/**
 * enforcementFileAt (enforcement-files.ts) compiles a table glob only for a path that holds the glob's
 * literal text. That shortcut is a security check's: this test asks picomatch alone, the way the
 * table was matched before it, for every path below, and wants the same entry (or none) for each.
 * The paths are each entry's pattern written out under several folders, in other cases, as a folder
 * of its own, with something after it, and near misses (a character dropped or changed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { ENFORCEMENT_FILES, enforcementFileAt, type EnforcementFile, type EnforcementPlaces } from '../../src/engine/util/paths/enforcement-files';
import { isInside } from '../../src/engine/util/paths/real-path';

const PLACES: EnforcementPlaces = {
  root: '/ws',
  home: '/home/me',
  stateDir: '/home/me/.local/state/stategate',
  bundleDir: '/opt/stategate/dist',
  platform: 'linux',
  env: {},
};

const compiled = new Map<string, (p: string) => boolean>();
const glob = (g: string) => compiled.get(g) ?? compiled.set(g, picomatch(g, { dot: true, nocase: true })).get(g)!;

/** The table matched with picomatch and nothing else. */
function byPicomatchAlone(real: string): EnforcementFile | undefined {
  for (const entry of ENFORCEMENT_FILES) {
    if (entry.at === 'anywhere') {
      if (glob(`**/${entry.pattern}`)(real.replace(/^\/+/, ''))) return entry;
      continue;
    }
    const base = entry.at === 'home' ? PLACES.home : entry.at === 'bundle' ? PLACES.bundleDir : PLACES.stateDir;
    if (base === undefined || !isInside(real, base, true)) continue;
    const rel = path.relative(base.toLowerCase(), real.toLowerCase());
    if (entry.pattern === '**' || glob(entry.pattern)(rel)) return entry;
  }
  return undefined;
}

/** A pattern written out: `*` as a name, a trailing `/**` as nothing, one file, or two folders deep. */
function writtenOut(pattern: string): string[] {
  const named = pattern.replace(/\*\*$/, 'x').replace(/\*/g, 'name');
  const tails = pattern.endsWith('/**') ? ['', '/a.json', '/deep/er/b.ts'] : [''];
  const base = pattern.endsWith('/**') ? named.slice(0, -2) : named;
  return tails.map((t) => base + t);
}

function nearMisses(p: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < p.length; i += 3) {
    out.push(p.slice(0, i) + p.slice(i + 1));
    out.push(p.slice(0, i) + (p[i] === '/' ? '_' : '/') + p.slice(i + 1));
  }
  return out;
}

const FOLDERS = ['/', '/ws/', '/home/me/', '/home/me/.config/', '/home/me/.local/state/stategate/', '/opt/stategate/dist/', '/etc/', '/srv/a/b/c/'];

const relatives = [
  ...ENFORCEMENT_FILES.flatMap((e) => writtenOut(e.pattern)),
  'src/app.ts',
  'README.md',
  'settings.json',
  'hooks/x.json',
  '.github/workflows/ci.yml',
  'extensions/other.ext-1.0/x.js',
];
const cases = new Set<string>();
for (const rel of relatives) {
  for (const variant of [rel, rel.toUpperCase(), rel.replace(/[a-z]/, (c) => c.toUpperCase()), `${rel}.bak`, `${rel}x/y`, ...nearMisses(rel)]) {
    for (const folder of FOLDERS) cases.add(path.posix.normalize(folder + variant).replace(/\/+$/, '') || '/');
  }
}

test('the enforcement table with its literal-text shortcut answers as picomatch alone does', () => {
  let found = 0;
  for (const real of cases) {
    const expected = byPicomatchAlone(real);
    if (expected) found++;
    assert.equal(enforcementFileAt(real, PLACES)?.pattern, expected?.pattern, real);
    assert.equal(enforcementFileAt(real, PLACES)?.at, expected?.at, real);
  }
  // The paths must reach both answers many times over, or the comparison says little.
  assert.ok(found > 500 && cases.size - found > 500, `${found} of ${cases.size} paths fall under an entry`);
});
