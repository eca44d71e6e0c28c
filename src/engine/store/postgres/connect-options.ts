/**
 * From a store URL (STATEGATE_STORE_URL, or the one the extension passes) to
 * the options of a `postgres` client: who and where, TLS per sslmode, and the
 * session settings that keep a vanished client from holding a run's lock
 * (docs/team.md, "Server settings"). Also redactUrl(), so that no message, log
 * or journal entry ever carries the password. Only the driver's types are
 * imported: the engine's bundles load the driver only where a store is used.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import type { Options } from 'postgres';
import { STORE_URL_ENV } from './store-url-env.js';

export { STORE_URL_ENV };

export interface StoreTimeouts {
  /** Seconds to open a connection (TCP, TLS, authentication) before giving up. */
  readonly connectTimeoutSeconds: number;
  /** Milliseconds a statement waits for a row lock (a run held by another decision) before failing. */
  readonly lockTimeoutMs: number;
  /** Milliseconds any one statement may run. */
  readonly statementTimeoutMs: number;
  /** Milliseconds a session may sit in an open transaction; past it the server ends the session and frees its locks. */
  readonly idleInTransactionMs: number;
  /** Seconds of silence before TCP keepalive probes start, on both ends: a vanished client or server is noticed. */
  readonly keepAliveSeconds: number;
}

/**
 * A hook must answer within a few seconds whatever the server does, and a client
 * killed mid-transaction must not hold a run for long.
 */
export const DEFAULT_STORE_TIMEOUTS: StoreTimeouts = {
  connectTimeoutSeconds: 3,
  lockTimeoutMs: 2000,
  statementTimeoutMs: 5000,
  idleInTransactionMs: 10_000,
  keepAliveSeconds: 10,
};

export type SslMode = 'disable' | 'allow' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';
const SSL_MODES: readonly SslMode[] = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];

/** URL query parameters understood; any other is refused, so a misspelt sslmode never silently weakens TLS. */
const URL_PARAMS = ['sslmode', 'sslrootcert', 'connect_timeout', 'application_name', 'password', 'lock_timeout', 'statement_timeout', 'idle_in_transaction_session_timeout'] as const;

export class StoreUrlError extends Error {
  readonly storeUrlError = true;
}

export interface StoreConnectOptions {
  /** The URL with its password replaced, for every message. */
  readonly redacted: string;
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly sslmode: SslMode;
  readonly timeouts: StoreTimeouts;
  /** What to pass to `postgres(options)`; carries the password, so never print it. */
  readonly options: Options<{}>;
}

export interface ConnectOptionsInput {
  /** Environment to read PGPASSWORD (and PGUSER) from; process.env by default. */
  readonly env?: NodeJS.ProcessEnv;
  readonly timeouts?: Partial<StoreTimeouts>;
  /** Shown in pg_stat_activity (which machine and client holds a session). */
  readonly applicationName?: string;
  /** Pool size; a hook needs one connection. */
  readonly max?: number;
}

function parseUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new StoreUrlError(`the store URL is not a URL (${redactUrl(url)}): write it as postgres://USER@HOST:PORT/DATABASE?sslmode=verify-full`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new StoreUrlError(`the store URL must start with postgres:// or postgresql://, not ${u.protocol}// (${redactUrl(url)})`);
  }
  if (!u.hostname) throw new StoreUrlError(`the store URL names no host (${redactUrl(url)})`);
  for (const key of u.searchParams.keys()) {
    if (!(URL_PARAMS as readonly string[]).includes(key)) {
      throw new StoreUrlError(`the store URL has an unknown parameter '${key}' (${redactUrl(url)}); known: ${URL_PARAMS.join(', ')}`);
    }
  }
  return u;
}

function positiveInt(u: URL, key: string, fallback: number): number {
  const raw = u.searchParams.get(key);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new StoreUrlError(`the store URL's ${key} must be a positive whole number, got '${raw}' (${redactUrl(u.toString())})`);
  return n;
}

function tlsOptions(mode: SslMode, rootCertFile: string | null, url: string): Options<{}>['ssl'] {
  switch (mode) {
    case 'disable':
      return false;
    case 'allow':
    case 'prefer':
      return 'prefer';
    case 'require':
      // libpq: with a root certificate given, require verifies the chain as verify-ca does.
      if (!rootCertFile) return 'require';
      return { rejectUnauthorized: true, ca: readRootCert(rootCertFile, url), checkServerIdentity: () => undefined };
    case 'verify-ca':
      return { rejectUnauthorized: true, ...(rootCertFile ? { ca: readRootCert(rootCertFile, url) } : {}), checkServerIdentity: () => undefined };
    case 'verify-full':
      return { rejectUnauthorized: true, ...(rootCertFile ? { ca: readRootCert(rootCertFile, url) } : {}) };
  }
}

