// A/B of two engines in one process: this checkout (A) against another checkout
// or worktree (B), e.g. with a fix applied. Both are bundled together with
// esbuild and measured round by round, interleaved, with the same workloads.
//
//   git worktree add ../fix && (cd ../fix && <apply fix> && npm run build:schema)
//   node bench/ab.mjs ../fix
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCacheDir, bundleForNode } from './bundle.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const other = process.argv[2] && resolve(process.argv[2]);
if (!other) {
  process.stderr.write('usage: node bench/ab.mjs OTHER_CHECKOUT\n');
  process.exit(2);
}
const outDir = benchCacheDir(root);
// The modules ab-measures.ts types its two sides by (the engine's folders since the layout of issue 13).
const MODULES = ['machine/operations.ts', 'machine/env.ts', 'policy/decide.ts', 'check/check-file.ts'];
const engine = (dir) => MODULES.map((m) => JSON.stringify(join(dir, 'src', 'engine', ...m.split('/'))));
const [am, ae, ap, ac] = engine(root);
const [bm, be, bp, bc] = engine(other);
const entry = join(outDir, 'ab-entry.ts');
writeFileSync(
  entry,
  `import * as am from ${am}; import * as ae from ${ae}; import * as ap from ${ap}; import * as ac from ${ac};
import * as bm from ${bm}; import * as be from ${be}; import * as bp from ${bp}; import * as bc from ${bc};
import { runAB } from ${JSON.stringify(join(root, 'bench', 'ab-measures.ts'))};
process.stdout.write(runAB({ machine: am, env: ae, policy: ap, check: ac }, { machine: bm, env: be, policy: bp, check: bc }, { a: 'A (this checkout)', b: 'B (${other.replace(/'/g, '')})' }));
`,
);
const outfile = join(outDir, 'ab.cjs');
await bundleForNode(entry, outfile, { nodePaths: [join(root, 'node_modules')] });
process.exit(spawnSync(process.execPath, [outfile], { stdio: 'inherit' }).status ?? 1);
