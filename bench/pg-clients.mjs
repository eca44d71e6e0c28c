// One-off benchmark: what a PostgreSQL client library costs a fresh process.
// A hook is a new process per tool call, so with the shared store every call
// pays for loading the driver and opening a connection before it can decide.
// Measures `postgres` (porsager) against `pg` (node-postgres), each bundled
// and minified with esbuild as the CLI's commands are, side by side in one run
// against one real server, and prints the medians and their ratio.
//
// Usage: node bench/pg-clients.mjs [--runs N] [--json]
// The server is the one STATEGATE_TEST_PG_URL names, else one started here
// (scripts/with-postgres.mjs). Each variant runs N times (default 21) in its own
// process, the two interleaved so that load on the machine falls on both alike.
import { spawnSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCacheDir, bundleForNode } from './bundle.mjs';
import { startServer } from '../scripts/with-postgres.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number.parseInt(args[runsAt + 1], 10) : 21;
const json = args.includes('--json');

// Each probe: time to load the driver (require of its bundled code), then to open the first
// connection and answer one query (TCP, startup, SCRAM authentication, SELECT 1), then to close.
const probes = {
  postgres: `
const t0 = performance.now();
const postgres = require('postgres');
const t1 = performance.now();
const sql = postgres(process.env.PG_URL, { max: 1, onnotice: () => {} });
sql\`SELECT 1 AS one\`.then(async (rows) => {
  const t2 = performance.now();
  if (rows[0].one !== 1) throw new Error('wrong answer');
  await sql.end();
  process.stdout.write(JSON.stringify({ load: t1 - t0, connect: t2 - t1, total: performance.now() - t0 }));
});
`,
  pg: `
const t0 = performance.now();
const { Client } = require('pg');
const t1 = performance.now();
const client = new Client({ connectionString: process.env.PG_URL });
client.connect().then(() => client.query('SELECT 1 AS one')).then(async (r) => {
  const t2 = performance.now();
  if (r.rows[0].one !== 1) throw new Error('wrong answer');
  await client.end();
  process.stdout.write(JSON.stringify({ load: t1 - t0, connect: t2 - t1, total: performance.now() - t0 }));
});
`,
};

const dir = benchCacheDir(root);
const bundles = {};
for (const [name, code] of Object.entries(probes)) {
  const entry = join(dir, `pg-client-${name}.entry.cjs`);
  writeFileSync(entry, code);
  bundles[name] = join(dir, `pg-client-${name}.cjs`);
  // pg's optional native binding (pg-native) is not installed and never loaded without `native`.
  await bundleForNode(entry, bundles[name], { minify: true, external: ['pg-native'] });
}

let server;
let url = process.env.STATEGATE_TEST_PG_URL;
if (!url) {
  server = await startServer();
  url = server.url;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const samples = { postgres: [], pg: [] };
try {
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? ['postgres', 'pg'] : ['pg', 'postgres'];
    for (const name of order) {
      const start = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [bundles[name]], { env: { ...process.env, PG_URL: url }, encoding: 'utf8' });
      const wall = Number(process.hrtime.bigint() - start) / 1e6;
      if (r.status !== 0) throw new Error(`${name} probe failed: ${r.stderr}`);
      samples[name].push({ ...JSON.parse(r.stdout), wall });
    }
  }
} finally {
  await server?.stop();
}

const result = {};
for (const name of Object.keys(samples)) {
  result[name] = Object.fromEntries(['load', 'connect', 'total', 'wall'].map((k) => [k, Number(median(samples[name].map((s) => s[k])).toFixed(1))]));
}
const sizes = Object.fromEntries(Object.entries(bundles).map(([name, file]) => [name, statSync(file).size]));
const ratio = Object.fromEntries(['load', 'connect', 'total', 'wall'].map((k) => [k, Number((result.pg[k] / result.postgres[k]).toFixed(2))]));

if (json) {
  process.stdout.write(`${JSON.stringify({ runs: RUNS, node: process.version, medians_ms: result, ratio_pg_over_postgres: ratio, bundle_bytes: sizes }, null, 2)}\n`);
} else {
  const row = (label, v) => `| ${label.padEnd(24)} | ${String(v.load).padStart(9)} | ${String(v.connect).padStart(16)} | ${String(v.total).padStart(11)} | ${String(v.wall).padStart(14)} |`;
  process.stdout.write(
    [
      `PostgreSQL client in a fresh process, bundled and minified (median of ${RUNS} runs, Node ${process.version}, ms)`,
      '',
      '| client                   | load      | connect+SELECT 1 | in-process  | process wall   |',
      '|--------------------------|-----------|------------------|-------------|----------------|',
      row('postgres (porsager)', result.postgres),
      row('pg (node-postgres)', result.pg),
      row('ratio pg / postgres', ratio),
      '',
      `bundle size: postgres ${(sizes.postgres / 1024).toFixed(0)} KB, pg ${(sizes.pg / 1024).toFixed(0)} KB (minified, with every dependency)`,
      '',
    ].join('\n'),
  );
}
