// `npm run bench [-- --json|--quick|--only=...|--no-build]`: packages the extension
// (minified bundles and the VSIX whose sizes are measured; its output goes to
// stderr so stdout stays the table or the JSON), bundles the benchmark with
// esbuild the way the product is bundled (not through tsx), and runs it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCacheDir, bundleForNode } from './bundle.mjs';
import { startServer } from '../scripts/with-postgres.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
if (!args.includes('--no-build')) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['run', 'package'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) {
    process.stderr.write('bench: npm run package failed\n');
    process.exit(1);
  }
}
const outDir = benchCacheDir(root);
// A snapshot of what was just packaged: others working in the same checkout may rebuild dist/ meanwhile.
const artifacts = join(outDir, 'artifacts');
rmSync(artifacts, { recursive: true, force: true });
mkdirSync(artifacts, { recursive: true });
if (existsSync(join(root, 'dist'))) cpSync(join(root, 'dist'), join(artifacts, 'dist'), { recursive: true });
if (existsSync(join(root, 'stategate.vsix'))) cpSync(join(root, 'stategate.vsix'), join(artifacts, 'stategate.vsix'));
const stateDir = join(outDir, 'state');
rmSync(stateDir, { recursive: true, force: true });
const outfile = join(outDir, 'main.cjs');
await bundleForNode(join(root, 'bench', 'main.ts'), outfile);
// The shared-store rows need a PostgreSQL server: started here the way the test suite starts
// one (scripts/with-postgres.mjs), unless STATEGATE_TEST_PG_URL names one already.
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const pgEnv = {};
let pg;
if ((!only || only.includes('team')) && !process.env.STATEGATE_TEST_PG_URL) {
  pg = await startServer();
  pgEnv.STATEGATE_TEST_PG_URL = pg.url;
}
const r = spawnSync(process.execPath, [outfile, ...args.filter((a) => a !== '--no-build')], {
  cwd: root,
  stdio: 'inherit',
  // The runs the benchmark starts keep their record outside the workspace here, not in the user's state folder.
  env: { ...process.env, STATEGATE_BENCH_ROOT: root, STATEGATE_BENCH_ARTIFACTS: artifacts, STATEGATE_VSIX: join(artifacts, 'stategate.vsix'), STATEGATE_STATE_DIR: stateDir, ...pgEnv },
});
await pg?.stop();
process.exit(r.status ?? 1);
