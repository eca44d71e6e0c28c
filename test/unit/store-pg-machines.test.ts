/**
 * The shared store through the built CLI, as a team uses it: two clones of one
 * repository (two `.stategate/` folders, two "machines") pointed at one real
 * PostgreSQL database by STATEGATE_STORE_URL, their project found from the git
 * remote. Also: a hook killed (SIGKILL) right after its commit, retried with the
 * same tool-use id, gets the first answer and counts once; and every way the
 * store can fail makes `stategate hook` deny, for Claude Code's and VS Code's
 * inputs, within the bound (the process is given the bound plus a margin and
 * killed past it, which fails the test), saying why and how to recover, never
 * with the password.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import postgres from 'postgres';
import { CLI, requireBuiltCli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';
import { replay } from '../../src/engine/store/replay';
import type { JournalEntry } from '../../src/engine/machine/run';
import { createTestDatabase, silentPort, startPrivateServer, type TestDatabase } from '../support/postgres-server';
import { preToolUseRead as preToolUse, type HookClient as Client } from '../support/hook-inputs';

type Owner = { after(fn: () => unknown): unknown };

const WORKFLOW = {
  id: 'team',
  initial: 'a',
  states: {
    a: { allowed_tools: ['Read'], max_iterations: 10, on: { TOGGLE: 'b', FINISH: 'done' } },
    b: { allowed_tools: ['Read'], max_iterations: 10, on: { TOGGLE: 'a', FINISH: 'done' } },
    done: { type: 'final' },
  },
};

/** The bound a hook is held to here (STATEGATE_STORE_TIMEOUT_MS), and the margin for process start on a loaded machine. */
const BOUND_MS = 3000;
const MARGIN_MS = 12_000;

interface Clone {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/** A clone of github.com/team/repo with its own `.stategate/`, using the store at `url`. */
function clone(t: Owner, url: string, remote: string): Clone {
  const cwd = tempDir('sg-machine-', t);
  spawnSync('git', ['init', '-q'], { cwd });
  spawnSync('git', ['remote', 'add', 'origin', remote], { cwd });
  fs.writeFileSync(path.join(cwd, 'team.workflow.json'), JSON.stringify(WORKFLOW));
  fs.writeFileSync(path.join(cwd, 'a.txt'), 'a\n');
  return { cwd, env: { ...process.env, STATEGATE_STORE_URL: url, STATEGATE_STORE_TIMEOUT_MS: String(BOUND_MS), STATEGATE_PROJECT: '' } };
}

interface Result {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly json: any;
  readonly signal: NodeJS.Signals | null;
}

function run(c: Clone, args: readonly string[], input = '', extraEnv: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<Result> {
  requireBuiltCli();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: c.cwd, env: { ...c.env, ...extraEnv } });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json, signal });
    });
    child.stdin.end(input);
  });
}


/** The file store's files of a run (run.json, journal.jsonl, active) in a clone: a shared run has none there, only its run record. */
function runFilesIn(cwd: string): string[] {
  const dir = path.join(cwd, '.stategate');
  const found = fs.existsSync(path.join(dir, 'active')) ? ['active'] : [];
  if (!fs.existsSync(path.join(dir, 'runs'))) return found;
  for (const id of fs.readdirSync(path.join(dir, 'runs'))) {
    for (const f of ['run.json', 'journal.jsonl']) if (fs.existsSync(path.join(dir, 'runs', id, f))) found.push(`runs/${id}/${f}`);
  }
  return found;
}

/** The decision of a hook's answer (exit 2 or a JSON deny: deny). */
function decisionOf(r: Result): { decision: string; reason: string } {
  if (r.code === 2) return { decision: 'deny', reason: r.stderr };
  const out = (r.stdout.trim() === '' ? {} : JSON.parse(r.stdout)) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  return { decision: out.hookSpecificOutput?.permissionDecision ?? 'allow', reason: out.hookSpecificOutput?.permissionDecisionReason ?? '' };
}

