/**
 * The machine as the path rules see it (write-guard.ts): the real file
 * system, the home folder, stategate's user state folder, the temporary
 * folder. The Runner builds one per workspace; tests build their own.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { attempt, nodeFileSystem } from './real-path.js';
import { userStateDir } from '../../store/user-state-dir.js';
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
  };
}

/** Paths as written, with no file system behind them (a policy decided without one). */
export function lexicalPathEnv(root: string): PathEnv {
  return { root, platform: process.platform, env: {}, realpath: () => undefined, readlink: () => undefined };
}
