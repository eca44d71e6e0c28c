/**
 * Crash safety soak (`npm run test:soak`).
 *
 * Three kinds of writer processes drive ONE run while a killer sends SIGKILL to
 * random writers at random moments (half of the kills aim at the process that
 * holds the store's lock right then, i.e. in the middle of a commit) and the
 * writers are restarted:
 *   - `stategate run send STEP --data {"last": ID}`          (a process per event)
 *   - `stategate hook` PostToolUse of a Write to `f/ID.txt`   (a process per event;
 *     while the hook command has not landed, `stategate run file-changed f/ID.txt`)
 *   - `statewright_transition {event: STEP, data: {last: ID}}` on long-lived
 *     `stategate mcp` servers driven by the SDK's stdio client
 * Beside them, processes that must never take a killed writer's leftovers for
 * tampering (the record outside the workspace, src/engine/active-record.ts, is
 * written before each commit's rename):
 *   - `stategate hook` PreToolUse of a Read (a process per call; an allowed call
 *     is counted, so these commit too): never denied but for "busy"
 *   - `stategate run state` (a process per call; reads without the lock, racing
 *     the commits): never an error
 * The workflow: `work --STEP--> work`; a `*.txt` write fires the interrupt
 * `touched` into `handling`, whose STEP is `$return`. So every STEP is a
 * transition, and every write from `work` is an interrupt, each carrying its
 * event's unique id into the journal.
 *
 * Afterwards: run.json parses; every ACKNOWLEDGED transition (the writer got
 * its answer) is in the journal exactly once and no id is there twice; the
 * journal's seq is gapless and ends at run.json's journalSeq; replay(journal)
 * reproduces run.json's state, context, status and transition count; a lock
 * left by a killed holder is detected and broken, and none is left at the end;
 * the record outside the workspace names the run and run.json's sha256.
 *
 * Sizes come from the environment (defaults: 10,000 answered events in total):
 *   SOAK_EVENTS, SOAK_CLI_SHARE, SOAK_WRITE_SHARE, SOAK_PRE_SHARE, SOAK_STATE_SHARE
 *   (fractions; the rest is MCP), SOAK_CLI_WORKERS, SOAK_WRITE_WORKERS,
 *   SOAK_PRE_WORKERS, SOAK_STATE_WORKERS, SOAK_MCP_WORKERS,
 *   SOAK_KILL_MIN_MS, SOAK_KILL_MAX_MS, SOAK_BIG_EVERY (one MCP event in N carries
 *   70 KB of data, so journal lines outgrow the store's read window), SOAK_DIR.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { recordFileFor } from '../../src/engine/store/active-record';
import { replay } from '../../src/engine/store/replay';
import { hashText, type JournalEntry } from '../../src/engine/machine/run';
import { STATE_ENV } from '../unit/helpers/state-dir';
import { tempDir } from '../unit/helpers/temp-dir';
import { snapshotCli as snapshotBuiltCli } from '../support/cli-snapshot';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

function snapshotCli(): string {
  return snapshotBuiltCli(REPO_ROOT, 'sg-soak-cli-');
}
const CLI = snapshotCli();

function envInt(name: string, fallback: number): number {
  const v = process.env[name];
  return v === undefined || v === '' ? fallback : Math.max(0, Math.floor(Number(v)));
}
function envFloat(name: string, fallback: number): number {
  const v = process.env[name];
  return v === undefined || v === '' ? fallback : Number(v);
}

const TOTAL = envInt('SOAK_EVENTS', 10_000);
/**
 * The soak is bounded by count and by time (the suite has a budget): writers stop taking new
 * events after SOAK_MAX_S seconds, and every check below holds for what was answered by then. A
 * run cut short must still have answered SOAK_MIN_EVENTS, so a slow gate fails the soak rather
 * than shrinking it to nothing.
 */