async function journalOf(db: TestDatabase): Promise<{ run: any; journal: JournalEntry[] }> {
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    const [active] = await sql`SELECT r.snapshot, r.last_seq FROM stategate_active_runs a JOIN stategate_runs r USING (run_id)`;
    const rows = await sql`SELECT entry FROM stategate_journal WHERE run_id = ${active!.snapshot.runId} ORDER BY seq`;
    const journal = rows.map((r) => r.entry as JournalEntry & { seq: number });
    assert.deepEqual(journal.map((e) => e.seq), Array.from({ length: journal.length }, (_, i) => i + 1), 'journal seq without gaps');
    assert.equal(Number(active!.last_seq), journal.length, 'last_seq is the last journal row');
    const locks = await sql`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND l.locktype = 'tuple'`;
    assert.equal(locks[0]!.n, 0, 'no row lock left held');
    return { run: active!.snapshot, journal };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

test('two clones, one store: a run started on one machine holds the other (found by the git remote, no .stategate there)', { timeout: 120_000 }, async (t) => {
  const db = await createTestDatabase(t);
  const a = clone(t, db.url, 'https://github.com/team/repo.git');
  const b = clone(t, db.url, 'git@github.com:team/repo.git');
  const started = await run(a, ['run', 'start', 'team.workflow.json']);
  assert.equal(started.code, 0, started.stderr);
  const state = await run(b, ['run', 'state']);
  assert.equal(state.code, 0, state.stderr);
  assert.equal(state.json.run_id, started.json.run_id, 'machine B sees machine A\'s run');
  assert.deepEqual(runFilesIn(b.cwd), [], 'B keeps no run files of its own');
  const edit = await run(b, ['hook', '--client', 'claude'], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'cc', cwd: b.cwd, transcript_path: '/tmp/t', tool_use_id: 'e1', tool_name: 'Edit', tool_input: { file_path: path.join(b.cwd, 'a.txt'), old_string: 'a', new_string: 'b' } }));
  const d = decisionOf(edit);
  assert.equal(d.decision, 'deny', `an Edit in state a is denied on B: ${edit.stdout} ${edit.stderr}`);
  assert.match(d.reason, /Edit/);
  // A clone of another repository is another project: no run there.
  const other = clone(t, db.url, 'git@github.com:team/other.git');
  const none = await run(other, ['run', 'state']);
  assert.notEqual(none.code, 0);
  assert.equal(none.json?.error?.code, 'no_active_run', none.stdout);
});

/** A workflow with an interrupt on config files: written beside team.workflow.json in a clone. */
const INTERRUPTED = {
  id: 'irq',
  initial: 'work',
  interrupts: { config: { trigger: { file_pattern: 'config/**' }, target: 'review' } },
  states: {
    work: { allowed_tools: ['Read', 'Write', 'Edit'], on: { FINISH: 'done' } },
    review: { allowed_tools: ['Read'], on: { REVIEWED: '$return' } },
    done: { type: 'final' },
  },
};