function readRootCert(file: string, url: string): string | undefined {
  if (file === 'system') return undefined;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new StoreUrlError(`cannot read sslrootcert ${file} of the store URL (${redactUrl(url)}): ${(err as Error).message}`);
  }
}

/** The client options for a store URL; throws StoreUrlError (its message redacted) when the URL is unusable. */
export function storeConnectOptions(url: string, input: ConnectOptionsInput = {}): StoreConnectOptions {
  const env = input.env ?? process.env;
  const u = parseUrl(url);
  const sslmode = (u.searchParams.get('sslmode') ?? 'prefer') as SslMode;
  if (!SSL_MODES.includes(sslmode)) throw new StoreUrlError(`the store URL's sslmode '${sslmode}' is not one of ${SSL_MODES.join(', ')} (${redactUrl(url)})`);
  const timeouts: StoreTimeouts = {
    ...DEFAULT_STORE_TIMEOUTS,
    ...input.timeouts,
    ...(u.searchParams.has('connect_timeout') ? { connectTimeoutSeconds: positiveInt(u, 'connect_timeout', 0) } : {}),
    ...(u.searchParams.has('lock_timeout') ? { lockTimeoutMs: positiveInt(u, 'lock_timeout', 0) } : {}),
    ...(u.searchParams.has('statement_timeout') ? { statementTimeoutMs: positiveInt(u, 'statement_timeout', 0) } : {}),
    ...(u.searchParams.has('idle_in_transaction_session_timeout') ? { idleInTransactionMs: positiveInt(u, 'idle_in_transaction_session_timeout', 0) } : {}),
  };
  // An empty PGPASSWORD counts as unset, as in libpq.
  const password = u.password ? decodeURIComponent(u.password) : (u.searchParams.get('password') ?? (env.PGPASSWORD || undefined));
  const user = u.username ? decodeURIComponent(u.username) : (env.PGUSER ?? os.userInfo().username);
  const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || user;
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = u.port ? Number(u.port) : 5432;
  const applicationName = u.searchParams.get('application_name') ?? input.applicationName ?? 'stategate';
  const options: Options<{}> = {
    host,
    port,
    database,
    username: user,
    ...(password !== undefined ? { password } : {}),
    ssl: tlsOptions(sslmode, u.searchParams.get('sslrootcert'), url),
    max: input.max ?? 1,
    connect_timeout: timeouts.connectTimeoutSeconds,
    keep_alive: timeouts.keepAliveSeconds,
    // Close idle connections, so a finished hook process exits at once and the panel holds no idle session for long.
    idle_timeout: 30,
    onnotice: () => {},
    // The store neither sends nor reads arrays: skip the driver's type lookup on each new
    // connection (a round trip every hook process would pay; bench --only=team counts them).
    fetch_types: false,
    // Sent in the startup packet: in force from the first statement, no extra round trip.
    connection: {
      application_name: applicationName,
      lock_timeout: timeouts.lockTimeoutMs,
      statement_timeout: timeouts.statementTimeoutMs,
      idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
      tcp_keepalives_idle: String(timeouts.keepAliveSeconds),
      tcp_keepalives_interval: String(Math.max(1, Math.ceil(timeouts.keepAliveSeconds / 2))),
      tcp_keepalives_count: '3',
    },
  };
  return { redacted: redactUrl(url), host, port, database, user, sslmode, timeouts, options };
}

/** The store URL from the environment, or undefined when the file store is in use. */
export function storeUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env[STORE_URL_ENV]?.trim();
  return url ? url : undefined;
}

const MASK = '***';

/** `url` with its password (in the user part or a password= parameter) replaced by ***. */
export function redactUrl(url: string): string {
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  if (u && (u.protocol === 'postgres:' || u.protocol === 'postgresql:')) {
    if (u.password) u.password = MASK;
    if (u.searchParams.has('password')) u.searchParams.set('password', MASK);
    return u.toString();
  }
  // Not a store URL (a typo, a missing scheme): where the password ends is unclear, so mask all of
  // the user part, from after "//" (or the word's start) to the last "@", and any password=... parameter.
  let text = url.replace(/(password=)[^&\s]*/gi, `$1${MASK}`);
  const at = text.lastIndexOf('@');
  if (at >= 0) {
    const slashes = text.lastIndexOf('//', at);
    const from = slashes >= 0 ? slashes + 2 : text.lastIndexOf(' ', at) + 1;
    text = text.slice(0, from) + MASK + text.slice(at);
  }
  return text;
}

/** `text` with every occurrence of each secret (and its URL-encoded form) replaced by ***. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s) continue;
    for (const form of new Set([s, encodeURIComponent(s)])) out = out.split(form).join(MASK);
  }
  return out;
}