const MAX_S = envFloat('SOAK_MAX_S', 120);
const MIN_EVENTS = envInt('SOAK_MIN_EVENTS', Math.min(TOTAL, 2_000));
const CLI_SHARE = envFloat('SOAK_CLI_SHARE', 0.05);
const WRITE_SHARE = envFloat('SOAK_WRITE_SHARE', 0.05);
const PRE_SHARE = envFloat('SOAK_PRE_SHARE', 0.02);
const STATE_SHARE = envFloat('SOAK_STATE_SHARE', 0.02);
const QUOTA = {
  send: Math.round(TOTAL * CLI_SHARE),
  write: Math.round(TOTAL * WRITE_SHARE),
  pre: Math.round(TOTAL * PRE_SHARE),
  state: Math.round(TOTAL * STATE_SHARE),
  mcp: 0,
};
QUOTA.mcp = TOTAL - QUOTA.send - QUOTA.write - QUOTA.pre - QUOTA.state;
const WORKERS = {
  send: envInt('SOAK_CLI_WORKERS', 2),
  write: envInt('SOAK_WRITE_WORKERS', 2),
  pre: envInt('SOAK_PRE_WORKERS', 1),
  state: envInt('SOAK_STATE_WORKERS', 1),
  mcp: envInt('SOAK_MCP_WORKERS', 3),
};
/** One MCP event in this many carries 70 KB of data (0: never). */
const BIG_EVERY = envInt('SOAK_BIG_EVERY', 40);
const KILL_MIN_MS = envInt('SOAK_KILL_MIN_MS', 50);
const KILL_MAX_MS = envInt('SOAK_KILL_MAX_MS', 400);
/**
 * Where the run lives. SIGKILL safety does not depend on fsync (the page cache
 * survives a killed process), so by default the soak runs on tmpfs when there is
 * one, where fsync costs nothing; SOAK_DIR=/tmp measures it on a disk.
 */
const SOAK_ROOT = process.env.SOAK_DIR ?? (fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir());

const WORKFLOW = {
  id: 'soak',
  initial: 'work',
  states: {
    work: { on: { STEP: 'work', FINISH: 'done' } },
    handling: { on: { STEP: '$return' } },
    done: { type: 'final' },
  },
  interrupts: { touched: { trigger: { file_pattern: 'f/*.txt' }, target: 'handling' } },
};

/** Whether `stategate hook` exists in the built CLI (the lead's command). */
function hookAvailable(cwd: string): boolean {
  const r = spawnSync(process.execPath, [CLI, 'hook', '--help'], { cwd, encoding: 'utf8' });
  return r.status === 0;
}

type Kind = 'send' | 'write' | 'pre' | 'state' | 'mcp';
type CliKind = Exclude<Kind, 'mcp'>;
const KINDS: readonly Kind[] = ['send', 'write', 'pre', 'state', 'mcp'];

interface Tally {
  answered: number;
  /** Events under way: a worker claims its slot first, so the quota is met exactly. */
  inFlight: number;
  /** Answers that said a transition (or an interrupt) happened: must be in the journal once. */
  acked: Set<string>;
  killed: number;
  /** Answers that were errors (e.g. busy): allowed, but counted and shown. */
  errors: string[];
}

interface LiveProc {
  readonly kind: Kind;
  readonly child: ChildProcess | undefined;
  readonly pid: number;
  /** Mark it killed so its worker knows the failure was ours. */
  killedByUs: boolean;
}

interface Shared {
  readonly cwd: string;
  readonly live: Map<number, LiveProc>;
  readonly tally: Record<Kind, Tally>;
  readonly useHook: boolean;
  done: boolean;
  ids: number;
  /** Date.now() after which no worker takes a new event (MAX_S). */
  readonly stopTakingAt: number;
}

function newTally(): Tally {
  return { answered: 0, inFlight: 0, acked: new Set(), killed: 0, errors: [] };
}

