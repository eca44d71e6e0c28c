/**
 * Two machines, one shared PostgreSQL store, under kill -9 (`npm run test:soak`,
 * which runs under scripts/with-postgres.mjs as the unit tests do).
 *
 * Two clones of one repository (separate folders, separate `.stategate/`, the
 * project found from two spellings of the git remote) drive ONE run in one
 * database while a killer sends SIGKILL to random writer processes of both:
 *
 * Phase 1, in state `work` (no cap): per machine, `stategate run send STEP
 * --data {"last": ID}` processes and `stategate hook` PreToolUse Read processes
 * (Claude Code and VS Code inputs, each call with its tool-use id); a part of
 * the hooks are killed by themselves right after their commit
 * (STATEGATE_TEST_KILL_AFTER_COMMIT), the window where only the store's
 * idempotency key can keep a retry from counting twice. A killed or "busy" hook
 * is retried with the same tool-use id until it answers, as a client retries.
 *
 * Phase 2, in state `capped` (max_iterations CAP): both machines fire more
 * distinct calls than CAP at once, under the same killer and retries.
 *
 * Afterwards: the journal's seq is gapless and ends at the run row's last_seq;
 * replay(journal) reproduces the stored snapshot; every acknowledged send is in
 * the journal exactly once and no send id is there twice; every acknowledged
 * hook call has its kept answer, and the retried ones got the same decision as
 * the store kept; exactly CAP calls of phase 2 were allowed and the snapshot
 * counts CAP; and no session holds a lock (pg_locks) once the clients are gone.
 *
 * Sizes: SOAK_TEAM_SENDS (default 120), SOAK_TEAM_HOOKS (default 120),
 * SOAK_TEAM_CAP (default 24), SOAK_TEAM_WORKERS (per machine and kind, default 2),
 * SOAK_TEAM_KILL_MIN_MS / _MAX_MS (default 300 / 1200).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import postgres from 'postgres';
import { replay } from '../../src/engine/store/replay';
import type { JournalEntry } from '../../src/engine/machine/run';
import { createTestDatabase } from '../support/postgres-server';
import { tempDir } from '../unit/helpers/temp-dir';
import { snapshotCli as snapshotBuiltCli } from '../support/cli-snapshot';
import { preToolUseRead as preToolUse, type HookClient as Client } from '../support/hook-inputs';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

function envInt(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
}

const SENDS = envInt('SOAK_TEAM_SENDS', 120);
const HOOKS = envInt('SOAK_TEAM_HOOKS', 120);
const CAP = envInt('SOAK_TEAM_CAP', 24);
const WORKERS = envInt('SOAK_TEAM_WORKERS', 2);
const KILL_MIN_MS = envInt('SOAK_TEAM_KILL_MIN_MS', 300);
const KILL_MAX_MS = envInt('SOAK_TEAM_KILL_MAX_MS', 1200);

const WORKFLOW = {
  id: 'team-soak',
  initial: 'work',
  states: {
    work: { allowed_tools: ['Read'], on: { STEP: 'work', CAP: 'capped' } },
    capped: { allowed_tools: ['Read'], max_iterations: CAP, on: { FINISH: 'done' } },
    done: { type: 'final' },
  },
};

function snapshotCli(): string {
  return snapshotBuiltCli(REPO_ROOT, 'sg-team-soak-cli-');
}

interface Machine {
  readonly name: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

function machine(name: string, url: string, remote: string): Machine {
  const cwd = tempDir(`sg-team-soak-${name}-`);
  spawnSync('git', ['init', '-q'], { cwd });
  spawnSync('git', ['remote', 'add', 'origin', remote], { cwd });
  fs.writeFileSync(path.join(cwd, 'team.workflow.json'), JSON.stringify(WORKFLOW));
  fs.writeFileSync(path.join(cwd, 'a.txt'), 'a\n');
  const env: NodeJS.ProcessEnv = { ...process.env, STATEGATE_STORE_URL: url, STATEGATE_STORE_TIMEOUT_MS: '20000' };
  delete env.STATEGATE_PROJECT;
  return { name, cwd, env };
}

interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly killedByUs: boolean;
}

/** The processes the killer may choose from. */
const live = new Map<number, { child: ChildProcess; killedByUs: boolean }>();

function runCli(cli: string, m: Machine, args: readonly string[], input: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: m.cwd, env: { ...m.env, ...extraEnv } });
    const proc = { child, killedByUs: false };
    if (child.pid !== undefined) live.set(child.pid, proc);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.on('error', () => {
      /* killed before it read its input */
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (child.pid !== undefined) live.delete(child.pid);
      resolve({ code, signal, stdout, stderr, killedByUs: proc.killedByUs });
    });
    child.stdin.end(input);
  });
}

