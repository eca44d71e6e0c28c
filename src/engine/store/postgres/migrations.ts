/**
 * The shared store's schema, as numbered migrations. A migration is never
 * edited once released: a change is a new entry at the end. Each runs in the
 * transaction that records its number in `stategate_schema`, so a database is
 * always at exactly one version, and a client refuses a database whose version
 * is newer than the last one it knows (schema.ts).
 *
 * The tables live in the connection's current schema (the first of its
 * search_path, normally `public`), prefixed `stategate_`, so an administrator
 * can give the store a schema of its own by setting the role's search_path.
 */

/** The channel every change of a run is announced on (LISTEN stategate_run). */
export const RUN_NOTIFY_CHANNEL = 'stategate_run';

export interface Migration {
  readonly version: number;
  /** What it does, in a few words (stored with the version). */
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, journal, active run per project, change notifications',
    sql: `
-- One row per run: the snapshot every decision starts from, and who moved it last.
CREATE TABLE stategate_runs (
  run_id              text PRIMARY KEY,
  project_key         text NOT NULL,
  snapshot            jsonb NOT NULL,
  status              text NOT NULL,
  -- The seq of the journal's last entry for this run (0: none yet); written with it, in one transaction.
  last_seq            bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  changed_by_machine  text,
  changed_by_client   text
);
CREATE INDEX stategate_runs_by_project ON stategate_runs (project_key, updated_at DESC);

-- The journal: every event of a run, numbered 1, 2, 3 ... per run, replaying to the snapshot.
CREATE TABLE stategate_journal (
  run_id           text NOT NULL REFERENCES stategate_runs (run_id) ON DELETE CASCADE,
  seq              bigint NOT NULL CHECK (seq > 0),
  entry            jsonb NOT NULL,
  -- The client's key for the event (its tool-use id where there is one): a retried call
  -- inserts nothing (ON CONFLICT DO NOTHING) and reads back the first answer, kept in result.
  idempotency_key  text,
  result           jsonb,
  machine          text,
  client           text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, seq),
  -- NULL keys are distinct, so events without a key never conflict.
  CONSTRAINT stategate_journal_idempotency UNIQUE (run_id, idempotency_key)
);

-- The run a project's hooks follow (a project key is the repository's normalised remote URL, or --project).
CREATE TABLE stategate_active_runs (
  project_key  text PRIMARY KEY,
  run_id       text NOT NULL REFERENCES stategate_runs (run_id) ON DELETE CASCADE,
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- Every journal entry is announced as '<run_id>:<seq>' on the channel stategate_run when its
-- transaction commits, whoever wrote it. A listener that was disconnected misses
-- notifications, so it re-reads the journal from the last seq it saw after a reconnect.
CREATE FUNCTION stategate_notify_journal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${RUN_NOTIFY_CHANNEL}', NEW.run_id || ':' || NEW.seq);
  RETURN NULL;
END
$$;
CREATE TRIGGER stategate_journal_notify AFTER INSERT ON stategate_journal
  FOR EACH ROW EXECUTE FUNCTION stategate_notify_journal();
`,
  },
  {
    version: 2,
    name: 'answers of keyed changes, also of those that journal nothing',
    // An allowed tool call changes the run (its counters) without a journal entry, so its
    // idempotency key and first answer cannot live on a journal row: they get a row here,
    // written in the change's transaction (pg-storage.ts). The journal row's key stays for
    // changes that do journal, so the journal shows which call a row came from.
    sql: `
CREATE TABLE stategate_answers (
  run_id           text NOT NULL REFERENCES stategate_runs (run_id) ON DELETE CASCADE,
  idempotency_key  text NOT NULL,
  result           jsonb,
  -- The run's last_seq after the change (the journal position it answered at).
  seq              bigint NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, idempotency_key)
);
`,
  },
];

/** The newest schema version this client knows. */
export const LATEST_SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]!.version;