function runOnce(shared: Shared, kind: Kind, args: string[], input: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; killedByUs: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: shared.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const proc: LiveProc = { kind, child, pid: child.pid ?? -1, killedByUs: false };
    if (child.pid !== undefined) shared.live.set(child.pid, proc);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d));
    child.stderr!.on('data', (d: Buffer) => (stderr += d));
    child.stdin!.on('error', () => {
      /* killed before it read its input */
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (child.pid !== undefined) shared.live.delete(child.pid);
      resolve({ code, signal, stdout, stderr, killedByUs: proc.killedByUs });
    });
    child.stdin!.end(input);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function cliEvent(shared: Shared, kind: CliKind, id: string): ReturnType<typeof runOnce> {
  if (kind === 'send') return runOnce(shared, kind, ['run', 'send', 'STEP', '--data', JSON.stringify({ last: id })], '');
  if (kind === 'state') return runOnce(shared, kind, ['run', 'state'], '');
  if (kind === 'pre') {
    const input = { hook_event_name: 'PreToolUse', session_id: 'soak', cwd: shared.cwd, tool_name: 'Read', tool_input: { file_path: path.join(shared.cwd, 'f', `${id}.txt`) } };
    return runOnce(shared, kind, ['hook', '--client', 'claude'], JSON.stringify(input));
  }
  if (shared.useHook) {
    const input = {
      hookEventName: 'PostToolUse',
      sessionId: 'soak',
      cwd: shared.cwd,
      timestamp: new Date().toISOString(),
      tool_name: 'create_file',
      tool_input: { filePath: path.join(shared.cwd, 'f', `${id}.txt`), content: 'x' },
      tool_use_id: id,
      tool_response: 'ok',
    };
    return runOnce(shared, kind, ['hook', '--client', 'vscode'], JSON.stringify(input));
  }
  return runOnce(shared, kind, ['run', 'file-changed', `f/${id}.txt`], '');
}

/** A worker that runs one CLI process per event until its kind's quota of answers is met. */
async function cliWorker(shared: Shared, kind: CliKind): Promise<void> {
  const tally = shared.tally[kind];
  const quota = QUOTA[kind];
  while (tally.answered + tally.inFlight < quota && Date.now() < shared.stopTakingAt) {
    const id = `${kind}-${++shared.ids}`;
    tally.inFlight++;
    const r = await cliEvent(shared, kind, id).finally(() => tally.inFlight--);
    if (r.signal === 'SIGKILL') {
      assert.ok(r.killedByUs, `${id}: killed by someone else`);
      tally.killed++;
      continue;
    }
    // An answer: it counts towards the quota whatever it says.
    tally.answered++;
    const json = parseJson(r.stdout) as Record<string, unknown> | undefined;
    assert.ok(r.stderr === '' || !/\n\s+at /.test(r.stderr), `${id}: stack trace on stderr: ${r.stderr}`);
    if (kind === 'send') {
      if (r.code === 0 && json?.transitioned === true) tally.acked.add(id);
      else tally.errors.push(`${id}: exit ${r.code} ${r.stderr.trim() || r.stdout.trim()}`);
    } else if (kind === 'state') {
      // A reader racing the commits (and the killer's leftovers) never sees tampering.
      if (r.code !== 0) tally.errors.push(`${id}: exit ${r.code} ${r.stderr.trim()}`);
    } else if (kind === 'pre') {
      const decision = (json as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } } | undefined)?.hookSpecificOutput;
      // Allowed, or denied because an interrupt moved the state meanwhile ("call again"); busy is counted below.
      const raced = /moved to another state while this call was being decided/.test(decision?.permissionDecisionReason ?? '');
      if (r.code !== 0 || (decision?.permissionDecision === 'deny' && !raced)) tally.errors.push(`${id}: exit ${r.code} ${decision?.permissionDecisionReason ?? r.stderr.trim()}`);
    } else if (shared.useHook) {
      // Every answered PostToolUse recorded its result (a `tool_result` entry);
      // the answer says when the write fired the interrupt too.
      if (r.code === 0) {
        tally.acked.add(`result:${id}`);
        if (r.stdout.includes(`Writing f/${id}.txt fired interrupt`)) tally.acked.add(`interrupt:${id}`);
      } else tally.errors.push(`${id}: exit ${r.code} ${r.stderr.trim()}`);
    } else {
      if (r.code === 0 && json?.interrupted === true) tally.acked.add(`interrupt:${id}`);
      else if (r.code !== 0) tally.errors.push(`${id}: exit ${r.code} ${r.stderr.trim() || r.stdout.trim()}`);
    }
  }
}

interface McpConn {
  client: Client;
  transport: StdioClientTransport;
  proc: LiveProc;
}