test('interrupts from either machine reach the shared run: an agent\'s write on one (Claude Code and VS Code hooks), a save on the other (file-changed)', { timeout: 180_000 }, async (t) => {
  const db = await createTestDatabase(t);
  const a = clone(t, db.url, 'https://github.com/team/repo.git');
  const b = clone(t, db.url, 'git@github.com:team/repo.git');
  for (const c of [a, b]) {
    fs.writeFileSync(path.join(c.cwd, 'irq.workflow.json'), JSON.stringify(INTERRUPTED));
    fs.mkdirSync(path.join(c.cwd, 'config'));
    fs.writeFileSync(path.join(c.cwd, 'config', 'app.env'), 'A=1\n');
  }
  assert.equal((await run(a, ['run', 'start', 'irq.workflow.json'])).code, 0);
  const stateOn = async (c: Clone) => ((await run(c, ['run', 'state'])).json as { state?: string }).state;
  const writes: Record<Client, (cwd: string, id: string) => string> = {
    claude: (cwd, id) => JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 'cc', cwd, transcript_path: '/tmp/t.jsonl', tool_use_id: id, tool_name: 'Write', tool_input: { file_path: path.join(cwd, 'config', 'app.env'), content: 'A=2\n' }, tool_response: 'ok' }),
    vscode: (cwd, id) => JSON.stringify({ hookEventName: 'PostToolUse', sessionId: 'vs', timestamp: '2026-11-28T20:00:00.000Z', cwd, transcript_path: '/tmp/t.json', tool_use_id: id, tool_name: 'create_file', tool_input: { filePath: path.join(cwd, 'config', 'app.env'), content: 'A=2\n' }, tool_response: 'ok' }),
  };
  for (const client of ['claude', 'vscode'] as const) {
    // An agent on machine B writes a config file: the interrupt moves the team's run, and A sees it.
    const hook = await run(b, ['hook', '--client', client], writes[client](b.cwd, `w-${client}`));
    assert.equal(hook.code, 0, hook.stderr);
    assert.match(String(hook.json?.hookSpecificOutput?.additionalContext), /fired interrupt "config"/, `the ${client} agent on B is told: ${hook.stdout}`);
    assert.equal(await stateOn(a), 'review', `${client} on B: A sees the run in review`);
    assert.equal((await run(a, ['run', 'send', 'REVIEWED'])).code, 0);
    assert.equal(await stateOn(b), 'work', `A returned the run: B sees work again`);
  }
  // A person saves a config file in machine A's editor (what VS Code's save watcher reports): B sees the interrupt.
  const saved = await run(a, ['run', 'file-changed', path.join(a.cwd, 'config', 'app.env')]);
  assert.equal(saved.code, 0, saved.stderr);
  assert.equal(await stateOn(b), 'review', 'a save on A interrupts the run B works in');
  // Each interrupt is journaled once, on the one shared journal.
  const { journal } = await journalOf(db);
  assert.equal(journal.filter((e) => e.kind === 'interrupt').length, 3, JSON.stringify(journal.map((e) => e.kind)));
});

test('run list shows the project\'s runs on every machine; run join makes another run the active one everywhere', { timeout: 120_000 }, async (t) => {
  const db = await createTestDatabase(t);
  const a = clone(t, db.url, 'https://github.com/team/repo.git');
  const b = clone(t, db.url, 'git@github.com:team/repo.git');
  const first = (await run(a, ['run', 'start', 'team.workflow.json'])).json.run_id as string;
  const second = (await run(a, ['run', 'start', 'team.workflow.json'])).json.run_id as string;
  const listed = await run(b, ['run', 'list']);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(
    listed.json.runs.map((r: { run_id: string; status: string; active: boolean }) => [r.run_id, r.status, r.active]),
    [
      [first, 'stopped', false],
      [second, 'running', true],
    ],
  );
  const joined = await run(b, ['run', 'join', first]);
  assert.equal(joined.code, 0, joined.stderr);
  assert.equal((await run(a, ['run', 'state'])).json.run_id, first, 'A follows the run B joined');
  const unknown = await run(b, ['run', 'join', 'no-such-run']);
  assert.equal(unknown.json?.error?.code, 'unknown_run', unknown.stdout);
});

