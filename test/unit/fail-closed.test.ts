/**
 * Fail closed, everywhere: docs/enforcement.md's walls, and
 * every way an active run can be unreadable, through every client of the
 * store: the agent hook (`stategate hook`, VS Code- and Claude Code-shaped
 * PreToolUse inputs), the CLI (`run tool`, `run state`) and the MCP server.
 *
 * Each unreadable case must deny (or error) with a message that says how to
 * recover, never crash (no stack trace; exit codes as documented: `run state`
 * exits 3 with a `run_tampered` error while the record outside the workspace
 * names the run, which every change made behind stategate's back contradicts,
 * and `run_unreadable` without that record; `run tool` answers `decision: deny`;
 * the hook answers a PreToolUse deny), and the recovery it names must work
 * (`stategate run stop`, after which nothing is enforced). A workflow file
 * changed or deleted after the run started changes nothing: the run goes on
 * with its stored definition and `run state` says `definition_changed`.
 *
 * Where the answer is the engine's, the CLI's commands and the hook's decision
 * run in this process (helpers/cli-in-process.ts, helpers/hook-in-process.ts,
 * the same code without a Node start each); the processes stay where they are
 * the point: each client's hook answer to an unreadable run (every case),
 * one case end to end through the CLI processes (exit codes, one stderr line),
 * the MCP server, the lock held past the hook's time budget and the hook's
 * other events. STATEGATE_TEST_CLI points those process tests at another build.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI as BUILT_CLI, requireBuiltCli, type CliResult } from './helpers/cli';
import { cliInProcess } from './helpers/cli-in-process';
import { hookDecision } from './helpers/hook-in-process';
import { STATE_ENV, TEST_STATE_DIR } from './helpers/state-dir';
import { recordFileFor } from '../../src/engine/store/active-record';
import { tempDir } from './helpers/temp-dir';

/** Every call its own id, as clients send (two hooks answering one id are counted once: recent-calls.ts). */
let callSeq = 0;
const nextCallId = (): string => `call-${++callSeq}`;

/** STATEGATE_TEST_CLI runs these tests against another build (e.g. a private copy of dist/). */
const CLI = process.env.STATEGATE_TEST_CLI ?? BUILT_CLI;

function cli(args: readonly string[], opts: { cwd: string; input?: string; env?: NodeJS.ProcessEnv }): CliResult & { ms: number } {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: opts.cwd, input: opts.input ?? '', encoding: 'utf8', env: { ...process.env, ...opts.env } });
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json, ms: Date.now() - t0 };
}

