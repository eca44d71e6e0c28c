/**
 * One store's connection to PostgreSQL: the `postgres` driver loaded only
 * here, on first use (a hook on the file store never loads it), the session
 * settings of connect-options.ts, the schema checked once per process
 * (schema.ts `init`: created or migrated when the role may, refused when too
 * new), and a bound on every operation: whatever the server or the network
 * does, an operation settles within `timeoutMs` (STATEGATE_STORE_TIMEOUT_MS),
 * so a hook can deny in time. Every failure becomes a StoreError whose
 * message says what happened and how to recover, without the password.
 */
import type { Sql } from 'postgres';
import { isStoreError, StoreError } from '../store-error.js';
import { classifyStoreError, describeStoreFailure } from './classify-error.js';
import { redactUrl, storeConnectOptions, type StoreConnectOptions } from './connect-options.js';
import { init } from './schema.js';
import { processDeadline, waitingOn, withinDeadline, type ProcessDeadline } from '../deadline.js';

export const STORE_TIMEOUT_ENV = 'STATEGATE_STORE_TIMEOUT_MS';
/** A hook answers within a few seconds whatever the server does. */
export const DEFAULT_STORE_TIMEOUT_MS = 4000;

/** The bound from STATEGATE_STORE_TIMEOUT_MS (milliseconds), else the default. */
export function storeTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[STORE_TIMEOUT_ENV];
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_STORE_TIMEOUT_MS;
}

export interface SessionOptions {
  readonly url: string;
  /** Who connects (pg_stat_activity's application_name and the version table). */
  readonly client?: string;
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Connections in the pool: a hook needs one; the extension two (one of them listens). */
  readonly max?: number;
  /** The password when the URL has none, read at each connect (VS Code's SecretStorage); it wins over PGPASSWORD. */
  readonly password?: () => Promise<string | undefined>;
}

export class PgSession {
  readonly redacted: string;
  readonly timeoutMs: number;
  private connect: StoreConnectOptions | undefined;
  private sqlPromise: Promise<Sql> | undefined;
  private sql: Sql | undefined;
  private readonly secrets: (string | undefined)[] = [];

  constructor(private readonly options: SessionOptions) {
    this.redacted = redactUrl(options.url);
    this.timeoutMs = options.timeoutMs ?? storeTimeoutMs(options.env);
  }

  /**
   * Run `fn` with the session's client, within the bound (STATEGATE_STORE_TIMEOUT_MS, or what
   * remains of the process's deadline when that is less: a hook answers within its client's
   * timeout, ../deadline.ts); failures as StoreError (`store_unavailable`, `busy`).
   */
  async run<T>(what: string, fn: (sql: Sql) => Promise<T>): Promise<T> {
    const bound = withinDeadline(this.timeoutMs);
    const cut = bound < this.timeoutMs ? processDeadline() : undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      const fail = () => reject(Object.assign(new Error(`no answer within ${bound} ms`), { code: 'STORE_DEADLINE', boundMs: bound, ...(cut ? { cut } : {}) }));
      timer = setTimeout(fail, bound);
      timer.unref?.();
    });
    try {
      return await waitingOn(`the shared store at ${this.redacted} (${what})`, () => Promise.race([this.client().then(fn), deadline]));
    } catch (err) {
      throw this.storeError(what, err);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /** The client, connected and with the schema checked; one per session. */
  client(): Promise<Sql> {
    this.sqlPromise ??= this.open().catch((err: unknown) => {
      this.sqlPromise = undefined; // the next operation tries again
      throw err;
    });
    return this.sqlPromise;
  }

  async close(): Promise<void> {
    const sql = this.sql;
    this.sql = undefined;
    this.sqlPromise = undefined;
    if (sql) await sql.end({ timeout: 1 }).catch(() => undefined);
  }

  /** The error of a failed operation, for a person: what, why, how to recover; never the password. */
  storeError(what: string, err: unknown): StoreError {
    if (isStoreError(err)) return err;
    if ((err as { code?: unknown })?.code === 'STORE_DEADLINE') {
      const e = err as { boundMs?: number; cut?: ProcessDeadline };
      const within = e.cut ? `within the ${Math.round(e.boundMs ?? 0)} ms left of this process's ${e.cut.boundMs} ms bound (${e.cut.why})` : `within ${Math.round(e.boundMs ?? this.timeoutMs)} ms`;
      const problem = {
        reason: 'timeout',
        message: `the shared store at ${this.redacted} did not answer ${what} ${within}`,
        recovery: e.cut ? 'check that the server is up and reachable from this machine' : `check that the server is up and reachable from this machine (or raise ${STORE_TIMEOUT_ENV})`,
      };
      return new StoreError('store_unavailable', `${problem.message}: ${problem.recovery}; stategate does not fall back to the local files`, problem);
    }
    const failure = classifyStoreError(err, { target: this.redacted, secrets: this.secrets });
    const code = failure.reason === 'lock_timeout' ? 'busy' : 'store_unavailable';
    return new StoreError(code, `${describeStoreFailure(failure)} (while ${what}; stategate does not fall back to the local files)`, {
      reason: failure.reason,
      message: failure.message,
      recovery: failure.recovery,
    });
  }

  private async open(): Promise<Sql> {
    // A password from a secret store is read again at each connect (it may have been set since the last).
    const secret = this.options.password ? await this.options.password().catch(() => undefined) : undefined;
    if (this.options.password) this.connect = undefined;
    const env = secret ? { ...(this.options.env ?? process.env), PGPASSWORD: secret } : this.options.env;
    this.connect ??= storeConnectOptions(this.options.url, {
      ...(env ? { env } : {}),
      ...(this.options.client ? { applicationName: `stategate ${this.options.client}` } : {}),
      max: this.options.max ?? 1,
      // A second past the operation's own bound: a server that never answers is reported by that bound (run()),
      // and the driver does not give up and dial again inside one operation (one read, one connection).
      timeouts: { connectTimeoutSeconds: Math.ceil(withinDeadline(this.timeoutMs) / 1000) + 1 },
    });
    const password = (this.connect.options as { password?: unknown }).password;
    if (typeof password === 'string') this.secrets.push(password);
    // Loaded here, not at the top: the file store's hook never pays for the driver.
    const postgres = require('postgres') as typeof import('postgres');
    const sql = postgres(this.connect.options);
    try {
      await init(sql, this.options.client ?? 'stategate');
    } catch (err) {
      await sql.end({ timeout: 0 }).catch(() => undefined);
      throw err;
    }
    this.sql = sql;
    return sql;
  }
}