test('two machines race: sends from both are each counted once, max_iterations holds across both, the journal replays to the snapshot', { timeout: 300_000 }, async (t) => {
  const db = await createTestDatabase(t);
  const machines = [clone(t, db.url, 'https://github.com/team/repo'), clone(t, db.url, 'ssh://git@github.com/team/repo.git')];
  const started = await run(machines[0]!, ['run', 'start', 'team.workflow.json']);
  assert.equal(started.code, 0, started.stderr);

  // 16 hooks at once, 8 per machine, each its own call: exactly max_iterations (10) are allowed.
  const hooks = await Promise.all(
    Array.from({ length: 16 }, (_, i) => {
      const m = machines[i % 2]!;
      const client: Client = i % 4 < 2 ? 'claude' : 'vscode';
      return run(m, ['hook', '--client', client], preToolUse(client, m.cwd, `race-${i}`), { STATEGATE_STORE_TIMEOUT_MS: '30000' });
    }),
  );
  const decisions = hooks.map(decisionOf);
  assert.equal(decisions.filter((d) => d.decision === 'allow').length, 10, `allowed: ${JSON.stringify(decisions)}`);
  assert.equal(decisions.filter((d) => d.decision === 'deny').length, 6);
  for (const d of decisions.filter((x) => x.decision === 'deny')) assert.match(d.reason, /max_iterations|10/);

  // Then 2 machines × 3 senders × 5 TOGGLEs at once: all 30 transitions, none lost or doubled.
  const senders = Array.from({ length: 6 }, async (_, w) => {
    let acknowledged = 0;
    for (let i = 0; i < 5; i++) {
      const r = await run(machines[w % 2]!, ['run', 'send', 'TOGGLE', '--data', JSON.stringify({ [`w${w}`]: i })], '', { STATEGATE_STORE_TIMEOUT_MS: '30000' });
      assert.equal(r.code, 0, `sender ${w} event ${i}: ${r.stdout} ${r.stderr}`);
      if (r.json?.transitioned === true) acknowledged++;
    }
    return acknowledged;
  });
  const acknowledged = (await Promise.all(senders)).reduce((x, y) => x + y, 0);
  assert.equal(acknowledged, 30);
  const { run: snapshot, journal } = await journalOf(db);
  assert.equal(snapshot.counters.transitions, 30);
  assert.equal(journal.filter((e) => e.kind === 'transition').length, 30);
  assert.equal(snapshot.state, 'a', 'an even number of toggles');
  const rebuilt = replay(journal);
  assert.equal(rebuilt.state, snapshot.state);
  assert.deepEqual(rebuilt.context, snapshot.context);
  assert.equal(rebuilt.transitions, snapshot.counters.transitions);
});

test('a hook killed (SIGKILL) right after its commit, retried with the same tool-use id, gets the first answer and counts once', { timeout: 120_000 }, async (t) => {
  const db = await createTestDatabase(t);
  const m = clone(t, db.url, 'https://github.com/team/repo');
  assert.equal((await run(m, ['run', 'start', 'team.workflow.json'])).code, 0);
  const input = preToolUse('claude', m.cwd, 'toolu_killed');
  const killed = await run(m, ['hook', '--client', 'claude'], input, { STATEGATE_TEST_KILL_AFTER_COMMIT: '1' });
  assert.equal(killed.signal, 'SIGKILL', `the hook was killed after its commit: ${killed.code} ${killed.stdout} ${killed.stderr}`);
  assert.equal(killed.stdout, '', 'it never answered');
  const before = await journalOf(db);
  assert.equal(before.run.counters.iterations, 1, 'the call was committed and counted');
  // Outside the window in which recent-calls.json would answer: only the store's key can.
  fs.rmSync(path.join(m.cwd, '.stategate', 'recent-calls.json'), { force: true });
  const retried = await run(m, ['hook', '--client', 'claude'], input);
  assert.equal(decisionOf(retried).decision, 'allow', retried.stdout + retried.stderr);
  const after = await journalOf(db);
  assert.equal(after.run.counters.iterations, 1, 'counted once');
  assert.equal(after.journal.length, before.journal.length, 'no journal row added by the retry');
});

// ---------------------------------------------------------------------------
// Fail closed: every hook denies within the bound, says why and how to recover
// ---------------------------------------------------------------------------