const WORKFLOW = {
  id: 'gate',
  initial: 'reading',
  states: {
    reading: { allowed_tools: ['Read'], instructions: 'Read only.', on: { READY: 'editing', FINISH: 'done' } },
    editing: { allowed_tools: ['Read', 'Edit'], on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};

/** The CLI as a process, without waiting on it: for calls that each wait out a lock at the same time. */
function cliLater(args: readonly string[], opts: { cwd: string; input?: string }): Promise<CliResult & { ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: code ?? -1, stdout, stderr, json, ms: Date.now() - t0 });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** A workspace with the workflow, its run started through the CLI's main in this process. */
async function workspaceHere(start = true): Promise<{ cwd: string; runId: string }> {
  const cwd = tempDir('sg-failclosed-');
  fs.writeFileSync(path.join(cwd, 'gate.workflow.json'), JSON.stringify(WORKFLOW, null, 2));
  if (!start) return { cwd, runId: '' };
  const r = await cliInProcess(['run', 'start', 'gate.workflow.json'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  return { cwd, runId: (r.json as { run_id: string }).run_id };
}

function workspace(start = true): { cwd: string; runId: string } {
  const cwd = tempDir('sg-failclosed-');
  fs.writeFileSync(path.join(cwd, 'gate.workflow.json'), JSON.stringify(WORKFLOW, null, 2));
  if (!start) return { cwd, runId: '' };
  const r = cli(['run', 'start', 'gate.workflow.json'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  return { cwd, runId: (r.json as { run_id: string }).run_id };
}

const stategate = (cwd: string) => path.join(cwd, '.stategate');
const runFile = (cwd: string, runId: string) => path.join(stategate(cwd), 'runs', runId, 'run.json');

type HookClient = 'vscode' | 'claude';

/** A PreToolUse for an Edit of a.txt, as each client sends it (test/fixtures/hooks/README.md). */
function preToolUse(client: HookClient, cwd: string, tool: 'edit' | 'read' = 'edit'): string {
  const file = path.join(cwd, 'a.txt');
  if (client === 'vscode') {
    return JSON.stringify({
      hookEventName: 'PreToolUse',
      sessionId: 'vs-1',
      timestamp: '2026-11-22T20:00:00.000Z',
      cwd,
      transcript_path: '/tmp/t.json',
      tool_use_id: nextCallId(),
      ...(tool === 'edit' ? { tool_name: 'replace_string_in_file', tool_input: { filePath: file, oldString: 'a', newString: 'b' } } : { tool_name: 'read_file', tool_input: { filePath: file, startLine: 1, endLine: 5 } }),
    });
  }
  return JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'cc-1',
    cwd,
    transcript_path: '/tmp/t.jsonl',
    ...(tool === 'edit' ? { tool_name: 'Edit', tool_input: { file_path: file, old_string: 'a', new_string: 'b' } } : { tool_name: 'Read', tool_input: { file_path: file } }),
  });
}

interface HookDecision {
  readonly decision: 'allow' | 'deny' | 'ask';
  readonly reason: string;
  readonly result: CliResult & { ms: number };
}

function hook(client: HookClient, cwd: string, tool: 'edit' | 'read' = 'edit'): HookDecision {
  return hookAnswer(client, cli(['hook', '--client', client], { cwd, input: preToolUse(client, cwd, tool) }));
}

/** The decision in a hook process's answer, as its client reads it. */
function hookAnswer(client: HookClient, r: CliResult & { ms: number }): HookDecision {
  assertNoCrash(r, `hook (${client})`);
  // Exit 2 blocks in both clients (stderr is shown to the model); otherwise the JSON says.
  if (r.code === 2) return { decision: 'deny', reason: r.stderr, result: r };
  assert.equal(r.code, 0, `hook (${client}) exit ${r.code}: ${r.stderr}`);
  const out = (r.stdout.trim() === '' ? {} : JSON.parse(r.stdout)) as { hookSpecificOutput?: { permissionDecision?: 'allow' | 'deny' | 'ask'; permissionDecisionReason?: string } };
  const d = out.hookSpecificOutput?.permissionDecision ?? 'allow';
  return { decision: d, reason: out.hookSpecificOutput?.permissionDecisionReason ?? '', result: r };
}

/** The hook's decision in this process (helpers/hook-in-process.ts): what `hook` answers, without the client's answer shape. */
async function hookHere(client: HookClient, cwd: string, tool: 'edit' | 'read' = 'edit'): Promise<{ decision: string; reason: string }> {
  const d = await hookDecision(client, cwd, JSON.parse(preToolUse(client, cwd, tool)) as object);
  return { decision: d.decision, reason: d.reason };
}

function runTool(cwd: string, tool = 'Edit'): { decision: string; reason: string; result: CliResult } {
  return runToolAnswer(cli(runToolArgs(cwd, tool), { cwd }), tool);
}

/** `run tool` through the CLI's main in this process. */
async function runToolHere(cwd: string, tool = 'Edit'): Promise<{ decision: string; reason: string; result: CliResult }> {
  return runToolAnswer(await cliInProcess(runToolArgs(cwd, tool), { cwd }), tool);
}

function runToolArgs(cwd: string, tool: string): string[] {
  return ['run', 'tool', tool, '--input', JSON.stringify({ file_path: path.join(cwd, 'a.txt'), old_string: 'a', new_string: 'b' })];
}

function runToolAnswer(r: CliResult, tool: string): { decision: string; reason: string; result: CliResult } {
  assertNoCrash(r, `run tool ${tool}`);
  const j = r.json as { decision?: string; reason?: string; error?: { message: string } } | undefined;
  assert.ok(j, `run tool ${tool}: no JSON answer: ${r.stdout} ${r.stderr}`);
  if (j.error) return { decision: 'error', reason: j.error.message, result: r };
  return { decision: String(j.decision), reason: j.reason ?? '', result: r };
}

function assertNoCrash(r: CliResult, what: string): void {
  const all = `${r.stdout}\n${r.stderr}`;
  assert.doesNotMatch(all, /\n\s+at [^\n]+:\d+:\d+\)?/, `${what}: a stack trace:\n${all}`);
  assert.doesNotMatch(all, /internal error|TypeError|ReferenceError|RangeError/, `${what}: an internal error:\n${all}`);
  assert.ok(r.code !== null && r.code >= 0 && r.code <= 3, `${what}: exit ${r.code}`);
}

const RECOVERY = /stategate run stop|\.stategate\/active|restore/;

// ---------------------------------------------------------------------------
// The enforcement table: when nothing is enforced, and when the state's rules apply
// ---------------------------------------------------------------------------

interface TableRow {
  readonly name: string;
  /** Prepare a workspace; returns its folder. */
  readonly setup: () => Promise<string>;
  readonly edit: 'allow' | 'deny';
}

/** A workspace whose run has been through one CLI command (`run send READY`, `run pause`, ...). */
async function runAfter(args: readonly string[]): Promise<string> {
  const { cwd } = await workspaceHere();
  assert.equal((await cliInProcess([...args], { cwd })).code, 0);
  return cwd;
}

const TABLE: readonly TableRow[] = [
  { name: 'no .stategate directory: allow, nothing to enforce', setup: async () => (await workspaceHere(false)).cwd, edit: 'allow' },
  {
    name: 'a .stategate directory but no active run: allow',
    setup: async () => {
      const { cwd } = await workspaceHere(false);
      fs.mkdirSync(path.join(stategate(cwd), 'runs'), { recursive: true });
      return cwd;
    },
    edit: 'allow',
  },
  {
    name: 'an empty `active` file: no active run, allow',
    setup: async () => {
      const { cwd } = await workspaceHere(false);
      fs.mkdirSync(stategate(cwd), { recursive: true });
      fs.writeFileSync(path.join(stategate(cwd), 'active'), '\n');
      return cwd;
    },
    edit: 'allow',
  },
  { name: 'run running, Edit not in allowed_tools: deny', setup: async () => (await workspaceHere()).cwd, edit: 'deny' },
  { name: 'run running, Edit allowed in this state: allow', setup: () => runAfter(['run', 'send', 'READY']), edit: 'allow' },
  { name: 'run paused: allow, enforcement is off', setup: () => runAfter(['run', 'pause']), edit: 'allow' },
  { name: 'run stopped: allow, enforcement is off', setup: () => runAfter(['run', 'stop']), edit: 'allow' },
  { name: 'run in a final state: allow, enforcement is off', setup: () => runAfter(['run', 'send', 'FINISH']), edit: 'allow' },
];

before(() => requireBuiltCli());

for (const row of TABLE) {
  test(`enforcement table: ${row.name} (hook vscode + claude, run tool)`, async () => {
    const cwd = await row.setup();
    for (const client of ['vscode', 'claude'] as const) {
      const h = await hookHere(client, cwd);
      assert.equal(h.decision, row.edit, `hook ${client}: ${h.reason}`);
      if (row.edit === 'deny') assert.match(h.reason, /READY/, 'a denial names the event that leads on');
    }
    const t = await runToolHere(cwd);
    assert.equal(t.decision, row.edit, t.reason);
  });
}

// ---------------------------------------------------------------------------
// Every way the active run can be unreadable
// ---------------------------------------------------------------------------

interface Corruption {
  readonly name: string;
  readonly corrupt: (cwd: string, runId: string) => void;
}

function envelope(cwd: string, runId: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(runFile(cwd, runId), 'utf8')) as Record<string, unknown>;
}

const CORRUPTIONS: readonly Corruption[] = [
  { name: 'run.json missing', corrupt: (cwd, id) => fs.unlinkSync(runFile(cwd, id)) },
  { name: 'the run folder missing', corrupt: (cwd, id) => fs.rmSync(path.dirname(runFile(cwd, id)), { recursive: true }) },
  { name: 'run.json empty', corrupt: (cwd, id) => fs.writeFileSync(runFile(cwd, id), '') },
  {
    name: 'run.json truncated',
    corrupt: (cwd, id) => {
      const text = fs.readFileSync(runFile(cwd, id), 'utf8');
      fs.writeFileSync(runFile(cwd, id), text.slice(0, Math.floor(text.length / 2)));
    },
  },
  { name: 'run.json invalid JSON', corrupt: (cwd, id) => fs.writeFileSync(runFile(cwd, id), '{"format": "stategate-run", version: 1,,}') },
  { name: 'run.json is JSON but not an object', corrupt: (cwd, id) => fs.writeFileSync(runFile(cwd, id), '[1, 2, 3]') },
  { name: 'run.json of an unknown format version', corrupt: (cwd, id) => fs.writeFileSync(runFile(cwd, id), JSON.stringify({ ...envelope(cwd, id), version: 99 })) },
  {
    name: 'a run snapshot of an unknown version',
    corrupt: (cwd, id) => {
      const e = envelope(cwd, id);
      fs.writeFileSync(runFile(cwd, id), JSON.stringify({ ...e, run: { ...(e.run as object), version: 99 } }));
    },
  },
  {
    name: 'a run snapshot missing its state',
    corrupt: (cwd, id) => {
      const e = envelope(cwd, id);
      const run = { ...(e.run as Record<string, unknown>) };
      delete run.state;
      fs.writeFileSync(runFile(cwd, id), JSON.stringify({ ...e, run }));
    },
  },
  {
    name: 'a run whose state is not in its stored definition',
    corrupt: (cwd, id) => {
      const e = envelope(cwd, id);
      fs.writeFileSync(runFile(cwd, id), JSON.stringify({ ...e, run: { ...(e.run as object), state: 'nowhere' } }));
    },
  },
  {
    name: 'a run whose stored definition is not a workflow',
    corrupt: (cwd, id) => {
      const e = envelope(cwd, id);
      const run = e.run as { workflow: Record<string, unknown> };
      fs.writeFileSync(runFile(cwd, id), JSON.stringify({ ...e, run: { ...run, workflow: { ...run.workflow, definitionText: '{"not": "a workflow"' } } }));
    },
  },
  {
    name: 'run.json is a directory',
    corrupt: (cwd, id) => {
      fs.unlinkSync(runFile(cwd, id));
      fs.mkdirSync(runFile(cwd, id));
    },
  },
  { name: '`active` names a run that does not exist', corrupt: (cwd) => fs.writeFileSync(path.join(stategate(cwd), 'active'), '20990101T000000Z-abcdef\n') },
  { name: '`active` names an invalid run id', corrupt: (cwd) => fs.writeFileSync(path.join(stategate(cwd), 'active'), '../../etc\n') },
];

/** The cases also run without the record outside the workspace (a run from before it existed): unreadable, not tampered. */
const WITHOUT_RECORD = new Set(['run.json missing', 'run.json invalid JSON', 'a run snapshot of an unknown version', '`active` names a run that does not exist']);

const cases = [...CORRUPTIONS.map((c) => ({ ...c, record: true })), ...CORRUPTIONS.filter((c) => WITHOUT_RECORD.has(c.name)).map((c) => ({ ...c, record: false }))];

/**
 * One case, and what it must answer: each client's hook (as a process, the answer the client reads),
 * `run tool`, `run state`, and the recovery. `processes`: every call a process (one case runs so, for
 * the exit codes and stderr as a shell sees them); otherwise only the hook's answers to the calls the
 * rules allow (so the denial is the unreadable run's) are processes, the rest runs in this process.
 */
async function unreadableCase(c: (typeof cases)[number], processes: boolean): Promise<void> {
  const { cwd, runId } = await workspaceHere();
  const runCli = async (args: readonly string[]): Promise<CliResult> => (processes ? cli(args, { cwd }) : cliInProcess(args, { cwd }));
  const decide = async (client: HookClient, tool: 'edit' | 'read'): Promise<{ decision: string; reason: string; result?: CliResult }> =>
    processes || tool === 'read' ? hook(client, cwd, tool) : hookHere(client, cwd, tool);
  if (!c.record) fs.rmSync(recordFileFor(fs.realpathSync(cwd), TEST_STATE_DIR));
  // Read is allowed in `reading`: the denial must come from the unreadable run, not the rules.
  c.corrupt(cwd, runId);
  for (const client of ['vscode', 'claude'] as const) {
    for (const tool of ['read', 'edit'] as const) {
      const h = await decide(client, tool);
      assert.equal(h.decision, 'deny', `hook ${client} ${tool} must deny: ${h.result?.stdout ?? h.reason}`);
      assert.match(h.reason, RECOVERY, `hook ${client}: the denial says how to recover: ${h.reason}`);
    }
  }
  const t = processes ? runTool(cwd, 'Read') : await runToolHere(cwd, 'Read');
  assert.equal(t.decision, 'deny', `run tool Read: ${t.result.stdout}`);
  assert.match(t.reason, RECOVERY);

  const s = await runCli(['run', 'state']);
  assertNoCrash(s, 'run state');
  assert.equal(s.code, 3, `run state exits 3 when the run cannot be read: ${s.stdout}`);
  assert.equal((s.json as { error: { code: string } }).error.code, c.record ? 'run_tampered' : 'run_unreadable');
  assert.match((s.json as { error: { message: string } }).error.message, RECOVERY);
  assert.match(s.stderr, /^stategate: .+\n$/, 'one line on stderr');

  // The recovery the message names works, and then nothing is enforced.
  const stop = await runCli(['run', 'stop']);
  assertNoCrash(stop, 'run stop');
  assert.equal(stop.code, 0, `run stop recovers: ${stop.stdout} ${stop.stderr}`);
  assert.equal((await decide('vscode', 'edit')).decision, 'allow', 'after run stop nothing is enforced');
  const again = await runCli(['run', 'start', 'gate.workflow.json']);
  assert.equal(again.code, 0, `a new run starts after recovery: ${again.stderr}`);
  assert.equal((await decide('claude', 'edit')).decision, 'deny', 'and is enforced');
}

for (const c of cases) {
  test(`unreadable run: ${c.name}${c.record ? '' : ', no record outside the workspace'} — hook, run tool and run state deny with a way to recover, and run stop recovers`, () => unreadableCase(c, false));
}

test('unreadable run through the processes only (run.json invalid JSON): hook, run tool, run state (exit 3), run stop', () => unreadableCase(cases.find((c) => c.name === 'run.json invalid JSON' && c.record)!, true));

// ---------------------------------------------------------------------------
// The MCP server: a long-lived process reads the run on every call
// ---------------------------------------------------------------------------

let mcp: { client: Client; cwd: string; runId: string } | undefined;

before(async () => {
  requireBuiltCli();
  const { cwd, runId } = workspace();
  const client = new Client({ name: 'fail-closed', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...STATE_ENV } }));
  mcp = { client, cwd, runId };
});

