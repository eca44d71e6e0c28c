/**
 * The shared store's schema on a real PostgreSQL (test/support/postgres-server.ts):
 * created on first use, versioned, refused when newer than the client or when the
 * role may not create it, safe when several clients create it at once; the journal's
 * idempotency key and its change notification.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import postgres from 'postgres';
import { init, isStoreSchemaError, migrate, status } from '../../src/engine/store/postgres/schema';
import { LATEST_SCHEMA_VERSION, RUN_NOTIFY_CHANNEL } from '../../src/engine/store/postgres/migrations';
import { createTestDatabase, createTestRole } from '../support/postgres-server';

function connect(url: string, t: { after(fn: () => unknown): unknown }, opts: postgres.Options<{}> = {}): postgres.Sql {
  const sql = postgres(url, { max: 4, onnotice: () => {}, ...opts });
  t.after(() => sql.end({ timeout: 5 }));
  return sql;
}

async function tablesOf(sql: postgres.Sql): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'stategate%' ORDER BY 1`;
  return rows.map((r) => r.name);
}

test('an empty database reads as missing; init creates every table and records the version', async (t) => {
  const db = await createTestDatabase(t, { empty: true });
  const sql = connect(db.url, t);
  assert.deepEqual(await status(sql), { version: 0, latest: LATEST_SCHEMA_VERSION, state: 'missing', namespace: 'public', canCreate: true });
  assert.deepEqual(await tablesOf(sql), []);
  const after = await init(sql, 'test-client');
  assert.equal(after.state, 'current');
  assert.equal(after.version, LATEST_SCHEMA_VERSION);
  assert.deepEqual(await tablesOf(sql), ['stategate_active_runs', 'stategate_answers', 'stategate_journal', 'stategate_runs', 'stategate_schema']);
  const rows = await sql`SELECT version, applied_by FROM stategate_schema ORDER BY version`;
  assert.equal(rows.length, LATEST_SCHEMA_VERSION);
  assert.equal(rows[0]!.applied_by, 'test-client');
  // Once current, migrate applies nothing and init changes nothing.
  assert.deepEqual(await migrate(sql), { from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION, applied: [] });
  assert.equal((await init(sql)).state, 'current');
  assert.equal((await sql`SELECT count(*)::int AS n FROM stategate_schema`)[0]!.n, LATEST_SCHEMA_VERSION);
});

test('eight clients initialising one empty database at once: all succeed, the schema is made once', async (t) => {
  const db = await createTestDatabase(t, { empty: true });
  const clients = Array.from({ length: 8 }, () => connect(db.url, t, { max: 1 }));
  const results = await Promise.all(clients.map((sql, i) => init(sql, `client-${i}`)));
  assert.ok(results.every((r) => r.state === 'current'));
  const rows = await clients[0]!`SELECT version FROM stategate_schema`;
  assert.deepEqual(rows.map((r) => r.version), Array.from({ length: LATEST_SCHEMA_VERSION }, (_, i) => i + 1));
});

test('a schema newer than the client is refused by status, init and migrate, with what to do', async (t) => {
  const db = await createTestDatabase(t);
  const sql = connect(db.url, t);
  assert.equal((await status(sql)).state, 'current');
  await sql`INSERT INTO stategate_schema (version, name, applied_by) VALUES (${LATEST_SCHEMA_VERSION + 1}, 'from the future', 'a newer stategate')`;
  const s = await status(sql);
  assert.equal(s.state, 'too_new');
  assert.equal(s.version, LATEST_SCHEMA_VERSION + 1);
  for (const attempt of [() => init(sql), () => migrate(sql)]) {
    await assert.rejects(attempt(), (err: unknown) => {
      assert.ok(isStoreSchemaError(err));
      assert.equal(err.reason, 'schema_too_new');
      assert.match(err.message, new RegExp(`version ${LATEST_SCHEMA_VERSION + 1}, newer than this stategate knows \\(${LATEST_SCHEMA_VERSION}\\)`));
      assert.match(err.message, /update stategate/);
      return true;
    });
  }
});

test('a role without CREATE gets a clear error on an empty database, and works once granted or once the schema exists', async (t) => {
  const db = await createTestDatabase(t, { empty: true });
  const admin = connect(db.url, t);
  const { role, urlFor } = await createTestRole(t, db.url, { prefix: 'sg_agent' });
  // PostgreSQL 15+: only the database owner may create in schema public; say so explicitly for older servers.
  await admin.unsafe(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
  const agent = connect(urlFor(db.url), t);
  const s = await status(agent);
  assert.equal(s.state, 'missing');
  assert.equal(s.canCreate, false);
  await assert.rejects(init(agent), (err: unknown) => {
    assert.ok(isStoreSchemaError(err));
    assert.equal(err.reason, 'schema_permission');
    assert.match(err.message, new RegExp(`role "${role}" may not create the shared store's tables in schema "public", so it cannot create them`));
    assert.match(err.message, /stategate store init/);
    assert.match(err.message, new RegExp(`GRANT CREATE ON SCHEMA public TO "${role}"`));
    return true;
  });
  assert.deepEqual(await tablesOf(admin), [], 'nothing half-made');
  // The owner creates it; until it grants the tables, the role is told what to ask for.
  await init(admin);
  await assert.rejects(init(agent), (err: unknown) => {
    assert.ok(isStoreSchemaError(err));
    assert.equal(err.reason, 'schema_permission');
    assert.match(err.message, new RegExp(`role "${role}" may not read the shared store's tables in schema "public": ask the database owner to GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "${role}"`));
    return true;
  });
  // Granted, the role without CREATE uses the schema as it is.
  await admin.unsafe(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
  assert.equal((await init(agent)).state, 'current');
  // Those grants are all a client needs (docs/team.md): write a run and its journal (the trigger notifies as the client).
  await agent.begin(async (tx) => {
    await tx`INSERT INTO stategate_runs (run_id, project_key, snapshot, status, last_seq) VALUES ('r', 'p', ${tx.json({})}, 'active', 1)`;
    await tx`INSERT INTO stategate_journal (run_id, seq, entry) VALUES ('r', 1, ${tx.json({})})`;
    await tx`INSERT INTO stategate_active_runs (project_key, run_id) VALUES ('p', 'r') ON CONFLICT (project_key) DO UPDATE SET run_id = EXCLUDED.run_id`;
  });
  // ... and it may not change the schema.
  await assert.rejects(agent.unsafe('DROP TABLE stategate_journal'), (err: { code?: string }) => err.code === '42501');
});

test('a journal entry is announced on the run channel as run:seq when it commits', async (t) => {
  const db = await createTestDatabase(t);
  const sql = connect(db.url, t);
  const heard: string[] = [];
  let wake: () => void = () => {};
  const twoHeard = new Promise<void>((r) => (wake = r));
  await sql.listen(RUN_NOTIFY_CHANNEL, (payload) => {
    heard.push(payload);
    if (heard.length === 2) wake();
  });
  await sql.begin(async (tx) => {
    await tx`INSERT INTO stategate_runs (run_id, project_key, snapshot, status, last_seq) VALUES ('run-a', 'github.com/acme/app', ${tx.json({ state: 'plan' })}, 'active', 2)`;
    await tx`INSERT INTO stategate_journal (run_id, seq, entry) VALUES ('run-a', 1, ${tx.json({ type: 'start' })}), ('run-a', 2, ${tx.json({ type: 'event' })})`;
  });
  await twoHeard;
  assert.deepEqual(heard, ['run-a:1', 'run-a:2']);
  // A rolled-back entry is never announced.
  await sql
    .begin(async (tx) => {
      await tx`INSERT INTO stategate_journal (run_id, seq, entry) VALUES ('run-a', 3, ${tx.json({ type: 'event' })})`;
      throw new Error('roll back');
    })
    .catch(() => undefined);
  await sql`SELECT pg_notify(${RUN_NOTIFY_CHANNEL}, 'marker')`;
  while (heard.length < 3) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(heard, ['run-a:1', 'run-a:2', 'marker']);
});

test('the idempotency key is unique per run: a retried insert adds nothing and the first answer stays', async (t) => {
  const db = await createTestDatabase(t);
  const sql = connect(db.url, t);
  for (const run of ['run-a', 'run-b']) {
    await sql`INSERT INTO stategate_runs (run_id, project_key, snapshot, status) VALUES (${run}, 'p', ${sql.json({})}, 'active')`;
  }
  const insert = (run: string, seq: number, key: string | null, result: unknown) =>
    sql`INSERT INTO stategate_journal (run_id, seq, entry, idempotency_key, result) VALUES (${run}, ${seq}, ${sql.json({ seq })}, ${key}, ${sql.json(result as never)})
        ON CONFLICT (run_id, idempotency_key) DO NOTHING RETURNING seq`;
  assert.equal((await insert('run-a', 1, 'toolu_1', { allow: true })).length, 1);
  assert.equal((await insert('run-a', 2, 'toolu_1', { allow: false })).length, 0, 'the retry inserted nothing');
  assert.equal((await insert('run-b', 1, 'toolu_1', { allow: false })).length, 1, 'another run may use the same key');
  assert.equal((await insert('run-a', 2, null, {})).length, 1);
  assert.equal((await insert('run-a', 3, null, {})).length, 1, 'entries without a key never conflict');
  const [first] = await sql`SELECT result FROM stategate_journal WHERE run_id = 'run-a' AND idempotency_key = 'toolu_1'`;
  assert.deepEqual(first!.result, { allow: true });
  // The journal's key is (run, seq): a second writer of the same seq fails instead of forking the journal.
  await assert.rejects(insert('run-a', 3, 'toolu_9', {}), (err: { code?: string }) => err.code === '23505');
});

test('a test database copied from the template is at the latest version', async (t) => {
  const db = await createTestDatabase(t);
  const sql = connect(db.url, t);
  assert.equal((await status(sql)).state, 'current');
  await sql.end();
  await db.drop();
  const admin = connect(new URL('/postgres', db.url).toString().replace(/\/postgres$/, '/postgres'), t);
  assert.equal((await admin`SELECT count(*)::int AS n FROM pg_database WHERE datname = ${db.name}`)[0]!.n, 0, 'dropped');
});
