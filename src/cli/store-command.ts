/**
 * `stategate store init|status|migrate [--json]`: the shared PostgreSQL store
 * named by STATEGATE_STORE_URL (docs/team.md). init creates the tables on an
 * empty database (and leaves a current one alone), migrate brings an older
 * schema to this stategate's version, status says where the store is (its URL
 * with the password masked), the server's version, the schema's and the number
 * of runs. The URL is read from the environment only: a password on the command
 * line would show in the process list and the shell's history.
 *
 * Exit: 0 done (status: the schema is current); 1 the command ran and said no
 * (status: the schema is missing, behind or too new; init/migrate: the role may
 * not, or the schema is too new); 2 usage, no URL or an unusable URL; 3 the
 * store could not be reached or used (down, refused, auth, TLS, timeout).
 */
import * as os from 'node:os';
import postgres from 'postgres';
import {
  classifyStoreError,
  describeStoreFailure,
  isStoreSchemaError,
  redactSecrets,
  storeConnectOptions,
  migrateStoreSchema,
  storeSchemaStatus,
  storeUrlFromEnv,
  STORE_URL_ENV,
  type SchemaStatus,
  type StoreConnectOptions,
} from '../engine/index.js';
import { parse } from './args.js';
import { CliError, printJson, type ExitCode, type Output } from './io.js';
import { VERSION } from './version.js';
import type { Command } from './commands.js';

const USAGE = 'stategate store init|status|migrate [--json]';
const ACTIONS = ['init', 'status', 'migrate'] as const;
type Action = (typeof ACTIONS)[number];

const HELP = `usage: ${USAGE}

The shared PostgreSQL store named by ${STORE_URL_ENV} (postgres://USER@HOST:PORT/DATABASE?sslmode=verify-full;
the password from PGPASSWORD or the URL). See docs/team.md.
  init     create the store's tables on an empty database (a current one is left as it is)
  status   the store's URL (password masked), server version, schema version and number of runs
  migrate  bring an older schema to this stategate's version
Exit: 0 done (status: schema current), 1 refused or schema not current, 2 usage or no/unusable URL,
3 the store could not be reached or used.
`;

interface StatusReport {
  readonly url: string;
  readonly server: string;
  readonly schema: SchemaStatus;
  /** null while the tables do not exist. */
  readonly runs: number | null;
  readonly activeProjects: number | null;
}

/** Who changed the schema, for its version table: no secrets, just the client and the machine. */
function clientName(action: Action): string {
  return `stategate ${VERSION} store ${action} (${os.hostname()})`;
}

async function readStatus(sql: postgres.Sql, target: StoreConnectOptions): Promise<StatusReport> {
  const [server] = await sql<{ v: string }[]>`SELECT current_setting('server_version') AS v`;
  const schema = await storeSchemaStatus(sql);
  let runs: number | null = null;
  let activeProjects: number | null = null;
  if (schema.state === 'current' || schema.state === 'behind') {
    const [row] = await sql<{ runs: number; active: number }[]>`SELECT (SELECT count(*)::int FROM stategate_runs) AS runs, (SELECT count(*)::int FROM stategate_active_runs) AS active`;
    runs = row?.runs ?? 0;
    activeProjects = row?.active ?? 0;
  }
  return { url: target.redacted, server: `PostgreSQL ${server?.v ?? '?'}`, schema, runs, activeProjects };
}

const STATE_TEXT: Record<SchemaStatus['state'], string> = {
  missing: 'not created yet: run `stategate store init`',
  behind: 'older than this stategate: run `stategate store migrate`',
  current: 'current',
  too_new: 'newer than this stategate: update stategate on this machine',
};

function printStatus(out: Output, r: StatusReport): void {
  out.stdout(
    [
      `store:   ${r.url}`,
      `server:  ${r.server}`,
      `schema:  version ${r.schema.version} (this stategate: ${r.schema.latest}), ${STATE_TEXT[r.schema.state]}`,
      `runs:    ${r.runs === null ? '-' : `${r.runs} (${r.activeProjects} project${r.activeProjects === 1 ? '' : 's'} with an active run)`}`,
      '',
    ].join('\n'),
  );
}

export const command: Command = {
  name: 'store',
  answersInJson: (args) => args.includes('--json'),
  async run(args: readonly string[], out: Output): Promise<ExitCode> {
    const parsed = parse(args, { json: { type: 'boolean' } }, USAGE);
    if (parsed.values.help) {
      out.stdout(HELP);
      return 0;
    }
    const [action, extra] = parsed.positionals;
    if (!action || !(ACTIONS as readonly string[]).includes(action)) throw new CliError('usage', `${action ? `unknown store action '${action}'` : 'no store action given'}\nusage: ${USAGE}`);
    if (extra !== undefined) throw new CliError('usage', `unexpected argument '${extra}'\nusage: ${USAGE}`);
    const url = storeUrlFromEnv();
    if (!url) throw new CliError('no_store', `${STORE_URL_ENV} is not set: set it to the shared store's URL (postgres://USER@HOST:PORT/DATABASE; the password in PGPASSWORD), see docs/team.md`);
    const json = parsed.values.json === true;
    let target: StoreConnectOptions;
    try {
      target = storeConnectOptions(url, { applicationName: `stategate store ${action}` });
    } catch (err) {
      throw new CliError('invalid_url', classifyStoreError(err).message);
    }
    const password = typeof target.options.password === 'string' ? target.options.password : undefined;
    const sql = postgres(target.options);
    try {
      return await perform(action as Action, sql, target, out, json);
    } catch (err) {
      if ((err as { cliError?: unknown }).cliError) throw err;
      const f = classifyStoreError(err, { target: target.redacted, secrets: [password] });
      // Refusals about the schema (too new, no privilege) are answers; everything else means the store could not be used.
      const refused = isStoreSchemaError(err) || f.reason === 'permission_denied';
      throw new CliError(f.reason, redactSecrets(describeStoreFailure(f), [password]), refused ? 1 : 3);
    } finally {
      await sql.end({ timeout: 2 }).catch(() => undefined);
    }
  },
};

async function perform(action: Action, sql: postgres.Sql, target: StoreConnectOptions, out: Output, json: boolean): Promise<ExitCode> {
  if (action === 'status') {
    const report = await readStatus(sql, target);
    if (json) printJson(out, report);
    else printStatus(out, report);
    return report.schema.state === 'current' ? 0 : 1;
  }
  const before = await storeSchemaStatus(sql);
  if (action === 'init' && before.state === 'behind') {
    throw new CliError('schema_behind', `the store at ${target.redacted} already has the schema at version ${before.version}, older than this stategate's ${before.latest}: run \`stategate store migrate\``, 1);
  }
  const result = await migrateStoreSchema(sql, clientName(action));
  const after = await readStatus(sql, target);
  if (json) {
    printJson(out, { action, url: target.redacted, from: result.from, to: result.to, applied: result.applied, status: after });
  } else {
    const did =
      result.applied.length === 0
        ? `the schema was already at version ${result.to}; nothing to do`
        : result.from === 0
          ? `created the store's tables (schema version ${result.to})`
          : `migrated the schema from version ${result.from} to ${result.to}`;
    out.stdout(`${action}: ${did}\n`);
    printStatus(out, after);
  }
  return 0;
}
