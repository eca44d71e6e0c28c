/**
 * The shared store's health as VS Code's status bar shows it (issue 20): the
 * active run read from a store that cannot be used is `unreadable` and carries
 * the store's problem (the reason, what happened, what to do), for a server
 * that does not answer, one that refuses the password, and a schema newer
 * than this client; a usable store carries none. The status bar's words for
 * each (src/vscode/runtime/store-health.ts) name the store, not the run, and
 * say that nothing falls back to the local files. Against the suite's real
 * PostgreSQL (test/support/postgres-server.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { PostgresRunStorage } from '../../src/engine/store/postgres/pg-storage';
import { LATEST_SCHEMA_VERSION } from '../../src/engine/store/postgres/migrations';
import { storeHealthDetails, storeHealthLabel } from '../../src/vscode/runtime/store-health';
import type { ActiveRun } from '../../src/engine/store/run-store';
import { createTestDatabase, createTestRole, silentPort } from '../support/postgres-server';

type Snap = { runId: string };
const checkRun = (v: unknown): string | undefined => (v && typeof v === 'object' && typeof (v as Snap).runId === 'string' ? undefined : 'not a run');

async function readActive(t: { after(fn: () => unknown): unknown }, url: string, timeoutMs = 3000): Promise<ActiveRun<Snap>> {
  const store = new PostgresRunStorage<Snap>({ url, project: 'example.com/team/repo', checkRun, client: 'test', timeoutMs });
  t.after(() => store.close());
  return await store.readActive();
}

test('a usable store: the active run reads as none, with no store problem', async (t) => {
  const db = await createTestDatabase(t);
  const read = await readActive(t, db.url);
  assert.equal(read.kind, 'none');
});

test('a server that does not answer: unreadable, the store problem says timeout, within the bound', async (t) => {
  const port = await silentPort(t);
  const read = await readActive(t, `postgres://nobody:secret-pw-123@127.0.0.1:${port}/stategate`, 1500);
  assert.equal(read.kind, 'unreadable');
  assert.ok(read.kind === 'unreadable' && read.store, 'carries the store problem');
  assert.equal(read.store.reason, 'timeout');
  assert.equal(storeHealthLabel(read.store), 'store not answering');
  assert.doesNotMatch(JSON.stringify(read), /secret-pw-123/);
});

test('a wrong password: unreadable, the store problem says auth_failed, without the password', async (t) => {
  const db = await createTestDatabase(t);
  const role = await createTestRole(t, db.url, { prefix: 'sg_health' });
  const wrong = new URL(role.urlFor(db.url));
  wrong.password = 'not-the-password-42';
  const read = await readActive(t, wrong.toString());
  assert.ok(read.kind === 'unreadable' && read.store, `unreadable with a store problem: ${JSON.stringify(read)}`);
  assert.equal(read.store.reason, 'auth_failed');
  assert.equal(storeHealthLabel(read.store), 'store login refused');
  assert.match(read.store.recovery, /PGPASSWORD|password/);
  assert.doesNotMatch(JSON.stringify(read), /not-the-password-42/);
});

test('a schema newer than this client: unreadable, the store problem says schema_too_new', async (t) => {
  const db = await createTestDatabase(t);
  const admin = postgres(db.url, { max: 1, onnotice: () => {} });
  await admin`INSERT INTO stategate_schema (version, name, applied_by) VALUES (${LATEST_SCHEMA_VERSION + 1}, 'future', 'test')`;
  await admin.end({ timeout: 5 });
  const read = await readActive(t, db.url);
  assert.ok(read.kind === 'unreadable' && read.store, `unreadable with a store problem: ${JSON.stringify(read)}`);
  assert.equal(read.store.reason, 'schema_too_new');
  assert.equal(storeHealthLabel(read.store), 'store schema too new');
  assert.match(read.store.recovery, /update stategate/i);
});

test('the status bar names each store failure as the store\'s, and its tooltip says what to do and that nothing falls back', () => {
  const reasons = ['unreachable', 'refused', 'timeout', 'connection_lost', 'unavailable', 'auth_failed', 'tls_refused', 'schema_too_new', 'permission_denied', 'database_missing', 'lock_timeout', 'invalid_url', 'no_project', 'store_error', 'something new'];
  for (const reason of reasons) {
    const label = storeHealthLabel({ reason, message: 'm', recovery: 'r' });
    assert.match(label, /store/, `${reason}: ${label}`);
  }
  assert.equal(storeHealthLabel({ reason: 'refused', message: '', recovery: '' }), 'store unreachable');
  assert.equal(storeHealthLabel({ reason: 'something new', message: '', recovery: '' }), 'store unusable');
  const details = storeHealthDetails({ reason: 'auth_failed', message: 'the store server rejected the password', recovery: 'set the right password' }, 'postgres://u:***@db:5432/sg');
  assert.match(details, /postgres:\/\/u:\*\*\*@db:5432\/sg/);
  assert.match(details, /rejected the password/);
  assert.match(details, /To fix: set the right password/);
  assert.match(details, /does not fall back to the local files/);
});
