/**
 * The environment variable that chooses the shared store, in a file of its
 * own: store-choice.ts reads it in every hook process, which must not carry
 * the rest of connect-options.ts (loaded with the PostgreSQL store only).
 */
export const STORE_URL_ENV = 'STATEGATE_STORE_URL';
