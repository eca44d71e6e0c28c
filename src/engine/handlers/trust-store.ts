/**
 * The one record of which files a person trusts to run things on this
 * machine: chart files whose handlers may run and flow files (VS Code's
 * first-run question and `stategate trust FILE` both write it). It maps a
 * file's absolute path to the sha256 of the content the person saw, so an
 * edit (by anyone) makes the file untrusted again until a person looks.
 *
 * It lives in the workspace's `.stategate/trust.json`: while a run is
 * enforced the hook refuses the agent any write under `.stategate/`
 * (util/paths/protected.ts) and the sandbox mounts `.stategate/` read-only
 * (sandbox/plan.ts); `stategate trust` is refused to the agent like `run
 * approve` (shell/own-cli.ts). The agent is an adversary: a trust it could
 * write would run its commands outside the gate.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hashText } from '../machine/run.js';
import { writeFileAtomic } from '../util/atomic-file.js';

export const TRUST_FILE = 'trust.json';

interface TrustRecord {
  readonly version: 1;
  /** Absolute file path -> sha256 of the trusted content. */
  readonly files: Readonly<Record<string, string>>;
}

/** `dir` is the workspace's `.stategate` folder. */
export function trustFilePath(dir: string): string {
  return path.join(dir, TRUST_FILE);
}

function read(dir: string): TrustRecord {
  try {
    const parsed = JSON.parse(fs.readFileSync(trustFilePath(dir), 'utf8')) as Partial<TrustRecord>;
    const files: Record<string, string> = {};
    // Only string hashes count: a damaged record trusts nothing rather than something.
    for (const [k, v] of Object.entries(parsed?.files ?? {})) if (typeof v === 'string') files[k] = v;
    return { version: 1, files };
  } catch {
    return { version: 1, files: {} };
  }
}

export type TrustState = 'trusted' | 'changed' | 'untrusted';

/** Whether `content` of `file` is the content a person trusted (`changed`: another content of it was). */
export function trustState(dir: string, file: string, content: string): TrustState {
  const known = read(dir).files[path.resolve(file)];
  if (known === undefined) return 'untrusted';
  return known === hashText(content) ? 'trusted' : 'changed';
}

/** Records that a person trusts `content` of `file`; returns the hash recorded. */
export function trustContent(dir: string, file: string, content: string): string {
  const hash = hashText(content);
  const rec = read(dir);
  fs.mkdirSync(dir, { recursive: true });
  writeFileAtomic(trustFilePath(dir), `${JSON.stringify({ version: 1, files: { ...rec.files, [path.resolve(file)]: hash } }, null, 2)}\n`);
  return hash;
}
