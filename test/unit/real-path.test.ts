/** Where a path really leads (real-path.ts): with a fake file system, and with real symlinks. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside, nodeFileSystem, resolveReal, type PathLookup } from '../../src/engine/util/paths/real-path';
import { tempDir } from './helpers/temp-dir';

/** A file system of folders and symlinks: `links` maps a path to what the link holds. */
function fake(dirs: string[], links: Record<string, string>): PathLookup {
  let depth = 0;
  const real = (p: string): string | undefined => {
    // Follow links segment by segment, like the kernel (which gives up on a loop: ELOOP).
    if (++depth > 40) return undefined;
    let out = '/';
    for (const seg of p.split('/').filter(Boolean)) {
      const next = path.posix.join(out, seg);
      if (links[next] !== undefined) {
        const target = real(path.posix.resolve(out, links[next]!));
        if (target === undefined) return undefined;
        out = target;
      } else if (dirs.includes(next)) out = next;
      else return undefined;
    }
    return out;
  };
  const lookup: PathLookup = {
    realpath: (p) => {
      depth = 0;
      return real(p);
    },
    readlink: (p) => links[p],
  };
  return lookup;
}

const FS = fake(['/ws', '/ws/sub', '/ws/.stategate', '/ws/.stategate/runs', '/elsewhere', '/real', '/real/ws2'], {
  '/ws/sub/link': '../.stategate',
  '/ws/sub/abs': '/elsewhere',
  '/ws/dangling': '.stategate/newfile',
  '/ws/loop': 'loop2',
  '/ws/loop2': 'loop',
  '/link-ws': '/real/ws2',
});

const rows: Array<[string, string, string | undefined]> = [
  ['sub/link/active', '/ws', '/ws/.stategate/active'],
  ['/ws/sub/link/runs/r/run.json', '/', '/ws/.stategate/runs/r/run.json'],
  // `..` after a link leaves the link's target, not the folder holding the link.
  ['sub/link/../x', '/ws', '/ws/x'],
  ['sub/abs/../ws/y', '/ws', '/ws/y'],
  ['sub/abs/new/deeper.txt', '/ws', '/elsewhere/new/deeper.txt'],
  // A dangling link: writing it creates what it points at.
  ['dangling', '/ws', '/ws/.stategate/newfile'],
  ['loop', '/ws', undefined],
  ['src/a.ts', '/ws', '/ws/src/a.ts'],
  ['./a/../b', '/ws', '/ws/b'],
  // The workspace root itself reached through a symlink.
  ['/link-ws/.stategate/active', '/', '/real/ws2/.stategate/active'],
];
for (const [p, base, want] of rows) {
  test(`resolveReal(${p} from ${base}) -> ${want}`, () => assert.equal(resolveReal(p, base, FS), want));
}

test('isInside: case matters for the workspace, not for protected files', () => {
  assert.equal(isInside('/ws/a', '/ws'), true);
  assert.equal(isInside('/ws', '/ws'), true);
  assert.equal(isInside('/wsx/a', '/ws'), false);
  assert.equal(isInside('/WS/a', '/ws'), false);
  assert.equal(isInside('/WS/a', '/ws', true), true);
});

test('the real file system: a symlinked folder, a dangling link, a symlinked root', (t) => {
  const tmp = fs.realpathSync(tempDir('sg-realpath-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const ws = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(ws, '.stategate'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'sub'));
  fs.symlinkSync('../.stategate', path.join(ws, 'sub', 'link'));
  fs.symlinkSync('.claude/settings.json', path.join(ws, 'dangling'));
  fs.symlinkSync(ws, path.join(tmp, 'ws-link'));
  assert.equal(resolveReal('sub/link/active', ws, nodeFileSystem), path.join(ws, '.stategate', 'active'));
  assert.equal(resolveReal('dangling', ws, nodeFileSystem), path.join(ws, '.claude', 'settings.json'));
  assert.equal(resolveReal(path.join(tmp, 'ws-link', 'a.ts'), '/', nodeFileSystem), path.join(ws, 'a.ts'));
});