/** SIGKILL a random live writer every KILL_MIN..KILL_MAX ms until stopped. */
function startKiller(): { stop: () => Promise<number> } {
  let running = true;
  let kills = 0;
  const loop = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, KILL_MIN_MS + Math.random() * (KILL_MAX_MS - KILL_MIN_MS)));
      const procs = [...live.values()];
      const victim = procs[Math.floor(Math.random() * procs.length)];
      if (!victim || !running) continue;
      victim.killedByUs = true;
      if (victim.child.kill('SIGKILL')) kills++;
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return kills;
    },
  };
}


function decisionOf(r: Outcome): { decision: 'allow' | 'deny'; reason: string } {
  if (r.code === 2) return { decision: 'deny', reason: r.stderr };
  const out = (r.stdout.trim() === '' ? {} : JSON.parse(r.stdout)) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  return { decision: out.hookSpecificOutput?.permissionDecision === 'deny' ? 'deny' : 'allow', reason: out.hookSpecificOutput?.permissionDecisionReason ?? '' };
}

/** A denial that decided nothing (the store or the run's lock was not there in time): a client tries again. */
function transient(reason: string): boolean {
  return /busy|did not answer|held by another decision|cannot be used/.test(reason);
}

interface HookTally {
  /** tool-use id → the decision the client finally saw. */
  readonly answers: Map<string, 'allow' | 'deny'>;
  killed: number;
  killedAfterCommit: number;
  retries: number;
}

/** One tool call of an agent: asked until it gets a decision, with the same tool-use id each time. */
async function hookCall(cli: string, m: Machine, client: Client, id: string, tally: HookTally): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) tally.retries++;
    assert.ok(attempt < 200, `${id}: no decision after 200 attempts`);
    // One call in five kills itself right after its commit, on its first attempt.
    const selfKill = attempt === 0 && Number(id.replace(/\D+/g, '')) % 5 === 0;
    const r = await runCli(cli, m, ['hook', '--client', client], preToolUse(client, m.cwd, id), selfKill ? { STATEGATE_TEST_KILL_AFTER_COMMIT: '1' } : {});
    if (r.signal === 'SIGKILL') {
      if (r.killedByUs) tally.killed++;
      else {
        assert.ok(selfKill, `${id}: killed by someone else`);
        tally.killedAfterCommit++;
      }
      continue;
    }
    assert.ok(!/\n\s+at /.test(r.stderr), `${id}: stack trace on stderr: ${r.stderr}`);
    const d = decisionOf(r);
    if (d.decision === 'deny' && transient(d.reason)) continue;
    tally.answers.set(id, d.decision);
    return;
  }
}

interface SendTally {
  readonly acknowledged: Set<string>;
  readonly attempted: Set<string>;
  killed: number;
}

async function sendOnce(cli: string, m: Machine, id: string, tally: SendTally): Promise<void> {
  tally.attempted.add(id);
  const r = await runCli(cli, m, ['run', 'send', 'STEP', '--data', JSON.stringify({ last: id })], '');
  if (r.signal === 'SIGKILL') {
    tally.killed++;
    return;
  }
  assert.ok(!/\n\s+at /.test(r.stderr), `${id}: stack trace on stderr: ${r.stderr}`);
  const json = (() => {
    try {
      return JSON.parse(r.stdout) as { transitioned?: boolean; error?: { code?: string } };
    } catch {
      return undefined;
    }
  })();
  if (r.code === 0 && json?.transitioned === true) tally.acknowledged.add(id);
  else assert.ok(json?.error?.code === 'busy' || json?.error?.code === 'store_unavailable', `${id}: unexpected answer ${r.code} ${r.stdout} ${r.stderr}`);
}

/** Run `count` jobs over `workers` workers per machine. */
async function pool(machines: readonly Machine[], workers: number, count: number, job: (m: Machine, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    machines.flatMap((m) =>
      Array.from({ length: workers }, async () => {
        while (next < count) await job(m, next++);
      }),
    ),
  );
}

