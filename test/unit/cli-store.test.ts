/**
 * `stategate store init|status|migrate`, the built CLI against the real server
 * (test/support/postgres-server.ts): creating the schema, its status, refusals
 * with their exit codes, failures of the store as exit 3 with the reason, and
 * the password nowhere: not in any output, not in the store's tables.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { test } from 'node:test';
import postgres from 'postgres';
import { cli, type CliResult } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';
import { createTestDatabase, createTestRole } from '../support/postgres-server';
import { LATEST_SCHEMA_VERSION } from '../../src/engine/store/postgres/migrations';

type Owner = { after(fn: () => unknown): unknown };

/** A role with its own password that owns a fresh database, as a team's store owner would. */
async function teamDatabase(t: Owner, opts: { empty?: boolean } = {}): Promise<{ adminUrl: string; role: string; password: string; urlWithoutPassword: string; urlWithPassword: string }> {
  const db = await createTestDatabase(t, { empty: opts.empty ?? true });
  // Characters a URL must encode, to catch an encoded form leaking too.
  const owner = await createTestRole(t, db.url, {
    prefix: 'sg_team',
    password: `Pw-${randomBytes(9).toString('hex')}@/:%`,
    grant: (role) => `ALTER DATABASE "${db.name}" OWNER TO ${role}; ALTER SCHEMA public OWNER TO ${role}`,
  });
  const urlWithPassword = owner.urlFor(db.url);
  const u = new URL(urlWithPassword);
  u.password = '';
  return { adminUrl: db.url, role: owner.role, password: owner.password, urlWithoutPassword: u.toString(), urlWithPassword };
}

function store(args: string[], cwd: string, env: Record<string, string>): CliResult {
  return cli(['store', ...args], { cwd, env: { PGPASSWORD: '', STATEGATE_STORE_URL: '', ...env } });
}

test('init creates the schema, status reports it, a second init and migrate change nothing', async (t) => {
  const team = await teamDatabase(t);
  const cwd = tempDir('sg-store-cli-', t);
  const env = { STATEGATE_STORE_URL: team.urlWithoutPassword, PGPASSWORD: team.password };

  const before = store(['status', '--json'], cwd, env);
  assert.equal(before.code, 1, before.stderr);
  assert.equal(before.json.schema.state, 'missing');
  assert.equal(before.json.runs, null);
  assert.match(before.json.server, /^PostgreSQL \d+/);

  const init = store(['init'], cwd, env);
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, new RegExp(`^init: created the store's tables \\(schema version ${LATEST_SCHEMA_VERSION}\\)`));
  assert.match(init.stdout, /schema: {2}version \d+ \(this stategate: \d+\), current/);

  const status = store(['status'], cwd, env);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, new RegExp(`^store: {3}postgres://${team.role}@127\\.0\\.0\\.1:\\d+/sgtest_`));
  assert.match(status.stdout, /runs: {4}0 \(0 projects with an active run\)/);

  const again = store(['init', '--json'], cwd, env);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(again.json.applied, []);
  const migrate = store(['migrate', '--json'], cwd, env);
  assert.equal(migrate.code, 0, migrate.stderr);
  assert.deepEqual([migrate.json.from, migrate.json.to, migrate.json.applied], [LATEST_SCHEMA_VERSION, LATEST_SCHEMA_VERSION, []]);

  // The count is read from the tables.
  const sql = postgres(team.adminUrl, { max: 1, onnotice: () => {} });
  await sql`INSERT INTO stategate_runs (run_id, project_key, snapshot, status) VALUES ('r1', 'p', ${sql.json({})}, 'active'), ('r2', 'p', ${sql.json({})}, 'done')`;
  await sql`INSERT INTO stategate_active_runs (project_key, run_id) VALUES ('p', 'r1')`;
  await sql.end();
  const counted = store(['status', '--json'], cwd, env);
  assert.deepEqual([counted.json.runs, counted.json.activeProjects], [2, 1]);
});

test('a schema newer than this stategate: status exits 1, init and migrate refuse with exit 1 and say what to do', async (t) => {
  const team = await teamDatabase(t);
  const cwd = tempDir('sg-store-cli-', t);
  const env = { STATEGATE_STORE_URL: team.urlWithPassword };
  assert.equal(store(['init'], cwd, env).code, 0);
  const sql = postgres(team.adminUrl, { max: 1, onnotice: () => {} });
  await sql`INSERT INTO stategate_schema (version, name, applied_by) VALUES (${LATEST_SCHEMA_VERSION + 1}, 'future', 'test')`;
  await sql.end();
  const status = store(['status', '--json'], cwd, env);
  assert.equal(status.code, 1);
  assert.equal(status.json.schema.state, 'too_new');
  for (const action of ['init', 'migrate']) {
    const r = store([action, '--json'], cwd, env);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.error.code, 'schema_too_new');
    assert.match(r.stderr, new RegExp(`newer than this stategate knows \\(${LATEST_SCHEMA_VERSION}\\).*update stategate on this machine`));
  }
});

