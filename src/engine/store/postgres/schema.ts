/**
 * The shared store's schema version: read it (status), bring a database up to
 * this client's version (migrate), and the check every store session makes on
 * first use (init: create or migrate when the role may, refuse a schema newer
 * than the client). Takes a `postgres` client; only its type is imported here,
 * so the engine's bundles load the driver only where a store is used.
 */
import type { Sql } from 'postgres';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';

/** Why the schema cannot be used; each comes with what to do about it. */
export type SchemaProblem = 'schema_too_new' | 'schema_permission' | 'schema_missing' | 'schema_behind';

export class StoreSchemaError extends Error {
  readonly storeSchemaError = true;
  constructor(
    readonly reason: SchemaProblem,
    message: string,
  ) {
    super(message);
  }
}

export function isStoreSchemaError(err: unknown): err is StoreSchemaError {
  return typeof err === 'object' && err !== null && (err as { storeSchemaError?: unknown }).storeSchemaError === true;
}

export interface SchemaStatus {
  /** The database's schema version; 0 when the tables were never created. */
  readonly version: number;
  /** This client's newest version. */
  readonly latest: number;
  readonly state: 'missing' | 'behind' | 'current' | 'too_new';
  /** The schema (namespace) the tables live in: the connection's current_schema(). */
  readonly namespace: string | null;
  /** Whether this role may create tables there (needed to create or migrate). */
  readonly canCreate: boolean;
}

/** Serialises concurrent first uses: two clients creating the tables at once would fail one of them. */
const MIGRATION_LOCK_KEY = 0x5374_6174; // 'Stat'

const VERSION_TABLE = 'stategate_schema';

async function readVersion(sql: Sql): Promise<{ version: number; namespace: string | null; canCreate: boolean }> {
  // pg_class through a plain query, not to_regclass(): the catalog cache a session keeps may not yet
  // show a table another session just created, while this query reads with the statement's snapshot.
  const [row] = await sql<{ present: boolean; namespace: string | null; can_create: boolean | null }[]>`
    SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                    WHERE c.relname = ${VERSION_TABLE} AND n.nspname = current_schema()) AS present,
           current_schema() AS namespace,
           CASE WHEN current_schema() IS NULL THEN false ELSE has_schema_privilege(current_schema(), 'CREATE') END AS can_create`;
  const namespace = row?.namespace ?? null;
  const canCreate = row?.can_create === true;
  if (!row?.present) return { version: 0, namespace, canCreate };
  try {
    const [v] = await sql<{ version: number | null }[]>`SELECT max(version)::int AS version FROM stategate_schema`;
    return { version: v?.version ?? 0, namespace, canCreate };
  } catch (err) {
    if (isInsufficientPrivilege(err)) throw noReadPermission(namespace, await currentRole(sql));
    throw err;
  }
}

/**
 * The schema version as the store's own statements see it (the unqualified name, resolved
 * through search_path as every later statement resolves it), in one round trip; undefined
 * when the table is not there or not readable (the full check then says why).
 */
async function currentVersionFast(sql: Sql): Promise<SchemaStatus | undefined> {
  try {
    const [row] = await sql<{ version: number | null; namespace: string | null }[]>`
      SELECT max(version)::int AS version, current_schema() AS namespace FROM stategate_schema`;
    const version = row?.version ?? 0;
    // canCreate is not asked here: nothing needs creating when the schema is current.
    return { version, latest: LATEST_SCHEMA_VERSION, state: stateOf(version), namespace: row?.namespace ?? null, canCreate: false };
  } catch {
    return undefined;
  }
}

function stateOf(version: number): SchemaStatus['state'] {
  if (version === 0) return 'missing';
  if (version > LATEST_SCHEMA_VERSION) return 'too_new';
  return version < LATEST_SCHEMA_VERSION ? 'behind' : 'current';
}

/** The database's schema version and what this client can do with it; changes nothing. */
export async function status(sql: Sql): Promise<SchemaStatus> {
  const { version, namespace, canCreate } = await readVersion(sql);
  return { version, latest: LATEST_SCHEMA_VERSION, state: stateOf(version), namespace, canCreate };
}

