/**
 * A private copy of the built CLI for the soak tests: dist/cli.js, its
 * per-command bundles (dist/cli/), and what they load from dist/ itself (the
 * shared engine.js, elk.js, the WASM files). The soak runs for minutes and
 * dist/ may be rebuilt meanwhile by someone else's `npm run build`.
 * STATEGATE_TEST_CLI points at another build instead.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../unit/helpers/temp-dir';

/** The files of dist/ (beside cli/) that the CLI's bundles require. */
const BESIDE_CLI = /^(engine\.js|elk\.js|.*\.wasm)$/;

export function snapshotCli(repoRoot: string, prefix: string): string {
  if (process.env.STATEGATE_TEST_CLI) return process.env.STATEGATE_TEST_CLI;
  const dist = path.join(repoRoot, 'dist');
  const into = tempDir(prefix);
  for (let attempt = 0; ; attempt++) {
    try {
      fs.cpSync(path.join(dist, 'cli.js'), path.join(into, 'cli.js'));
      fs.cpSync(path.join(dist, 'cli'), path.join(into, 'cli'), { recursive: true, filter: (f) => !f.endsWith('.map') });
      for (const f of fs.readdirSync(dist)) if (BESIDE_CLI.test(f)) fs.cpSync(path.join(dist, f), path.join(into, f));
      if (!fs.existsSync(path.join(into, 'engine.js'))) throw new Error('dist/engine.js is missing');
      return path.join(into, 'cli.js');
    } catch (err) {
      // dist/ is being rebuilt right now: wait for it.
      if (attempt >= 60) throw new Error(`no built CLI in ${dist} (run \`npm run build\`): ${(err as Error).message}`);
      spawnSync('sleep', ['1']);
    }
  }
}