test('a role that may not create the tables: init exits 1 with the grant to ask for', async (t) => {
  const db = await createTestDatabase(t, { empty: true });
  const { role, password, urlFor } = await createTestRole(t, db.url, { prefix: 'sg_agent', grant: () => 'REVOKE CREATE ON SCHEMA public FROM PUBLIC' });
  const r = store(['init'], tempDir('sg-store-cli-', t), { STATEGATE_STORE_URL: urlFor(db.url) });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`role "${role}" may not create the shared store's tables in schema "public".*GRANT CREATE ON SCHEMA public TO "${role}"`));
  assert.ok(!r.stderr.includes(password));
});

test('no URL, an unusable URL, a wrong action: exit 2 with the way to fix it', async (t) => {
  const cwd = tempDir('sg-store-cli-', t);
  const none = store(['status'], cwd, {});
  assert.equal(none.code, 2);
  assert.match(none.stderr, /STATEGATE_STORE_URL is not set/);
  const bad = store(['status', '--json'], cwd, { STATEGATE_STORE_URL: 'postgres://ann:hunter2@db/x?sslmode=maybe' });
  assert.equal(bad.code, 2);
  assert.equal(bad.json.error.code, 'invalid_url');
  assert.ok(!(bad.stdout + bad.stderr).includes('hunter2'));
  const wrong = store(['drop'], cwd, { STATEGATE_STORE_URL: 'postgres://db/x' });
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /unknown store action 'drop'/);
  const help = store(['--help'], cwd, {});
  assert.equal(help.code, 0);
  assert.match(help.stdout, /usage: stategate store init\|status\|migrate/);
});

test('a store that cannot be used exits 3 with the reason: refused, wrong password', async (t) => {
  const cwd = tempDir('sg-store-cli-', t);
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const refused = store(['status', '--json'], cwd, { STATEGATE_STORE_URL: `postgres://ann:hunter2@127.0.0.1:${port}/x` });
  assert.equal(refused.code, 3);
  assert.equal(refused.json.error.code, 'refused');
  assert.match(refused.stderr, new RegExp(`postgres://ann:\\*\\*\\*@127\\.0\\.0\\.1:${port}/x refused the connection`));
  const team = await teamDatabase(t);
  const wrong = store(['init', '--json'], cwd, { STATEGATE_STORE_URL: team.urlWithoutPassword, PGPASSWORD: `${team.password}x` });
  assert.equal(wrong.code, 3);
  assert.equal(wrong.json.error.code, 'auth_failed');
  assert.match(wrong.stderr, /rejected the password/);
});

test('the password appears in no output of any store command and nowhere in the store', async (t) => {
  const team = await teamDatabase(t);
  const cwd = tempDir('sg-store-cli-', t);
  const outputs: string[] = [];
  const forms = [team.password, encodeURIComponent(team.password)];
  const envs: Record<string, string>[] = [{ STATEGATE_STORE_URL: team.urlWithPassword }, { STATEGATE_STORE_URL: team.urlWithoutPassword, PGPASSWORD: team.password }];
  for (const env of envs) {
    for (const args of [['init'], ['init', '--json'], ['status'], ['status', '--json'], ['migrate'], ['migrate', '--json'], ['bogus'], ['status', 'extra']]) {
      const r = store(args, cwd, env);
      outputs.push(r.stdout, r.stderr);
    }
    // Failures carry the URL in their messages: a wrong database, a lock on the schema table.
    const u = new URL(env.STATEGATE_STORE_URL!);
    u.pathname = '/no_such_database';
    const r = store(['status', '--json'], cwd, { ...env, STATEGATE_STORE_URL: u.toString() });
    assert.equal(r.code, 3);
    outputs.push(r.stdout, r.stderr);
  }
  const all = outputs.join('\n');
  assert.match(all, /\*\*\*/, 'the masked URL was printed');
  for (const f of forms) assert.ok(!all.includes(f), 'the password appears in the output');
  // Nothing the commands wrote to the store holds it either: every text column of every stategate table.
  const sql = postgres(team.adminUrl, { max: 1, onnotice: () => {} });
  const dump = await sql`SELECT (SELECT coalesce(json_agg(s), '[]') FROM stategate_schema s)::text AS schema,
    (SELECT coalesce(json_agg(r), '[]') FROM stategate_runs r)::text AS runs,
    (SELECT coalesce(json_agg(j), '[]') FROM stategate_journal j)::text AS journal`;
  await sql.end();
  const stored = JSON.stringify(dump);
  assert.match(stored, /stategate .* store init/, 'the version table names who created it');
  for (const f of forms) assert.ok(!stored.includes(f), 'the password is stored');
  // Nor in the working folder.
  const files = fs.readdirSync(cwd, { recursive: true }) as string[];
  for (const file of files) {
    const p = path.join(cwd, file);
    if (fs.statSync(p).isFile()) for (const f of forms) assert.ok(!fs.readFileSync(p, 'utf8').includes(f), `${file} holds the password`);
  }
});