async function connectMcp(shared: Shared): Promise<McpConn> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: shared.cwd, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...STATE_ENV } });
  const client = new Client({ name: 'soak', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid ?? -1;
  const proc: LiveProc = { kind: 'mcp', child: undefined, pid, killedByUs: false };
  shared.live.set(pid, proc);
  return { client, transport, proc };
}

/** A long-lived MCP server per worker; restarted whenever the killer takes it down. */
async function mcpWorker(shared: Shared): Promise<{ restarts: number }> {
  const tally = shared.tally.mcp;
  let restarts = 0;
  let conn: McpConn | undefined;
  while (tally.answered + tally.inFlight < QUOTA.mcp && Date.now() < shared.stopTakingAt) {
    if (!conn) {
      try {
        conn = await connectMcp(shared);
      } catch {
        restarts++;
        continue; // killed while starting up
      }
      continue; // others may have met the quota meanwhile: check again before claiming a slot
    }
    const id = `mcp-${++shared.ids}`;
    let result: { isError?: unknown; content?: unknown } | undefined;
    tally.inFlight++;
    try {
      // Now and then a large payload: journal lines longer than the store's 64 KB read window.
      const pad = BIG_EVERY > 0 && shared.ids % BIG_EVERY === 0 ? 'p'.repeat(70_000) : '';
      result = (await conn.client.callTool({ name: 'statewright_transition', arguments: { event: 'STEP', data: { last: id, pad } } }, undefined, { timeout: 60_000 })) as typeof result;
    } catch (err) {
      tally.inFlight--;
      // The server died under the call: that must have been the killer.
      const proc = conn.proc;
      shared.live.delete(proc.pid);
      await conn.client.close().catch(() => undefined);
      conn = undefined;
      restarts++;
      assert.ok(proc.killedByUs, `${id}: the MCP server died on its own: ${(err as Error).message}`);
      tally.killed++;
      continue;
    }
    tally.inFlight--;
    tally.answered++;
    const text = Array.isArray(result?.content) ? (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('') : '';
    if (result?.isError !== true && /^Transition STEP: \w+ → \w+\./.test(text)) tally.acked.add(id);
    else tally.errors.push(`${id}: ${text.split('\n')[0]}`);
  }
  if (conn) {
    shared.live.delete(conn.proc.pid);
    await conn.client.close().catch(() => undefined);
  }
  return { restarts };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function lockHolderPid(lockFile: string): number | undefined {
  try {
    const h = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { pid?: unknown };
    return typeof h.pid === 'number' ? h.pid : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface KillStats {
  kills: number;
  /** Kills of the process that held the lock at that moment (a commit cut short). */
  holderKills: number;
  /** Of those, how often the lock file still named the dead process right after. */
  staleLocksLeft: number;
}

async function killer(shared: Shared, lockFile: string): Promise<KillStats> {
  const stats: KillStats = { kills: 0, holderKills: 0, staleLocksLeft: 0 };
  while (!shared.done) {
    const until = Date.now() + KILL_MIN_MS + Math.random() * (KILL_MAX_MS - KILL_MIN_MS);
    while (!shared.done && Date.now() < until) await sleep(Math.min(50, until - Date.now()));
    if (shared.done) break;
    let victim: LiveProc | undefined;
    const holder = lockHolderPid(lockFile);
    if (Math.random() < 0.5 && holder !== undefined) victim = shared.live.get(holder);
    if (!victim) {
      const all = [...shared.live.values()];
      victim = all[Math.floor(Math.random() * all.length)];
    }
    if (!victim || victim.killedByUs) continue;
    victim.killedByUs = true;
    try {
      process.kill(victim.pid, 'SIGKILL');
    } catch {
      continue; // it had just exited
    }
    stats.kills++;
    if (holder === victim.pid) {
      stats.holderKills++;
      if (lockHolderPid(lockFile) === victim.pid) stats.staleLocksLeft++;
    }
  }
  return stats;
}

test(`crash safety: ${TOTAL} events (or as many as ${MAX_S} s take, at least ${MIN_EVENTS}) from CLI, ${'hook/file-changed'} and MCP writers under SIGKILL`, { timeout: 30 * 60_000 }, async (t) => {
  assert.ok(fs.existsSync(CLI), `${CLI} is missing: run \`npm run build\` first`);
  const cwd = tempDir('sg-soak-', t, SOAK_ROOT); // STATEGATE_KEEP_TEMP=1 keeps it for inspection
  fs.writeFileSync(path.join(cwd, 'soak.workflow.json'), JSON.stringify(WORKFLOW, null, 2));
  fs.mkdirSync(path.join(cwd, 'f'));
  const started = spawnSync(process.execPath, [CLI, 'run', 'start', 'soak.workflow.json'], { cwd, encoding: 'utf8' });
  assert.equal(started.status, 0, started.stderr);
  const runId = (JSON.parse(started.stdout) as { run_id: string }).run_id;
  const dir = path.join(cwd, '.stategate');
  const lockFile = path.join(dir, 'lock');
  const runDir = path.join(dir, 'runs', runId);

  const shared: Shared = {
    cwd,
    live: new Map(),
    tally: { send: newTally(), write: newTally(), pre: newTally(), state: newTally(), mcp: newTally() },
    useHook: hookAvailable(cwd),
    done: false,
    ids: 0,
    stopTakingAt: Date.now() + MAX_S * 1000,
  };
  t.diagnostic(`writers: ${WORKERS.send}× run send (${QUOTA.send}), ${WORKERS.write}× ${shared.useHook ? 'hook PostToolUse' : 'run file-changed'} (${QUOTA.write}), ${WORKERS.pre}× hook PreToolUse (${QUOTA.pre}), ${WORKERS.mcp}× mcp (${QUOTA.mcp}); readers: ${WORKERS.state}× run state (${QUOTA.state}); dir ${cwd}`);

  const t0 = Date.now();
  const killing = killer(shared, lockFile);
  const workers: Promise<unknown>[] = [];
  for (let i = 0; i < WORKERS.send; i++) workers.push(cliWorker(shared, 'send'));
  for (let i = 0; i < WORKERS.write; i++) workers.push(cliWorker(shared, 'write'));
  for (let i = 0; i < WORKERS.pre; i++) workers.push(cliWorker(shared, 'pre'));
  for (let i = 0; i < WORKERS.state; i++) workers.push(cliWorker(shared, 'state'));
  const mcpWorkers: Promise<{ restarts: number }>[] = [];
  for (let i = 0; i < WORKERS.mcp; i++) mcpWorkers.push(mcpWorker(shared));
  let killStats: KillStats;
  try {
    await Promise.all([...workers, ...mcpWorkers]);
  } finally {
    shared.done = true;
    killStats = await killing;
  }
  const restarts = (await Promise.all(mcpWorkers)).reduce((a, r) => a + r.restarts, 0);
  const seconds = (Date.now() - t0) / 1000;

  // A lock left by a killed holder: its holder is dead, and the next writer breaks it.
  const leftHolder = lockHolderPid(lockFile);
  if (leftHolder !== undefined) assert.equal(isAlive(leftHolder), false, `the lock is held by live pid ${leftHolder} after every writer ended`);
  // Leave one deliberately: a lock naming a process that has exited.
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  fs.writeFileSync(lockFile, JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), token: 'dead', since: Date.now() }));
  const finalT0 = Date.now();
  const final = spawnSync(process.execPath, [CLI, 'run', 'send', 'STEP', '--data', JSON.stringify({ last: 'final' })], { cwd, encoding: 'utf8' });
  const finalMs = Date.now() - finalT0;
  assert.equal(final.status, 0, `a writer after the soak: ${final.stderr}`);
  assert.equal((JSON.parse(final.stdout) as { transitioned: boolean }).transitioned, true);
  assert.equal(fs.existsSync(lockFile), false, 'no lock left behind');
  assert.equal(fs.existsSync(`${lockFile}.break`), false, 'no breaker file left behind');

  // run.json parses, and the record outside the workspace names it exactly.
  const runText = fs.readFileSync(path.join(runDir, 'run.json'), 'utf8');
  const record = JSON.parse(fs.readFileSync(recordFileFor(fs.realpathSync(cwd), STATE_ENV.STATEGATE_STATE_DIR!), 'utf8')) as { run: string; sha256: string };
  assert.deepEqual([record.run, record.sha256], [runId, hashText(runText)], 'the record names the run and its run.json');
  const envelope = JSON.parse(runText) as {
    journalSeq: number;
    run: { state: string; status: string; context: unknown; counters: { transitions: number } };
  };

  // The journal: every line parses, seq gapless from 1 and ending at run.json's journalSeq.
  const lines = fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8').split('\n');
  assert.equal(lines.pop(), '', 'the journal ends with a newline');
  const journal = lines.map((l, i) => {
    try {
      return JSON.parse(l) as JournalEntry & { seq: number };
    } catch {
      throw new Error(`journal line ${i + 1} is not JSON: ${l.slice(0, 200)}`);
    }
  });
  const badSeq = journal.findIndex((e, i) => e.seq !== i + 1);
  assert.equal(badSeq, -1, `journal seq is gapless (first gap at line ${badSeq + 1})`);
  assert.equal(journal.length, envelope.journalSeq, 'the journal ends at run.json journalSeq');

  // Every id in the journal at most once; every acknowledged one exactly once.
  const seen = new Map<string, number>();
  const note = (id: string) => seen.set(id, (seen.get(id) ?? 0) + 1);
  for (const e of journal) {
    if (e.kind === 'transition' && e.data && typeof e.data === 'object' && !Array.isArray(e.data)) note(String((e.data as { last?: unknown }).last));
    if (e.kind === 'interrupt' && e.file) note(`interrupt:${path.basename(e.file, '.txt')}`);
    const result = e as { kind: string; file?: unknown };
    if (result.kind === 'tool_result' && typeof result.file === 'string') note(`result:${path.basename(result.file, '.txt')}`);
  }
  const twice = [...seen].filter(([, n]) => n > 1);
  assert.deepEqual(twice, [], 'no event is in the journal twice');
  let acked = 0;
  for (const kind of KINDS) {
    const missing = [...shared.tally[kind].acked].filter((id) => seen.get(id) !== 1);
    assert.deepEqual(missing.slice(0, 20), [], `${kind}: ${missing.length} acknowledged events missing from the journal`);
    acked += shared.tally[kind].acked.size;
  }
  assert.equal(seen.get('final'), 1);

  // The journal alone rebuilds run.json.
  const rebuilt = replay(journal);
  assert.equal(rebuilt.state, envelope.run.state);
  assert.deepEqual(rebuilt.context, envelope.run.context);
  assert.equal(rebuilt.status, envelope.run.status);
  assert.equal(rebuilt.transitions, envelope.run.counters.transitions);

  const answered = KINDS.reduce((n, k) => n + shared.tally[k].answered, 0);
  const killedInFlight = KINDS.reduce((n, k) => n + shared.tally[k].killed, 0);
  // Journal records whose writer was killed before it got its answer (committed, not acknowledged).
  const unackedInJournal = seen.size - acked - 1;
  const tmpLeft = fs.readdirSync(runDir).filter((f) => f.endsWith('.tmp')).length;
  const errors = KINDS.flatMap((k) => shared.tally[k].errors);
  const summary = {
    seconds: Number(seconds.toFixed(1)),
    answered,
    acknowledgedTransitions: acked,
    perKind: Object.fromEntries(KINDS.map((k) => [k, { answered: shared.tally[k].answered, acked: shared.tally[k].acked.size, killedInFlight: shared.tally[k].killed, errors: shared.tally[k].errors.length }])),
    kills: killStats.kills,
    killsOfLockHolder: killStats.holderKills,
    staleLocksLeftByKills: killStats.staleLocksLeft,
    mcpRestarts: restarts,
    killedInFlight,
    unacknowledgedButCommitted: unackedInJournal,
    journalEntries: journal.length,
    tempFilesLeft: tmpLeft,
    finalWriterWithStaleLockMs: finalMs,
    hook: shared.useHook,
  };
  t.diagnostic(JSON.stringify(summary));
  if (process.env.SOAK_SUMMARY) fs.writeFileSync(process.env.SOAK_SUMMARY, `${JSON.stringify(summary, null, 2)}\n`);
  if (Date.now() >= shared.stopTakingAt && answered < TOTAL) {
    assert.ok(answered >= MIN_EVENTS, `only ${answered} events answered in ${MAX_S} s (at least ${MIN_EVENTS} expected): the gate is slower than it was`);
    for (const k of KINDS) assert.ok(shared.tally[k].answered > 0, `no ${k} event was answered`);
  } else assert.equal(answered, TOTAL, 'every event was answered');
  assert.ok(killStats.kills > 0, 'the killer killed');
  // Busy answers are allowed (a writer may wait past its lock budget), but nothing else.
  const unexpected = errors.filter((e) => !/busy/i.test(e));
  assert.deepEqual(unexpected.slice(0, 10), [], `${unexpected.length} unexpected error answers`);
  if (!process.env.STATEGATE_TEST_CLI) fs.rmSync(path.dirname(CLI), { recursive: true, force: true });
});