interface Failure {
  readonly name: string;
  /** The store URL to use (the test's database made unusable as the case says). */
  readonly url: (db: TestDatabase, t: Owner) => Promise<string>;
  readonly reason: RegExp;
  readonly secret?: string;
}

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const WRONG = 'hunter2-wrong-password';

const FAILURES: readonly Failure[] = [
  {
    name: 'the server is down (nothing listens on its port)',
    url: async () => `postgres://stategate@127.0.0.1:${await closedPort()}/team`,
    reason: /refused the connection.*start the PostgreSQL server/,
  },
  {
    name: 'the server is unreachable (accepts TCP, never answers)',
    url: async (_db, t) => `postgres://stategate@127.0.0.1:${await silentPort(t)}/team?connect_timeout=60`,
    reason: /did not answer|in time/,
  },
  {
    name: 'a wrong password',
    url: async (db) => {
      const u = new URL(db.url);
      u.password = WRONG;
      return u.toString();
    },
    reason: /rejected the password.*PGPASSWORD/,
    secret: WRONG,
  },
  {
    name: 'TLS refused (sslmode=require, the server has no TLS)',
    url: async (db) => {
      const u = new URL(db.url);
      u.search = '?sslmode=require';
      return u.toString();
    },
    reason: /TLS|SSL|sslmode/i,
  },
  {
    name: 'the schema is newer than this client',
    url: async (db) => {
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      try {
        await sql`INSERT INTO stategate_schema (version, name, applied_by) VALUES (999, 'from the future', 'test')`;
      } finally {
        await sql.end({ timeout: 5 });
      }
      return db.url;
    },
    reason: /newer than this stategate knows.*update stategate/,
  },
  {
    name: 'the run is held by another decision past lock_timeout',
    url: async (db, t) => {
      const m = clone(t, db.url, 'https://github.com/team/repo');
      assert.equal((await run(m, ['run', 'start', 'team.workflow.json'])).code, 0);
      // A session that holds the run's row and never commits (a client stuck mid-decision).
      const holder = postgres(db.url, { max: 1, onnotice: () => {} });
      const reserved = await holder.reserve();
      await reserved`BEGIN`;
      await reserved`SELECT 1 FROM stategate_runs FOR UPDATE`;
      t.after(async () => {
        reserved.release();
        await holder.end({ timeout: 1 });
      });
      const u = new URL(db.url);
      u.search = '?lock_timeout=500';
      return u.toString();
    },
    reason: /held by another decision|busy/,
  },
  // The PostgreSQL counterparts of fail-closed.test.ts's corrupt run.json: a run row
  // whose snapshot the store cannot use. The hook must deny, never read it as "no run".
  {
    name: 'the active run\'s snapshot row fails the shape check (unknown snapshot version)',
    url: (db, t) => startThenCorrupt(db, t, `jsonb_set(snapshot, '{version}', '99'::jsonb)`),
    reason: /not usable.*version 99.*stategate run stop/,
  },
  {
    name: 'the active run\'s snapshot row names a state its stored definition does not have',
    url: (db, t) => startThenCorrupt(db, t, `jsonb_set(snapshot, '{state}', '"nowhere"'::jsonb)`),
    reason: /cannot be used.*"nowhere" is not in its stored workflow definition.*stategate run stop/,
  },
];

/** A run started through the CLI, then its snapshot row rewritten by `snapshotSql` (an expression over `snapshot`). */
async function startThenCorrupt(db: TestDatabase, t: Owner, snapshotSql: string): Promise<string> {
  const m = clone(t, db.url, 'https://github.com/team/repo');
  const started = await run(m, ['run', 'start', 'team.workflow.json']);
  assert.equal(started.code, 0, started.stderr);
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    const changed = await sql.unsafe(`UPDATE stategate_runs SET snapshot = ${snapshotSql}`);
    assert.equal(changed.count, 1, 'the run row was rewritten');
  } finally {
    await sql.end({ timeout: 5 });
  }
  return db.url;
}