test('two machines, one PostgreSQL store, kill -9: nothing lost or doubled, no lock left, the journal replays to the snapshot, max_iterations held across both', { timeout: 900_000 }, async (t) => {
  const cli = snapshotCli();
  const db = await createTestDatabase(t);
  const machines = [machine('a', db.url, 'https://github.com/team/repo.git'), machine('b', db.url, 'git@github.com:team/repo.git')];
  const started = await runCli(cli, machines[0]!, ['run', 'start', 'team.workflow.json'], '');
  assert.equal(started.code, 0, started.stderr);

  // Phase 1: sends and hooks from both machines, under the killer.
  const sends: SendTally = { acknowledged: new Set(), attempted: new Set(), killed: 0 };
  const hooks: HookTally = { answers: new Map(), killed: 0, killedAfterCommit: 0, retries: 0 };
  let killer = startKiller();
  await Promise.all([
    pool(machines, WORKERS, SENDS, (m, i) => sendOnce(cli, m, `send-${m.name}-${i}`, sends)),
    pool(machines, WORKERS, HOOKS, (m, i) => hookCall(cli, m, i % 2 === 0 ? 'claude' : 'vscode', `toolu_p1_${m.name}_${i}`, hooks)),
  ]);
  const kills1 = await killer.stop();
  for (const [id, d] of hooks.answers) assert.equal(d, 'allow', `${id}: a Read in state work is allowed`);

  // Phase 2: into `capped`, then more calls than CAP from both machines at once.
  const cap = await runCli(cli, machines[1]!, ['run', 'send', 'CAP'], '');
  assert.equal(cap.code, 0, cap.stdout + cap.stderr);
  const capped: HookTally = { answers: new Map(), killed: 0, killedAfterCommit: 0, retries: 0 };
  killer = startKiller();
  const calls = CAP * 2;
  await pool(machines, WORKERS * 2, calls, (m, i) => hookCall(cli, m, i % 2 === 0 ? 'vscode' : 'claude', `toolu_p2_${i}`, capped));
  const kills2 = await killer.stop();

  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`SELECT r.run_id, r.snapshot, r.last_seq FROM stategate_active_runs a JOIN stategate_runs r USING (run_id)`;
    const snapshot = row!.snapshot;
    const journal = (await sql`SELECT entry FROM stategate_journal WHERE run_id = ${row!.run_id} ORDER BY seq`).map((r) => r.entry as JournalEntry & { seq: number });

    // The journal: gapless, ends at last_seq, replays to the snapshot.
    assert.deepEqual(
      journal.map((e) => e.seq),
      Array.from({ length: journal.length }, (_, i) => i + 1),
      'journal seq without gaps',
    );
    assert.equal(Number(row!.last_seq), journal.length, 'last_seq is the last journal row');
    const rebuilt = replay(journal);
    assert.equal(rebuilt.state, snapshot.state);
    assert.equal(rebuilt.status, snapshot.status);
    assert.deepEqual(rebuilt.context, snapshot.context);
    assert.equal(rebuilt.transitions, snapshot.counters.transitions);

    // Sends: every acknowledged one exactly once, none twice, none that was never sent.
    const seen = new Map<string, number>();
    for (const e of journal) {
      const last = e.kind === 'transition' && e.data && typeof e.data === 'object' ? (e.data as { last?: unknown }).last : undefined;
      if (typeof last === 'string') seen.set(last, (seen.get(last) ?? 0) + 1);
    }
    const twice = [...seen].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], 'no send in the journal twice');
    const lost = [...sends.acknowledged].filter((id) => !seen.has(id));
    assert.deepEqual(lost, [], 'every acknowledged send is in the journal');
    const unknown = [...seen.keys()].filter((id) => !sends.attempted.has(id));
    assert.deepEqual(unknown, [], 'nothing in the journal that was not sent');

    // Hooks: every call answered has its kept answer, with the decision the client finally saw.
    const kept = new Map<string, unknown>();
    for (const r of await sql`SELECT idempotency_key, result FROM stategate_answers WHERE run_id = ${row!.run_id}`) kept.set(r.idempotency_key as string, r.result);
    // Keys are `decide:<tool-use id>:<digest of the call>` (runner.ts).
    const keyOf = (id: string): string | undefined => [...kept.keys()].find((k) => k.includes(`:${id}:`));
    const keysById = new Map<string, string | undefined>();
    for (const id of [...hooks.answers.keys(), ...capped.answers.keys()]) keysById.set(id, keyOf(id));
    const unkept = [...hooks.answers.keys()].filter((id) => keysById.get(id) === undefined);
    assert.deepEqual(unkept.slice(0, 10), [], `${unkept.length} allowed calls of phase 1 without a kept answer`);
    assert.equal(hooks.answers.size, HOOKS, 'every phase-1 call was answered');

    // max_iterations across both machines: exactly CAP allowed, and the run counts CAP.
    const allowed = [...capped.answers.values()].filter((d) => d === 'allow').length;
    assert.equal(capped.answers.size, calls, 'every phase-2 call was answered');
    assert.equal(allowed, CAP, `exactly max_iterations (${CAP}) calls allowed across both machines`);
    assert.equal(snapshot.state, 'capped');
    assert.equal(snapshot.counters.iterations, CAP, 'the run counted CAP calls in `capped`');

    // No lock held once every client is gone (a killed client's backend ends when its socket closes).
    let locks = -1;
    for (let i = 0; i < 100; i++) {
      const [l] = await sql`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()`;
      locks = l!.n as number;
      if (locks === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(locks, 0, 'no session of a client holds a lock');

    t.diagnostic(
      `phase 1: ${sends.acknowledged.size}/${SENDS} sends acknowledged (${sends.killed} killed), ${HOOKS} hook calls answered ` +
        `(${hooks.killed} killed by the killer, ${hooks.killedAfterCommit} killed right after their commit, ${hooks.retries} retries), ${kills1} kills; ` +
        `phase 2: ${calls} calls, ${allowed} allowed (cap ${CAP}), ${capped.killed + capped.killedAfterCommit} killed, ${capped.retries} retries, ${kills2} kills; ` +
        `journal ${journal.length} rows, ${snapshot.counters.transitions} transitions`,
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
});
