/**
 * The shared store's cost, as agents pay it: the real built hook
 * (`dist/cli.js hook`), a fresh process per call, answering a PreToolUse Read
 * on a running workflow, with the run in PostgreSQL (STATEGATE_STORE_URL, a
 * server on loopback) against the same call with the run in `.stategate/`
 * (the file store), both measured in the same run, in rotation. Target: the
 * PostgreSQL p50 at most 2× the file store's.
 *
 * Then throughput: decisions per second on one server with 1, 8 and 32 hook
 * processes at once, all on the one run of one project (the team's case: a
 * decision takes the run's row lock, so they queue there), against the file
 * store's figure at the same concurrency (its own lock file).
 *
 * And where the time goes: the messages a hook sends to the server per call,
 * counted by a loopback relay between the hook and the server (startup and
 * authentication, and each Sync or simple Query: one round trip unless
 * pipelined), and the hook's module load (the `postgres` driver is loaded only
 * when a shared store is in force).
 *
 * The server is the one STATEGATE_TEST_PG_URL names: bench/run.mjs starts it the
 * way the test suite does (scripts/with-postgres.mjs).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { createTestDatabase } from '../../test/support/postgres-server.js';
import { pendingRow, ratioRow, type Row } from '../row.js';
import { timeSpawn, type Spawned } from './spawn-timed.js';
import { percentile, summarise } from '../stats.js';

export interface TeamOptions {
  /** The folder holding dist/ (dist/cli.js is run from there). */
  readonly root: string;
  /** Calls of each kind for the latency rows. */
  readonly runs: number;
  /** Calls per concurrency level for the throughput rows (at least 4 per process). */
  readonly throughputCalls: number;
  readonly concurrency: readonly number[];
}

