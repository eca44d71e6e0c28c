/**
 * What went wrong with the shared store, in terms a person can act on. Every
 * failure of the driver, the network or the schema maps to one reason with a
 * message and a recovery sentence; enforcement fails closed on each of them
 * (a hook denies with this text), so the text must say what to do, and must
 * never carry the password (callers pass it to be scrubbed from the driver's words).
 */
import { isStoreSchemaError } from './schema.js';
import { redactSecrets } from './connect-options.js';

export type StoreFailureReason =
  | 'unreachable'
  | 'refused'
  | 'timeout'
  | 'auth_failed'
  | 'tls_refused'
  | 'lock_timeout'
  | 'permission_denied'
  | 'schema_too_new'
  | 'database_missing'
  | 'unavailable'
  | 'connection_lost'
  | 'invalid_url'
  | 'store_error';

export interface StoreFailure {
  readonly reason: StoreFailureReason;
  /** What happened, naming the server by its redacted URL. */
  readonly message: string;
  /** What to do about it. */
  readonly recovery: string;
  /** The driver's or server's code (SQLSTATE, errno), when there was one. */
  readonly code?: string;
}

export interface ClassifyContext {
  /** The redacted store URL, to name the server. */
  readonly target?: string;
  /** Secrets (the password) that must not appear in the message. */
  readonly secrets?: readonly (string | undefined)[];
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

function fields(err: unknown): { code: string | undefined; message: string; reason?: string } {
  const e = err as { code?: unknown; message?: unknown; reason?: unknown } | null | undefined;
  return {
    code: typeof e?.code === 'string' ? e.code : undefined,
    message: typeof e?.message === 'string' ? e.message : String(err),
    ...(typeof e?.reason === 'string' ? { reason: e.reason } : {}),
  };
}

/** The failure an error of the store stands for. Never throws. */
export function classifyStoreError(err: unknown, ctx: ClassifyContext = {}): StoreFailure {
  const { code, message: raw } = fields(err);
  const said = redactSecrets(raw, ctx.secrets ?? []).replace(/\s+/g, ' ').trim();
  const at = ctx.target ? ` at ${ctx.target}` : '';
  const make = (reason: StoreFailureReason, message: string, recovery: string): StoreFailure => ({ reason, message, recovery, ...(code ? { code } : {}) });

  if (isStoreSchemaError(err)) {
    const [what, ...rest] = said.split(': ');
    const recovery = rest.join(': ') || 'see docs/team.md';
    if (err.reason === 'schema_too_new') return make('schema_too_new', `${what}${at}`, recovery);
    return make('permission_denied', `${what}${at}`, recovery);
  }
  if ((err as { storeUrlError?: unknown })?.storeUrlError === true) {
    return make('invalid_url', said, `fix ${'STATEGATE_STORE_URL'} (or the stategate.store setting); docs/team.md shows its form`);
  }
  switch (code) {
    case 'ECONNREFUSED':
      return make('refused', `the store server${at} refused the connection (nothing listens on that port)`, 'start the PostgreSQL server or correct the host and port in STATEGATE_STORE_URL');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
      return make('unreachable', `the store server${at} cannot be reached (${code})`, 'check the host name in STATEGATE_STORE_URL and that this machine has a network route to it');
    case 'CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return make('timeout', `the store server${at} did not answer in time while connecting`, 'check that the server is up and reachable from this machine (a firewall that drops packets looks like this), or raise connect_timeout in STATEGATE_STORE_URL');
    case '57014':
      return make('timeout', `a statement on the store${at} ran past statement_timeout and was cancelled`, 'the server is overloaded or a long query is in the way; retry, and see docs/team.md "Server settings"');
    case '28P01':
      return make('auth_failed', `the store server${at} rejected the password`, 'set the right password in PGPASSWORD (or the URL, or VS Code\'s stored secret) for the role in STATEGATE_STORE_URL');
    case '28000':
      return make('auth_failed', `the store server${at} refused this client: ${said}`, 'ask the server\'s administrator for a pg_hba.conf entry for this role, host and TLS setting');
    case '55P03':
      return make('lock_timeout', `the run is held by another decision on the store${at} longer than lock_timeout allows`, 'retry; if it persists, a client may be stuck in a transaction (the server ends it after idle_in_transaction_session_timeout), see docs/team.md "Server settings"');
    case '42501':
      return make('permission_denied', `the store role may not do this${at}: ${said}`, 'ask the database owner for the grants docs/team.md "Setting up a shared run" lists');
    case '3D000':
      return make('database_missing', `the store's database does not exist${at}`, 'create it (CREATE DATABASE) or correct the database name in STATEGATE_STORE_URL, then run `stategate store init`');
    case '53300':
    case '57P03':
    case '53000':
      return make('unavailable', `the store server${at} accepts no connection now: ${said}`, 'retry shortly; if it persists, raise max_connections or put a session-mode pooler in front (docs/team.md "Running behind a connection pooler")');
    case '57P01':
    case '57P02':
    case '25P03':
    case 'CONNECTION_CLOSED':
    case 'CONNECTION_ENDED':
    case 'CONNECTION_DESTROYED':
    case 'ECONNRESET':
    case 'EPIPE':
      if (/TLS|SSL|secure/i.test(said)) break;
      return make('connection_lost', `the connection to the store${at} was lost: ${said}`, 'retry; if it persists, check the server\'s log and the network between this machine and the server');
  }
  if ((code && TLS_CODES.has(code)) || /\b(TLS|SSL)\b|certificate|secure TLS connection/i.test(said)) {
    return make('tls_refused', `the TLS connection to the store${at} failed: ${said}`, 'check sslmode in STATEGATE_STORE_URL against what the server offers (sslmode=disable only on a trusted network), and sslrootcert for a private certificate authority');
  }
  return make('store_error', `the store${at} failed: ${said}`, 'retry; if it persists, run `stategate store status` and check the server\'s log');
}

/** One line for a person or a hook's deny: what happened, then what to do. */
export function describeStoreFailure(f: StoreFailure): string {
  return `${f.message}: ${f.recovery}`;
}