for (const f of FAILURES) {
  for (const client of ['claude', 'vscode'] as const) {
    test(`fail closed (${client}): ${f.name} → the hook denies within the bound, with the reason and the recovery`, { timeout: 120_000 }, async (t) => {
      const db = await createTestDatabase(t);
      const url = await f.url(db, t);
      const m = clone(t, url, 'https://github.com/team/repo');
      // A local run that would allow everything must not be used instead.
      const r = await run(m, ['hook', '--client', client], preToolUse(client, m.cwd, `fc-${client}`), {}, BOUND_MS + MARGIN_MS);
      assert.equal(r.signal, null, `the hook did not end within ${BOUND_MS + MARGIN_MS} ms`);
      const d = decisionOf(r);
      assert.equal(d.decision, 'deny', `${f.name}: ${r.code} ${r.stdout} ${r.stderr}`);
      assert.match(d.reason, f.reason);
      assert.match(d.reason, /denied|denies/);
      if (f.secret) assert.ok(!`${r.stdout}${r.stderr}`.includes(f.secret), 'the password is not in the answer');
      assert.deepEqual(runFilesIn(m.cwd), [], 'nothing fell back to local files');
    });
  }
}

// fail-closed.test.ts's "run stop recovers", for a shared run: the recovery the deny names works on a corrupt row.
test('a corrupt snapshot row: `stategate run stop` (the recovery the deny names) ends the run\'s enforcement and keeps its rows', { timeout: 120_000 }, async (t) => {
  const db = await createTestDatabase(t);
  await startThenCorrupt(db, t, `jsonb_set(snapshot, '{version}', '99'::jsonb)`);
  const m = clone(t, db.url, 'https://github.com/team/repo');
  assert.equal(decisionOf(await run(m, ['hook', '--client', 'claude'], preToolUse('claude', m.cwd, 'rec-1'))).decision, 'deny');
  const stopped = await run(m, ['run', 'stop']);
  assert.equal(stopped.code, 0, `${stopped.stdout} ${stopped.stderr}`);
  assert.match(stopped.stdout, /could not be read.*no longer active/);
  const after = await run(m, ['hook', '--client', 'claude'], preToolUse('claude', m.cwd, 'rec-2'));
  assert.equal(decisionOf(after).decision, 'allow', `no active run any more: ${after.stdout} ${after.stderr}`);
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    const [counts] = await sql`SELECT (SELECT count(*)::int FROM stategate_runs) AS runs, (SELECT count(*)::int FROM stategate_active_runs) AS active, (SELECT count(*)::int FROM stategate_journal) AS journal`;
    assert.deepEqual({ runs: counts!.runs, active: counts!.active }, { runs: 1, active: 0 }, 'the run row is kept, no longer active');
    assert.ok(counts!.journal > 0, 'its journal is kept');
  } finally {
    await sql.end({ timeout: 5 });
  }
});

// The server stopped mid-session: a run in progress, a call allowed, then the server goes away.
for (const client of ['claude', 'vscode'] as const) {
  test(`server stopped mid-session (${client}): the next hook call denies within the bound, with the reason and the recovery`, { timeout: 120_000 }, async (t) => {
    // A server of its own: the suite's server stays up for the other tests.
    const server = await startPrivateServer(t);
    const m = clone(t, server.url, 'https://github.com/team/repo');
    const started = await run(m, ['run', 'start', 'team.workflow.json'], '', { STATEGATE_STORE_TIMEOUT_MS: '30000' });
    assert.equal(started.code, 0, started.stderr);
    const before = await run(m, ['hook', '--client', client], preToolUse(client, m.cwd, `stop-${client}-1`));
    assert.equal(decisionOf(before).decision, 'allow', `with the server up the call is allowed: ${before.stdout} ${before.stderr}`);

    await server.stop();

    const after = await run(m, ['hook', '--client', client], preToolUse(client, m.cwd, `stop-${client}-2`), {}, BOUND_MS + MARGIN_MS);
    assert.equal(after.signal, null, `the hook did not end within ${BOUND_MS + MARGIN_MS} ms`);
    const d = decisionOf(after);
    assert.equal(d.decision, 'deny', `${after.code} ${after.stdout} ${after.stderr}`);
    assert.match(d.reason, /refused the connection.*start the PostgreSQL server/);
    assert.match(d.reason, /denied|denies/);
    assert.ok(!after.stdout.includes(new URL(server.url).password), 'the password is not in the answer');
    // The same call asked again (the client retries) is denied again: nothing was decided locally.
    const again = await run(m, ['hook', '--client', client], preToolUse(client, m.cwd, `stop-${client}-2`), {}, BOUND_MS + MARGIN_MS);
    assert.equal(decisionOf(again).decision, 'deny');
    assert.deepEqual(runFilesIn(m.cwd), [], 'nothing fell back to local files');
  });
}

