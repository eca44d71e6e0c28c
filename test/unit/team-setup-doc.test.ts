/**
 * docs/team.md "Setting up a shared run", done as written against the real
 * server: its SQL blocks (taken from the document, with fresh names) and the
 * `stategate store` commands. The owner creates the store; the client role
 * reads and writes runs, sees tables later migrations add (default
 * privileges), and may not change the schema.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import postgres from 'postgres';
import { cli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';
import { testServerUrl, withDatabase } from '../support/postgres-server';

const DOC = path.resolve(__dirname, '..', '..', 'docs', 'team.md');

/** The ```sql blocks of the section, in order. */
function sqlBlocks(section: string): string[] {
  const text = fs.readFileSync(DOC, 'utf8');
  const start = text.indexOf(`## ${section}`);
  assert.ok(start >= 0, `docs/team.md has no section ${section}`);
  const end = text.indexOf('\n## ', start + 1);
  const body = text.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

test('the setup of docs/team.md works as written: owner creates, client uses, default privileges cover later tables', async (t) => {
  const [create, grants] = sqlBlocks('Setting up a shared run');
  const [roleSettings] = sqlBlocks('Server settings');
  assert.ok(create && grants && roleSettings, 'the sections keep their SQL blocks');
  const id = randomBytes(4).toString('hex');
  const names = { owner: `sg_doc_owner_${id}`, client: `sg_doc_client_${id}`, db: `sg_doc_${id}` };
  const passwords = [randomBytes(10).toString('hex'), randomBytes(10).toString('hex')];
  const fill = (sql: string) => {
    let i = 0;
    return sql
      .replace(/\bstategate_owner\b/g, names.owner)
      .replace(/\bstategate_client\b/g, names.client)
      .replace(/DATABASE stategate\b/g, `DATABASE ${names.db}`)
      .replace(/'\.\.\.'/g, () => `'${passwords[i++]}'`);
  };
  const server = await testServerUrl();
  const superuser = postgres(server, { max: 1, onnotice: () => {} });
  t.after(async () => {
    await superuser.unsafe(`DROP DATABASE IF EXISTS ${names.db} WITH (FORCE)`).catch(() => undefined);
    await superuser.unsafe(`DROP ROLE IF EXISTS ${names.client}`).catch(() => undefined);
    await superuser.unsafe(`DROP ROLE IF EXISTS ${names.owner}`).catch(() => undefined);
    await superuser.end({ timeout: 5 });
  });
  // CREATE DATABASE cannot run in a transaction block: one statement at a time.
  for (const statement of fill(create).split(/;\s*\n/).map((s) => s.replace(/--.*$/gm, '').trim()).filter(Boolean)) await superuser.unsafe(statement);

  const as = (role: string, password: string) => {
    const u = new URL(withDatabase(server, names.db));
    u.username = role;
    u.password = '';
    return { STATEGATE_STORE_URL: u.toString(), PGPASSWORD: password };
  };
  const ownerEnv = as(names.owner, passwords[0]!);
  const clientEnv = as(names.client, passwords[1]!);
  const cwd = tempDir('sg-team-doc-', t);

  // Before the owner has created anything, the client may not.
  const early = cli(['store', 'init'], { cwd, env: clientEnv });
  assert.equal(early.code, 1, early.stderr);
  assert.match(early.stderr, /may not create the shared store's tables/);

  const init = cli(['store', 'init'], { cwd, env: ownerEnv });
  assert.equal(init.code, 0, init.stderr);
  const owner = postgres(withDatabase(server, names.db).replace(/\/\/[^@]*@/, `//${names.owner}:${passwords[0]}@`), { max: 1, onnotice: () => {} });
  t.after(() => owner.end({ timeout: 5 }));
  await owner.unsafe(fill(grants));
  await superuser.unsafe(fill(roleSettings));

  const status = cli(['store', 'status', '--json'], { cwd, env: clientEnv });
  assert.equal(status.code, 0, status.stderr);
  assert.equal(status.json.schema.state, 'current');
  const client = postgres(withDatabase(server, names.db).replace(/\/\/[^@]*@/, `//${names.client}:${passwords[1]}@`), { max: 1, onnotice: () => {} });
  t.after(() => client.end({ timeout: 5 }));
  await client.begin(async (tx) => {
    await tx`INSERT INTO stategate_runs (run_id, project_key, snapshot, status, last_seq) VALUES ('r', 'p', ${tx.json({})}, 'active', 1)`;
    await tx`INSERT INTO stategate_journal (run_id, seq, entry) VALUES ('r', 1, ${tx.json({})})`;
  });
  // The role settings of "Server settings" are in force for the client's sessions.
  const [settings] = await client`SELECT current_setting('lock_timeout') AS lock, current_setting('idle_in_transaction_session_timeout') AS idle`;
  assert.deepEqual({ ...settings }, { lock: '2s', idle: '10s' });
  // A table a later migration adds (created by the owner) is the client's to use through the default privileges.
  await owner.unsafe('CREATE TABLE stategate_later (x int)');
  await client`INSERT INTO stategate_later VALUES (1)`;
  // The client may not change the schema.
  await assert.rejects(client.unsafe('DROP TABLE stategate_runs'), (err: { code?: string }) => err.code === '42501');
  await assert.rejects(client.unsafe('CREATE TABLE stategate_mine (x int)'), (err: { code?: string }) => err.code === '42501');
});
