/**
 * Store URLs to client options, and every way a connection to the shared store
 * fails, classified, against the real server (test/support/postgres-server.ts):
 * closed port, silent server, unknown host, wrong password, TLS the server does
 * not offer, a row lock held by another session, a missing grant, a missing
 * database, a schema too new. No message carries the password.
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import postgres from 'postgres';
import { DEFAULT_STORE_TIMEOUTS, redactUrl, storeConnectOptions, storeUrlFromEnv, type StoreConnectOptions } from '../../src/engine/store/postgres/connect-options';
import { classifyStoreError, describeStoreFailure, type StoreFailure } from '../../src/engine/store/postgres/classify-error';
import { init, StoreSchemaError } from '../../src/engine/store/postgres/schema';
import { LATEST_SCHEMA_VERSION } from '../../src/engine/store/postgres/migrations';
import { createTestDatabase, createTestRole, silentPort, testServerUrl } from '../support/postgres-server';

type Owner = { after(fn: () => unknown): unknown };

function open(o: StoreConnectOptions, t: Owner): postgres.Sql {
  const sql = postgres(o.options);
  t.after(() => sql.end({ timeout: 1 }));
  return sql;
}

/** Run one query through the store's options and classify how it fails. */
async function failureOf(url: string, t: Owner, env: NodeJS.ProcessEnv = {}, query: (sql: postgres.Sql) => Promise<unknown> = (sql) => sql`SELECT 1`): Promise<StoreFailure> {
  const o = storeConnectOptions(url, { env, timeouts: { connectTimeoutSeconds: 2 } });
  const sql = open(o, t);
  try {
    await query(sql);
  } catch (err) {
    return classifyStoreError(err, { target: o.redacted, secrets: [o.options.password as string | undefined] });
  }
  assert.fail('the query was expected to fail');
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function assertNoSecret(f: StoreFailure, secret: string): void {
  const text = JSON.stringify(f) + describeStoreFailure(f);
  assert.ok(!text.includes(secret), `the password appears in: ${text}`);
}

test('redactUrl hides the password wherever it is written, and only the password', () => {
  assert.equal(redactUrl('postgres://ann:s3cr%40t@db.example:6432/team?sslmode=verify-full'), 'postgres://ann:***@db.example:6432/team?sslmode=verify-full');
  assert.equal(redactUrl('postgresql://ann@db/team?password=hunter2&sslmode=require'), 'postgresql://ann@db/team?password=***&sslmode=require');
  assert.equal(redactUrl('postgres://ann@db/team'), 'postgres://ann@db/team');
  assert.equal(redactUrl('not a url //ann:hunter2@db password=hunter2'), 'not a url //***@db password=***');
  assert.equal(redactUrl('ann:hunter2@db/x'), '***@db/x');
  assert.equal(redactUrl('postgress://ann:hunter2/x@db/y'), 'postgress://***@db/y');
});

test('options: user, password (URL first, then PGPASSWORD), database, TLS per sslmode, timeouts as session settings', () => {
  const a = storeConnectOptions('postgres://ann:p%40ss@db.example:6432/team?sslmode=verify-full&lock_timeout=750', { env: { PGPASSWORD: 'from-env' } });
  assert.equal(a.options.password, 'p@ss');
  assert.equal(a.user, 'ann');
  assert.equal(a.host, 'db.example');
  assert.equal(a.port, 6432);
  assert.equal(a.database, 'team');
  assert.equal(a.redacted, 'postgres://ann:***@db.example:6432/team?sslmode=verify-full&lock_timeout=750');
  assert.deepEqual(a.options.ssl, { rejectUnauthorized: true });
  assert.equal(a.options.connection?.lock_timeout, 750);
  assert.equal(a.options.connection?.statement_timeout, DEFAULT_STORE_TIMEOUTS.statementTimeoutMs);
  assert.equal(a.options.connection?.idle_in_transaction_session_timeout, DEFAULT_STORE_TIMEOUTS.idleInTransactionMs);
  assert.equal(a.options.connect_timeout, DEFAULT_STORE_TIMEOUTS.connectTimeoutSeconds);
  const b = storeConnectOptions('postgresql://bob@[::1]/team', { env: { PGPASSWORD: 'from-env' } });
  assert.equal(b.options.password, 'from-env');
  assert.equal(b.host, '::1');
  assert.equal(b.sslmode, 'prefer');
  assert.equal(b.options.ssl, 'prefer');
  assert.equal(storeConnectOptions('postgres://c@h/d?sslmode=disable', { env: {} }).options.ssl, false);
  assert.equal(storeConnectOptions('postgres://c@h/d?sslmode=require', { env: {} }).options.ssl, 'require');
  assert.equal(storeConnectOptions('postgres://c@h/d', { env: {} }).options.password, undefined);
  assert.equal(storeUrlFromEnv({ STATEGATE_STORE_URL: '  ' }), undefined);
  assert.equal(storeUrlFromEnv({ STATEGATE_STORE_URL: 'postgres://h/d' }), 'postgres://h/d');
});

test('unusable URLs are refused with a redacted message and classified as invalid_url', () => {
  const cases: [string, RegExp][] = [
    ['mysql://ann:hunter2@h/d', /must start with postgres:\/\/ or postgresql:\/\/, not mysql:\/\/ \(mysql:\/\/\*\*\*@h\/d\)/],
    ['postgres://ann:hunter2@h/d?sslmode=verify', /sslmode 'verify' is not one of disable, allow, prefer, require, verify-ca, verify-full/],
    ['postgres://ann:hunter2@h/d?ssl=true', /unknown parameter 'ssl'/],
    ['postgres://ann:hunter2@h/d?lock_timeout=soon', /lock_timeout must be a positive whole number, got 'soon'/],
    ['ann:hunter2@h', /must start with postgres:\/\/ or postgresql:\/\/, not ann:\/\/ \(\*\*\*@h\)/],
  ];
  for (const [url, pattern] of cases) {
    assert.throws(
      () => storeConnectOptions(url, { env: {} }),
      (err: Error) => {
        assert.match(err.message, pattern);
        assert.ok(!err.message.includes('hunter2'), err.message);
        const f = classifyStoreError(err);
        assert.equal(f.reason, 'invalid_url');
        return true;
      },
    );
  }
});

test('the session settings are in force from the first statement', async (t) => {
  const db = await createTestDatabase(t);
  const o = storeConnectOptions(db.url, { env: {}, timeouts: { lockTimeoutMs: 1234, statementTimeoutMs: 4321, idleInTransactionMs: 5678, keepAliveSeconds: 7 }, applicationName: 'stategate hook (test)' });
  const sql = open(o, t);
  const [row] = await sql`SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS stmt,
    current_setting('idle_in_transaction_session_timeout') AS idle, current_setting('tcp_keepalives_idle') AS ka,
    current_setting('application_name') AS app`;
  assert.deepEqual({ ...row }, { lock: '1234ms', stmt: '4321ms', idle: '5678ms', ka: '7', app: 'stategate hook (test)' });
});

test('a closed port is "refused"', async (t) => {
  const port = await freePort();
  const f = await failureOf(`postgres://postgres:hunter2@127.0.0.1:${port}/x`, t);
  assert.equal(f.reason, 'refused');
  assert.match(f.message, new RegExp(`the store server at postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:${port}/x refused the connection`));
  assert.match(f.recovery, /start the PostgreSQL server or correct the host and port/);
  assertNoSecret(f, 'hunter2');
});

test('a server that accepts and never answers is a "timeout" after connect_timeout', async (t) => {
  const port = await silentPort(t);
  const f = await failureOf(`postgres://postgres:hunter2@127.0.0.1:${port}/x?connect_timeout=1`, t);
  assert.equal(f.reason, 'timeout');
  assert.equal(f.code, 'CONNECT_TIMEOUT');
  assert.match(f.message, /did not answer in time while connecting/);
  assertNoSecret(f, 'hunter2');
});

test('a host name that does not resolve is "unreachable"', async (t) => {
  const f = await failureOf('postgres://postgres:hunter2@no-such-host.invalid:5432/x', t);
  assert.equal(f.reason, 'unreachable', JSON.stringify(f));
  assert.match(f.recovery, /check the host name/);
});

test('a wrong password is "auth_failed" (28P01), and the wrong password is not in the message', async (t) => {
  const wrong = `wrong-${randomBytes(6).toString('hex')}`;
  const url = new URL(await testServerUrl());
  url.password = wrong;
  const f = await failureOf(url.toString(), t);
  assert.equal(f.reason, 'auth_failed');
  assert.equal(f.code, '28P01');
  assert.match(f.recovery, /PGPASSWORD/);
  assertNoSecret(f, wrong);
  // The same through PGPASSWORD with no password in the URL.
  url.password = '';
  const g = await failureOf(url.toString(), t, { PGPASSWORD: wrong });
  assert.equal(g.reason, 'auth_failed');
  assertNoSecret(g, wrong);
});

test('sslmode=require against a server without TLS is "tls_refused"; prefer connects in clear', async (t) => {
  const url = new URL(await testServerUrl());
  url.search = '?sslmode=require';
  const f = await failureOf(url.toString(), t);
  assert.equal(f.reason, 'tls_refused', JSON.stringify(f));
  assert.match(f.recovery, /sslmode/);
  url.search = '?sslmode=prefer';
  const sql = open(storeConnectOptions(url.toString(), { env: {} }), t);
  assert.equal((await sql`SELECT 1 AS one`)[0]!.one, 1);
});

test('a row lock held by another session past lock_timeout is "lock_timeout" (55P03), and the holder keeps its lock', async (t) => {
  const db = await createTestDatabase(t);
  const holder = postgres(db.url, { max: 1, onnotice: () => {} });
  t.after(() => holder.end({ timeout: 1 }));
  await holder`INSERT INTO stategate_runs (run_id, project_key, snapshot, status) VALUES ('run-1', 'p', ${holder.json({})}, 'active')`;
  let release: () => void = () => {};
  const released = new Promise<void>((r) => (release = r));
  let locked: () => void = () => {};
  const isLocked = new Promise<void>((r) => (locked = r));
  const holding = holder.begin(async (tx) => {
    await tx`SELECT run_id FROM stategate_runs WHERE run_id = 'run-1' FOR UPDATE`;
    locked();
    await released;
  });
  await isLocked;
  const o = storeConnectOptions(db.url, { env: {}, timeouts: { lockTimeoutMs: 200 } });
  const sql = open(o, t);
  const err = await sql.begin((tx) => tx`SELECT run_id FROM stategate_runs WHERE run_id = 'run-1' FOR UPDATE`).then(
    () => undefined,
    (e: unknown) => e,
  );
  const f = classifyStoreError(err, { target: o.redacted });
  assert.equal(f.reason, 'lock_timeout');
  assert.equal(f.code, '55P03');
  assert.match(f.recovery, /idle_in_transaction_session_timeout/);
  release();
  await holding;
  // Released, the same session takes the lock at once.
  await sql.begin((tx) => tx`SELECT run_id FROM stategate_runs WHERE run_id = 'run-1' FOR UPDATE`);
});

test('a statement past statement_timeout is "timeout" (57014)', async (t) => {
  const db = await createTestDatabase(t);
  const o = storeConnectOptions(db.url, { env: {}, timeouts: { statementTimeoutMs: 100 } });
  const sql = open(o, t);
  const err = await sql`SELECT pg_sleep(5)`.then(
    () => undefined,
    (e: unknown) => e,
  );
  const f = classifyStoreError(err, { target: o.redacted });
  assert.equal(f.reason, 'timeout');
  assert.equal(f.code, '57014');
});

test('a role without grants on the tables is "permission_denied" (42501) with the grants to ask for', async (t) => {
  const db = await createTestDatabase(t);
  const { role, password, urlFor } = await createTestRole(t, db.url, { prefix: 'sg_nogrant' });
  const f = await failureOf(urlFor(db.url), t, {}, (sql) => sql`SELECT * FROM stategate_runs`);
  assert.equal(f.reason, 'permission_denied');
  assert.equal(f.code, '42501');
  assert.match(f.message, /permission denied for table stategate_runs/);
  assert.match(f.recovery, /grants docs\/team\.md "Setting up a shared run" lists/);
  assertNoSecret(f, password);
  // The schema check says the same, through init.
  const g = await failureOf(urlFor(db.url), t, {}, (sql) => init(sql));
  assert.equal(g.reason, 'permission_denied');
  assert.match(g.recovery, new RegExp(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "${role}"`));
});

test('a database that does not exist is "database_missing" (3D000)', async (t) => {
  const u = new URL(await testServerUrl());
  u.pathname = `/no_such_db_${randomBytes(3).toString('hex')}`;
  const f = await failureOf(u.toString(), t);
  assert.equal(f.reason, 'database_missing');
  assert.match(f.recovery, /stategate store init/);
});

test('a schema newer than the client is "schema_too_new" with the way to recover', async (t) => {
  const db = await createTestDatabase(t);
  const admin = postgres(db.url, { max: 1, onnotice: () => {} });
  t.after(() => admin.end({ timeout: 1 }));
  await admin`INSERT INTO stategate_schema (version, name, applied_by) VALUES (${LATEST_SCHEMA_VERSION + 3}, 'future', 'test')`;
  const f = await failureOf(db.url, t, {}, (sql) => init(sql));
  assert.equal(f.reason, 'schema_too_new');
  assert.match(f.message, new RegExp(`version ${LATEST_SCHEMA_VERSION + 3}, newer than this stategate knows`));
  assert.match(f.recovery, /^update stategate on this machine/);
  assert.ok(classifyStoreError(new StoreSchemaError('schema_too_new', 'x: y')).reason === 'schema_too_new');
});

test('a session ended by the server mid-transaction is "connection_lost"', async (t) => {
  const db = await createTestDatabase(t);
  const o = storeConnectOptions(db.url, { env: {}, timeouts: { idleInTransactionMs: 150 } });
  const sql = open(o, t);
  const err = await sql
    .begin(async (tx) => {
      await tx`SELECT 1`;
      await new Promise((r) => setTimeout(r, 600));
      await tx`SELECT 2`;
    })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  const f = classifyStoreError(err, { target: o.redacted });
  assert.equal(f.reason, 'connection_lost', JSON.stringify({ f, err: String(err) }));
});