test('a shared run\'s record (agent-state.json) is written in each machine\'s workspace, and each clone judges definition_changed by its own copy of the workflow', { timeout: 120_000 }, async (t) => {
  const db = await createTestDatabase(t);
  const a = clone(t, db.url, 'https://github.com/team/repo.git');
  const b = clone(t, db.url, 'git@github.com:team/repo.git');
  const started = await run(a, ['run', 'start', 'team.workflow.json']);
  assert.equal(started.code, 0, started.stderr);
  const runId = started.json.run_id as string;
  const recordOf = (c: Clone): any => {
    const file = path.join(c.cwd, '.stategate', 'runs', runId, 'agent-state.json');
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
  };
  assert.equal(recordOf(a)?.stategate.run_id, runId, 'A, which started the run, has its record');
  assert.equal(recordOf(b), undefined, 'B has committed nothing yet');

  // A moves the run twice; then B's first commit (an allowed call) brings B's record up to the store's journal.
  for (const ev of ['TOGGLE', 'TOGGLE']) assert.equal((await run(a, ['run', 'send', ev])).code, 0);
  const call = await run(b, ['hook', '--client', 'claude'], preToolUse('claude', b.cwd, 'rec-1'));
  assert.equal(decisionOf(call).decision, 'allow', call.stdout + call.stderr);
  const { run: snapshot, journal } = await journalOf(db);
  const rb = recordOf(b);
  assert.equal(rb?.stategate.run_id, runId, 'B wrote the record in its own workspace');
  assert.equal(rb.stategate.journal_seq, journal.length, 'B\'s record reflects the whole shared journal, A\'s moves included');
  assert.equal(rb.stategate.state, snapshot.state);
  assert.equal(rb.stategate.steps, snapshot.counters.stepsTotal, 'and B\'s counted call');
  assert.ok(recordOf(a).stategate.journal_seq < journal.length || recordOf(a).stategate.steps !== rb.stategate.steps, 'A\'s record moves with A\'s commits only');
  assert.deepEqual(runFilesIn(b.cwd), [], 'the record only: the run itself stays in the store');

  // definition_changed: each clone reads its own copy of the file, found by its place in the workspace.
  const stateOn = async (c: Clone): Promise<boolean> => {
    const r = await run(c, ['run', 'state']);
    assert.equal(r.code, 0, r.stderr);
    return r.json.definition_changed as boolean;
  };
  assert.equal(await stateOn(b), false, 'B\'s clone holds the same workflow file: unchanged');
  assert.equal(await stateOn(a), false);
  fs.writeFileSync(path.join(b.cwd, 'team.workflow.json'), JSON.stringify({ ...WORKFLOW, states: { ...WORKFLOW.states, a: { ...WORKFLOW.states.a, max_iterations: 3 } } }));
  assert.equal(await stateOn(b), true, 'B\'s copy edited: changed on B');
  assert.equal(await stateOn(a), false, 'A\'s copy is as the run started');
});
