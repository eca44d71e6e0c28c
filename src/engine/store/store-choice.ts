/**
 * Which store keeps a workspace's runs. The files under `.stategate/` unless a
 * shared store is named: by STATEGATE_STORE_URL (the CLI, the hook, the MCP
 * server: agents in sandboxes and CI) or by a URL the extension passes (the
 * `stategate.store` setting, its password from SecretStorage), or, for a hook
 * in a workspace whose VS Code names one, by the pointer the extension wrote
 * under the user's state folder (store-pointer.ts). Never by a file in the workspace: an agent can write those, and must not be able to move
 * enforcement to a store of its choosing or back to files it controls.
 */
import type { RunSnapshot } from '../machine/run.js';
import type { RunStorage } from './run-storage.js';
import type { PgCommittedChange, PostgresStoreOptions } from './postgres/pg-storage.js';
import { projectKeyFor } from './project-key.js';
import { readStorePointer } from './store-pointer.js';
import { STORE_URL_ENV } from './postgres/store-url-env.js';

export interface StoreChoice {
  /** The shared store's URL; undefined: read STATEGATE_STORE_URL. An empty string: the file store, whatever the environment says. */
  readonly url?: string;
  /** The workspace (its git remote names the project). */
  readonly workspaceRoot: string;
  /** `--project` */
  readonly project?: string;
  /** Which client this process is (kept with each change). */
  readonly client?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly max?: number;
  /** The password when the URL has none, asked for at each connect (VS Code's SecretStorage); else PGPASSWORD. */
  readonly password?: () => Promise<string | undefined>;
}

/** What the Runner gives a store it makes: what follows each commit on this machine (the run record). */
export interface StorageHooks {
  readonly afterCommit?: (change: PgCommittedChange<RunSnapshot>) => Promise<void> | void;
}

export type StorageFactory = (check: (value: unknown) => string | undefined, hooks?: StorageHooks) => RunStorage<RunSnapshot>;

/**
 * The shared store's URL in force, or undefined for the file store: the URL
 * passed in, else STATEGATE_STORE_URL when set (empty: the files), else the
 * workspace's pointer the extension wrote outside the workspace (store-pointer.ts).
 */
export function chosenStoreUrl(choice: Pick<StoreChoice, 'url' | 'env'> & { readonly workspaceRoot?: string }): string | undefined {
  const env = choice.env ?? process.env;
  const url = choice.url ?? env[STORE_URL_ENV] ?? (choice.workspaceRoot ? readStorePointer(choice.workspaceRoot, env) : undefined);
  return url && url.trim() !== '' ? url.trim() : undefined;
}

/**
 * The `storage` option of a Runner: a PostgreSQL store when a URL is in force,
 * else undefined (the Runner's file store). The PostgreSQL store's code loads
 * only then.
 */
export function chooseStorage(choice: StoreChoice): StorageFactory | undefined {
  const url = chosenStoreUrl(choice);
  if (!url) return undefined;
  let project: string | Error;
  try {
    project = projectKeyFor(choice.workspaceRoot, choice.project, choice.env);
  } catch (err) {
    project = err as Error;
  }
  return (checkRun, hooks = {}) => {
    // The hook's bundle points this require at dist/cli/hook-pg-store.js (scripts/build.mjs).
    const { PostgresRunStorage } = require('./postgres/pg-storage.js') as typeof import('./postgres/pg-storage.js');
    const options: PostgresStoreOptions<RunSnapshot> = {
      url,
      project,
      checkRun,
      ...(choice.client ? { client: choice.client } : {}),
      ...(choice.env ? { env: choice.env } : {}),
      ...(choice.max ? { max: choice.max } : {}),
      ...(choice.password ? { password: choice.password } : {}),
      ...(hooks.afterCommit ? { afterCommit: hooks.afterCommit } : {}),
    };
    return new PostgresRunStorage<RunSnapshot>(options);
  };
}