function tooNew(version: number): StoreSchemaError {
  return new StoreSchemaError(
    'schema_too_new',
    `the shared store's schema is version ${version}, newer than this stategate knows (${LATEST_SCHEMA_VERSION}): update stategate on this machine (the extension and the CLI) to the version the team uses`,
  );
}

function noPermission(namespace: string | null, role: string, what: string): StoreSchemaError {
  const where = namespace ? `schema "${namespace}"` : 'any schema on the search_path (none of them exists)';
  return new StoreSchemaError(
    'schema_permission',
    `role "${role}" may not create the shared store's tables in ${where}, so it cannot ${what}: run \`stategate store init\` once as a role that may (the database owner), or GRANT CREATE ON SCHEMA ${namespace ?? 'public'} TO "${role}"`,
  );
}

function noReadPermission(namespace: string | null, role: string): StoreSchemaError {
  const ns = namespace ?? 'public';
  return new StoreSchemaError(
    'schema_permission',
    `role "${role}" may not read the shared store's tables in schema "${ns}": ask the database owner to GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${ns} TO "${role}" (docs/team.md, "Setting up a shared run")`,
  );
}

/** Apply the migrations after `from`, each in the transaction that records it; returns the versions applied. */
async function applyFrom(sql: Sql, client: string): Promise<number[]> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
    // Re-read under the lock: another client may have migrated while this one waited.
    const { version } = await readVersion(tx as unknown as Sql);
    if (version > LATEST_SCHEMA_VERSION) throw tooNew(version);
    if (version === 0) {
      await tx.unsafe(`CREATE TABLE ${VERSION_TABLE} (
        version     integer PRIMARY KEY,
        name        text NOT NULL,
        applied_at  timestamptz NOT NULL DEFAULT now(),
        applied_by  text NOT NULL
      )`);
    }
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (m.version <= version) continue;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO stategate_schema (version, name, applied_by) VALUES (${m.version}, ${m.name}, ${client})`;
      applied.push(m.version);
    }
    return applied;
  }) as Promise<number[]>;
}

async function currentRole(sql: Sql): Promise<string> {
  const [row] = await sql<{ role: string }[]>`SELECT current_user AS role`;
  return row?.role ?? '?';
}

function isInsufficientPrivilege(err: unknown): boolean {
  return (err as { code?: unknown })?.code === '42501';
}

export interface MigrateResult {
  readonly from: number;
  readonly to: number;
  readonly applied: readonly number[];
}

/**
 * Bring the database to this client's schema version (creating the tables on an
 * empty database). `client` names who migrated, for the version table.
 * Throws StoreSchemaError when the schema is newer or the role may not create.
 */
export async function migrate(sql: Sql, client = 'stategate'): Promise<MigrateResult> {
  const before = await readVersion(sql);
  if (before.version > LATEST_SCHEMA_VERSION) throw tooNew(before.version);
  if (before.version === LATEST_SCHEMA_VERSION) return { from: before.version, to: before.version, applied: [] };
  const what = before.version === 0 ? 'create them' : `migrate them from version ${before.version} to ${LATEST_SCHEMA_VERSION}`;
  if (!before.canCreate) throw noPermission(before.namespace, await currentRole(sql), what);
  try {
    const applied = await applyFrom(sql, client);
    return { from: before.version, to: LATEST_SCHEMA_VERSION, applied };
  } catch (err) {
    if (isInsufficientPrivilege(err)) throw noPermission(before.namespace, await currentRole(sql), what);
    throw err;
  }
}

/**
 * The check a store makes on first use of a connection: nothing to do when the
 * schema is current (one query); created or migrated when the role may; a
 * StoreSchemaError saying what to do when it may not or when it is too new.
 */
export async function init(sql: Sql, client = 'stategate'): Promise<SchemaStatus> {
  // Every hook process checks the schema on its connection: one statement when it is current
  // (the common case), the full check only when it is not or the table cannot be read.
  const fast = await currentVersionFast(sql);
  if (fast !== undefined && fast.version === LATEST_SCHEMA_VERSION) return fast;
  const now = await status(sql);
  if (now.state === 'current') return now;
  if (now.state === 'too_new') throw tooNew(now.version);
  await migrate(sql, client);
  return status(sql);
}
