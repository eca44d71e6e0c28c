/**
 * The machine as the path rules see it (write-guard.ts): the real file
 * system, the home folder, stategate's user state folder, the temporary
 * folder. The Runner builds one per workspace; tests build their own.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { attempt, nodeFileSystem } from './real-path.js';
import { userStateDir } from '../user-state-dir.js';
import type { PathEnv } from './write-guard.js';

export function nodePathEnv(root: string, env: NodeJS.ProcessEnv = process.env): PathEnv {
  return {
    ...nodeFileSystem,
    root,
    home: os.homedir(),
    stateDir: userStateDir(env),
    tmpDir: os.tmpdir(),
    platform: process.platform,
    env,
    readFile: (p) => attempt(() => fs.readFileSync(p, 'utf8')),
    readdir: (p) => attempt(() => fs.readdirSync(p)),
    // Files only: a folder's link count is its subfolders plus two, and names no other file.
    linkCount: (p) => attempt(() => {
      const st = fs.statSync(p);
      return st.isFile() ? st.nlink : undefined;
    }),
    ...(bundleDir() ? { bundleDir: bundleDir()! } : {}),
  };
}

/**
 * The folder of the running stategate bundle: the one that holds `cli.js`
 * (the hook runs `dist/cli/hook.js` or `dist/cli.js`, the extension
 * `dist/engine.js`). Run from source (tests under tsx) there is none.
 */
let bundleFolder: string | null | undefined;
function bundleDir(): string | undefined {
  if (bundleFolder === undefined) {
    bundleFolder = process.env.STATEGATE_BUNDLED === '1' ? ([__dirname, path.dirname(__dirname)].find((d) => fs.existsSync(path.join(d, 'cli.js'))) ?? null) : null;
  }
  return bundleFolder ?? undefined;
}

/** Paths as written, with no file system behind them (a policy decided without one). */
export function lexicalPathEnv(root: string): PathEnv {
  return { root, platform: process.platform, env: {}, realpath: () => undefined, readlink: () => undefined };
}