after(async () => {
  await mcp?.client.close();
});

function text(result: unknown): string {
  return ((result as { content: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('');
}

test('MCP server: every unreadable case answers isError with a way to recover, and serves again once the run is repaired', async () => {
  assert.ok(mcp);
  const { client, cwd } = mcp;
  for (const c of CORRUPTIONS) {
    const fresh = await cliInProcess(['run', 'start', 'gate.workflow.json'], { cwd });
    assert.equal(fresh.code, 0, fresh.stderr);
    const runId = (fresh.json as { run_id: string }).run_id;
    const ok = await client.callTool({ name: 'statewright_get_state', arguments: {} });
    assert.equal(ok.isError, false, `${c.name}: before corruption: ${text(ok)}`);
    c.corrupt(cwd, runId);
    for (const [name, args] of [
      ['statewright_get_state', {}],
      ['statewright_transition', { event: 'READY', data: { x: 1 } }],
    ] as const) {
      const r = await client.callTool({ name, arguments: args });
      assert.equal(r.isError, true, `${c.name}: ${name} must be an error: ${text(r)}`);
      assert.match(text(r), RECOVERY, `${c.name}: ${name} says how to recover: ${text(r)}`);
      assert.doesNotMatch(text(r), /internal error|\n\s+at /, `${c.name}: ${name}: ${text(r)}`);
    }
    assert.equal((await cliInProcess(['run', 'stop'], { cwd })).code, 0, `${c.name}: run stop recovers`);
  }
  // The server survived all of it.
  const list = await client.callTool({ name: 'statewright_list_workflows', arguments: {} });
  assert.match(text(list), /gate/);
});

// ---------------------------------------------------------------------------
// The lock held by a live process past the hook's time budget
// ---------------------------------------------------------------------------

test('lock held by a live process past the time budget: hook and run tool deny saying the run is busy; MCP errors; nothing hangs', async () => {
  const { cwd } = workspace();
  const holder: ChildProcess = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
  try {
    const lock = path.join(stategate(cwd), 'lock');
    fs.writeFileSync(lock, JSON.stringify({ pid: holder.pid, host: os.hostname(), token: 'held-by-test', since: Date.now() }));
    // Each of these waits out the lock on its own (the hooks their time budget, the CLI its lock
    // timeout): they wait at the same time, as calls from several agents would.
    const [hooks, tool, send] = await Promise.all([
      Promise.all((['vscode', 'claude'] as const).map(async (client) => [client, await cliLater(['hook', '--client', client], { cwd, input: preToolUse(client, cwd, 'read') })] as const)),
      cliLater(runToolArgs(cwd, 'Read'), { cwd }),
      cliLater(['run', 'send', 'READY'], { cwd }),
    ]);
    for (const [client, r] of hooks) {
      const h = hookAnswer(client, r);
      assert.equal(h.decision, 'deny', `hook ${client}: ${h.result.stdout}`);
      assert.match(h.reason, /busy/, h.reason);
      assert.ok(h.result.ms < 20_000, `hook ${client} answered in ${h.result.ms} ms`);
    }
    const t = runToolAnswer(tool, 'Read');
    assert.equal(t.decision, 'deny');
    assert.match(t.reason, /busy/);
    // A change through the CLI fails with `busy` (exit 1), no crash.
    assertNoCrash(send, 'run send');
    assert.notEqual(send.code, 0);
    assert.equal((send.json as { error: { code: string } }).error.code, 'busy');
    // The lock is still the live holder's: nobody broke it.
    assert.equal((JSON.parse(fs.readFileSync(lock, 'utf8')) as { token: string }).token, 'held-by-test');
    // Reading is not blocked by the lock.
    const s = cli(['run', 'state'], { cwd });
    assert.equal(s.code, 0, s.stderr);
    // The MCP server: reading works, a transition is an error the agent can read.
    const client = new Client({ name: 'fail-closed-lock', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...STATE_ENV } }));
    try {
      const state = await client.callTool({ name: 'statewright_get_state', arguments: {} });
      assert.equal(state.isError, false, text(state));
      const moved = await client.callTool({ name: 'statewright_transition', arguments: { event: 'READY' } });
      assert.equal(moved.isError, true, text(moved));
      assert.match(text(moved), /busy/);
    } finally {
      await client.close();
    }
    // Once the holder dies, its lock is stale and the next writer breaks it.
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    const after = cli(['run', 'send', 'READY'], { cwd });
    assert.equal(after.code, 0, after.stderr);
    assert.equal(fs.existsSync(lock), false, 'the stale lock was broken and the new one released');
  } finally {
    holder.kill('SIGKILL');
  }
});

test('a lock file left half-written (no holder recorded) is broken once it is old', () => {
  const { cwd } = workspace();
  const lock = path.join(stategate(cwd), 'lock');
  fs.writeFileSync(lock, '');
  const old = new Date(Date.now() - 10_000);
  fs.utimesSync(lock, old, old);
  const r = cli(['run', 'send', 'READY'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(fs.existsSync(lock), false);
});

// ---------------------------------------------------------------------------
// The workflow file changed or deleted after the run started
// ---------------------------------------------------------------------------

for (const change of ['deleted', 'rewritten to allow everything', 'replaced by garbage'] as const) {
  test(`workflow file ${change} after the run started: enforcement goes on with the stored definition`, async () => {
    const { cwd } = await workspaceHere();
    const file = path.join(cwd, 'gate.workflow.json');
    if (change === 'deleted') fs.unlinkSync(file);
    else if (change === 'replaced by garbage') fs.writeFileSync(file, '{ not json');
    else fs.writeFileSync(file, JSON.stringify({ ...WORKFLOW, states: { ...WORKFLOW.states, reading: { on: WORKFLOW.states.reading.on } } }));

    const s = await cliInProcess(['run', 'state'], { cwd });
    assert.equal(s.code, 0, s.stderr);
    const view = s.json as { state: string; definition_changed: boolean; allowed_tools: string[] };
    assert.equal(view.definition_changed, true, 'run state says the definition changed');
    assert.equal(view.state, 'reading');
    for (const client of ['vscode', 'claude'] as const) {
      assert.equal((await hookHere(client, cwd)).decision, 'deny', `hook ${client}: the stored definition still denies Edit`);
      assert.equal((await hookHere(client, cwd, 'read')).decision, 'allow', `hook ${client}: and allows Read`);
    }
    assert.equal((await runToolHere(cwd)).decision, 'deny');
    // The run moves on by its stored definition.
    const send = await cliInProcess(['run', 'send', 'READY'], { cwd });
    assert.equal(send.code, 0, send.stderr);
    assert.equal((send.json as { to: string }).to, 'editing');
    assert.equal((await runToolHere(cwd)).decision, 'allow');
  });
}

// ---------------------------------------------------------------------------
// The hook's other events with an unreadable run: no crash, and the agent is told
// ---------------------------------------------------------------------------

test('unreadable run: the hook\'s other events (SessionStart, UserPromptSubmit, PostToolUse, Stop) never crash; the briefing says calls are denied', () => {
  const { cwd, runId } = workspace();
  fs.writeFileSync(runFile(cwd, runId), '{ torn');
  for (const client of ['vscode', 'claude'] as const) {
    const base = client === 'vscode' ? { sessionId: 'vs-1', cwd, timestamp: '2026-11-22T20:00:00.000Z' } : { session_id: 'cc-1', cwd };
    const name = (event: string) => (client === 'vscode' ? { hookEventName: event } : { hook_event_name: event });
    for (const event of ['SessionStart', 'UserPromptSubmit']) {
      const r = cli(['hook', '--client', client], { cwd, input: JSON.stringify({ ...base, ...name(event), prompt: 'go on' }) });
      assertNoCrash(r, `${client} ${event}`);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /denied/, `${client} ${event}: the agent is told its calls are denied: ${r.stdout}`);
      assert.match(r.stdout, RECOVERY);
    }
    const post = cli(['hook', '--client', client], {
      cwd,
      input: JSON.stringify({ ...base, ...name('PostToolUse'), tool_name: client === 'vscode' ? 'read_file' : 'Read', tool_input: { file_path: path.join(cwd, 'a.txt'), filePath: path.join(cwd, 'a.txt') }, tool_response: 'text' }),
    });
    assertNoCrash(post, `${client} PostToolUse`);
    assert.match(post.stderr, RECOVERY, `${client} PostToolUse says what is wrong: ${post.stderr}`);
    const stop = cli(['hook', '--client', client], { cwd, input: JSON.stringify({ ...base, ...name('Stop') }) });
    assertNoCrash(stop, `${client} Stop`);
    assert.equal(stop.code, 0, stop.stderr);
  }
});
