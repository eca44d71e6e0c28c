/**
 * The error a store throws (the file store, run-store.ts, and the PostgreSQL
 * store, postgres/). Defined here alone, so the PostgreSQL store's bundle
 * (dist/cli/hook-pg-store.js, loaded by a hook only with a shared store) does
 * not carry the file store with it. That bundle has its own copy of this class,
 * so `instanceof StoreError` cannot tell one of its errors from any other
 * error: code tells a StoreError by `isStoreError`, which reads a brand every
 * copy sets.
 */

export type StoreErrorCode = 'no_active_run' | 'run_unreadable' | 'run_tampered' | 'busy' | 'unknown_run' | 'io' | 'store_unavailable';

/** Why a shared store cannot be used (postgres/classify-error.ts), for a status that names it (VS Code's status bar). */
export interface StoreProblem {
  /** A StoreFailureReason: `unreachable`, `refused`, `timeout`, `auth_failed`, `tls_refused`, `schema_too_new`, ... */
  readonly reason: string;
  /** What happened, naming the server by its URL without the password. */
  readonly message: string;
  /** What to do about it. */
  readonly recovery: string;
}

/** The same symbol in every bundle (the global registry), unlike the class. */
const BRAND: unique symbol = Symbol.for('stategate.StoreError');

export class StoreError extends Error {
  /** On the prototype (a getter), not on each error: errors compare and print as they did. */
  get [BRAND](): true {
    return true;
  }

  constructor(
    readonly code: StoreErrorCode,
    message: string,
    /** Set when the shared store itself failed (not the run in it). */
    readonly problem?: StoreProblem,
  ) {
    super(message);
  }
}

/** A StoreError, whichever bundle's copy of the class made it. */
export function isStoreError(err: unknown): err is StoreError {
  return err instanceof Error && (err as Error & { [BRAND]?: unknown })[BRAND] === true;
}