const WORKFLOW = {
  id: 'bench-team',
  initial: 'work',
  states: {
    work: { instructions: 'Work on the change.', allowed_tools: ['Read', 'Grep', 'Edit'], on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};



interface Workspace {
  readonly name: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/** A clone of github.com/bench/team with a workflow file, using the store `url` names ('' : the file store). */
function workspace(base: string, name: string, url: string): Workspace {
  const cwd = join(base, name);
  mkdirSync(join(cwd, 'src'), { recursive: true });
  writeFileSync(join(cwd, 'src', 'app.ts'), 'const a = 1;\n');
  writeFileSync(join(cwd, 'bench.workflow.json'), JSON.stringify(WORKFLOW, null, 2));
  spawnSync('git', ['init', '-q'], { cwd });
  spawnSync('git', ['remote', 'add', 'origin', 'https://github.com/bench/team.git'], { cwd });
  const env: NodeJS.ProcessEnv = { ...process.env, STATEGATE_STORE_URL: url };
  delete env.STATEGATE_PROJECT;
  return { name, cwd, env };
}

let callCounter = 0;

/** A Claude Code PreToolUse Read with a tool-use id of its own (what an agent sends; the id is the store's idempotency key). */
function readCall(ws: Workspace): string {
  return JSON.stringify({
    session_id: 'bench',
    hook_event_name: 'PreToolUse',
    cwd: ws.cwd,
    transcript_path: join(ws.cwd, 't.jsonl'),
    tool_use_id: `toolu_bench_${process.pid}_${++callCounter}`,
    tool_name: 'Read',
    tool_input: { file_path: join(ws.cwd, 'src', 'app.ts') },
  });
}

function allowed(r: Spawned): boolean {
  return r.code === 0 && !/"deny"/.test(r.stdout);
}

function why(r: Spawned): string {
  return `exit ${r.code}: ${(r.stdout + r.stderr).replace(/\s+/g, ' ').slice(0, 300)}`;
}

/**
 * CPU time (ms) the PostgreSQL server has used so far: the postmaster's own and that of its
 * children it has reaped (every backend, one per hook connection, ends with its hook). Linux
 * only (/proc); undefined elsewhere or when the server is not on this machine.
 */
async function serverCpuMs(url: string): Promise<number | undefined> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
    const stat = (pid: number): string[] => {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return text.slice(text.lastIndexOf(')') + 2).split(' ');
    };
    const postmaster = Number(stat(row!.pid)[1]); // ppid
    const f = stat(postmaster);
    // utime, stime, cutime, cstime: fields 14-17 of the line, 11-14 after the command.
    const ticks = [11, 12, 13, 14].reduce((s, i) => s + Number(f[i]), 0);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** `calls` hook calls on `ws`, `concurrency` processes at a time; decisions (allowed calls) per second, and every answer checked. */
async function throughput(cli: string, ws: Workspace, calls: number, concurrency: number): Promise<{ perSecond: number; denied: number }> {
  let next = 0;
  let denied = 0;
  const t0 = performance.now();
  const worker = async (): Promise<void> => {
    while (next < calls) {
      next++;
      const r = await timeSpawn([cli, 'hook', '--client', 'claude'], readCall(ws), ws.cwd, ws.env);
      if (!allowed(r)) {
        denied++;
        if (denied === 1) process.stderr.write(`[bench] team: a ${ws.name} call at concurrency ${concurrency} was not allowed: ${why(r)}\n`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { perSecond: (calls - denied) / ((performance.now() - t0) / 1000), denied };
}

/**
 * A loopback relay to the server that counts what the client sends: the
 * startup message, SASL messages (authentication round trips), and Sync / Query
 * messages (one round trip each, unless the client pipelines them).
 */
async function countingRelay(target: URL): Promise<{ port: number; counts: () => { startup: number; auth: number; syncs: number; queries: number }; close: () => void }> {
  const counts = { startup: 0, auth: 0, syncs: 0, queries: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let buf = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (!started) {
          if (buf.length < 8) break;
          const len = buf.readInt32BE(0);
          if (buf.length < len) break;
          // An SSLRequest (80877103) is answered with one byte, then the real startup follows.
          if (buf.readInt32BE(4) !== 80877103) {
            counts.startup++;
            started = true;
          }
          buf = buf.subarray(len);
          continue;
        }
        if (buf.length < 5) break;
        const len = buf.readInt32BE(1);
        if (buf.length < 1 + len) break;
        const type = String.fromCharCode(buf[0]!);
        if (type === 'p') counts.auth++;
        else if (type === 'S') counts.syncs++;
        else if (type === 'Q') counts.queries++;
        buf = buf.subarray(1 + len);
      }
    });
    upstream.on('data', (d) => client.write(d));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    counts: () => ({ ...counts }),
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

export async function measureTeam(opts: TeamOptions): Promise<Row[]> {
  const measure = 'hook PreToolUse Read, spawn to answer, shared PostgreSQL store (loopback)';
  const serverUrl = process.env.STATEGATE_TEST_PG_URL;
  if (!serverUrl) return [pendingRow(measure, '≤ 2× file store', 'no PostgreSQL server: run through bench/run.mjs, which starts one (or set STATEGATE_TEST_PG_URL)')];
  const cli = join(opts.root, 'dist', 'cli.js');
  const base = mkdtempSync(join(tmpdir(), 'stategate-bench-team-'));
  const db = await createTestDatabase();
  try {
    const file = workspace(base, 'file', '');
    const pg = workspace(base, 'pg', db.url);
    for (const ws of [file, pg]) {
      const started = spawnSync(process.execPath, [cli, 'run', 'start', 'bench.workflow.json'], { cwd: ws.cwd, env: ws.env, encoding: 'utf8' });
      if (started.status !== 0) throw new Error(`could not start the ${ws.name} bench run: ${started.stderr || started.stdout}`);
    }
    for (const ws of [file, pg]) {
      const r = await timeSpawn([cli, 'hook', '--client', 'claude'], readCall(ws), ws.cwd, ws.env);
      if (!allowed(r)) return [pendingRow(measure, '≤ 2× file store', `the ${ws.name} store's hook does not allow the Read: ${why(r)}`)];
    }

    // Latency: file store, PostgreSQL store and bare node in rotation.
    const kinds = [
      { name: 'baseline', args: ['-e', '0'], ws: file },
      { name: 'file', args: [cli, 'hook', '--client', 'claude'], ws: file },
      { name: 'pg', args: [cli, 'hook', '--client', 'claude'], ws: pg },
    ];
    const samples = new Map<string, number[]>(kinds.map((k) => [k.name, []]));
    for (let i = 0; i < opts.runs; i++) {
      for (let j = 0; j < kinds.length; j++) {
        const k = kinds[(i + j) % kinds.length]!;
        const r = await timeSpawn(k.args, readCall(k.ws), k.ws.cwd, k.ws.env);
        if (k.name !== 'baseline' && !allowed(r)) throw new Error(`${k.name} hook call was not allowed: ${why(r)}`);
        samples.get(k.name)!.push(r.ms);
      }
    }
    const f = summarise(samples.get('file')!);
    const p = summarise(samples.get('pg')!);
    const b = summarise(samples.get('baseline')!);
    const p90 = (name: string): number => percentile(samples.get(name)!, 0.9);
    const fileName = 'file store (.stategate/), same run';
    const rows: Row[] = [
      ratioRow({ measure, stat: 'p50', unit: 'ms', value: p.p50, baseline: f.p50, baselineName: fileName, target: '≤ 2× file store', pass: p.p50 <= 2 * f.p50, note: `${opts.runs} calls each, in rotation with the file store and \`node -e 0\` (p50 ${b.p50.toFixed(1)} ms, p90 ${p90('baseline').toFixed(1)} ms); each call its own tool-use id` }),
      ratioRow({ measure, stat: 'p90', unit: 'ms', value: p90('pg'), baseline: p90('file'), baselineName: fileName, target: '(informative)' }),
    ];

    // Where the time goes: the messages one hook call sends, through a counting relay.
    const relay = await countingRelay(new URL(db.url));
    try {
      const via = new URL(db.url);
      via.port = String(relay.port);
      const relayed: Workspace = { ...pg, env: { ...pg.env, STATEGATE_STORE_URL: via.toString() } };
      const calls = 5;
      for (let i = 0; i < calls; i++) {
        const r = await timeSpawn([cli, 'hook', '--client', 'claude'], readCall(relayed), relayed.cwd, relayed.env);
        if (!allowed(r)) throw new Error(`relayed hook call was not allowed: ${why(r)}`);
      }
      const c = relay.counts();
      rows.push({
        measure: 'hook PreToolUse Read on the shared store: messages to the server per call',
        stat: 'per call',
        unit: 'msgs',
        value: (c.syncs + c.queries) / calls,
        target: '(informative)',
        note: `counted by a relay over ${calls} calls: ${c.startup / calls} connection(s), ${c.auth / calls} SASL message(s) (scram-sha-256), ${(c.syncs + c.queries) / calls} statement round trips (Sync or Query messages) per call`,
      });
    } finally {
      relay.close();
    }

    // Throughput at 1, 8, 32 processes at once, each store on its own run.
    for (const n of opts.concurrency) {
      const calls = Math.max(opts.throughputCalls, n * 4);
      const fr = await throughput(cli, file, calls, n);
      const cpuBefore = await serverCpuMs(db.url);
      const pr = await throughput(cli, pg, calls, n);
      const cpuAfter = await serverCpuMs(db.url);
      // The two serverCpuMs connections are counted too: negligible against the calls.
      const serverMs = cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / calls : undefined;
      rows.push({
        measure: `hook decisions per second, ${n} hook process${n === 1 ? '' : 'es'} at once on one run, shared PostgreSQL store`,
        stat: `${calls} calls`,
        unit: 'calls/s',
        value: pr.perSecond,
        baseline: fr.perSecond,
        baselineName: 'file store, same concurrency',
        // Cost per decision relative to the file store's: its rate ÷ ours.
        ratio: fr.perSecond / pr.perSecond,
        target: '(informative)',
        note:
          `every call a fresh process, clients and server on the same 2 cores; ${serverMs === undefined ? '' : `server CPU ${serverMs.toFixed(1)} ms per call (postmaster and its backends); `}` +
          `denied (fail closed: the run busy or no answer within the bound, not counted as decisions): ${pr.denied} (PostgreSQL), ${fr.denied} (file); × baseline is the cost per decision (file rate ÷ PostgreSQL rate)`,
      });
    }
    const admin = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const [row] = await admin`SELECT last_seq, (snapshot->'counters'->>'iterations')::int AS iterations FROM stategate_runs r JOIN stategate_active_runs a USING (run_id)`;
      process.stderr.write(`[bench] team: the shared run counted ${row?.iterations} calls\n`);
    } finally {
      await admin.end({ timeout: 5 });
    }
    return rows;
  } finally {
    await db.drop().catch(() => undefined);
    rmSync(base, { recursive: true, force: true });
  }
}
