/**
 * Issue 29, "where the run is": the hook finds the run from the record kept
 * outside the workspace, never from the first `.stategate` above the client's
 * cwd (an agent that makes `sub/.stategate` with a forged run and works from
 * `sub/` stays gated), no agent may create a `.stategate` folder anywhere,
 * and each client's own spelling of where a command runs (Gemini's
 * `dir_path`, Codex's and OpenCode's `workdir`, Cursor's `cwd`) is where its
 * `> file` lands. Through `stategate hook` for Claude Code, VS Code and the
 * client concerned, and `stategate run tool`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, type CliResult } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';
import { findStoreDir, recordFileFor } from '../../src/engine/store/active-record';

let seq = 0;
const callId = (): string => `cwd-call-${++seq}`;

const WORKFLOW = {
  id: 'cwd',
  initial: 'reading',
  meta: { debug: true },
  states: {
    reading: { allowed_tools: ['Read'], on: { WRITE: 'writing' } },
    writing: { allowed_tools: ['Read', 'Write', 'Edit', 'Bash', 'mcp__fs'], on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};
/** What a forged run would hold: no rules at all. */
const FREE = { id: 'free', initial: 'open', states: { open: { on: { DONE: 'done' } }, done: { type: 'final' } } };

function workspace(t: { after: (f: () => void) => void }, state: 'reading' | 'writing'): string {
  const base = fs.realpathSync(tempDir('sg-hook-cwd-'));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const ws = path.join(base, 'ws');
  fs.mkdirSync(path.join(ws, 'sub', 'deeper'), { recursive: true });
  fs.mkdirSync(path.join(ws, '.claude'));
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'w.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'w.workflow.json'], { cwd: ws }).code, 0);
  if (state !== 'reading') assert.equal(cli(['run', 'force', state], { cwd: ws }).code, 0);
  return ws;
}

/**
 * `sub/.stategate` as an agent would make it: a real store of a run with no
 * rules, started where no record of it is kept (another state folder), copied in.
 */
function forge(ws: string): void {
  const elsewhere = fs.realpathSync(tempDir('sg-forge-'));
  fs.writeFileSync(path.join(elsewhere, 'free.workflow.json'), JSON.stringify(FREE));
  assert.equal(cli(['run', 'start', 'free.workflow.json'], { cwd: elsewhere, env: { STATEGATE_STATE_DIR: path.join(elsewhere, 'state') } }).code, 0);
  fs.cpSync(path.join(elsewhere, '.stategate'), path.join(ws, 'sub', '.stategate'), { recursive: true });
  fs.rmSync(elsewhere, { recursive: true, force: true });
}

type Client = 'claude' | 'vscode' | 'gemini' | 'codex' | 'opencode' | 'cursor';

/** One PreToolUse in the client's own input shape. */
function input(client: Client, cwd: string, tool: string, toolInput: Record<string, unknown>): Record<string, unknown> {
  switch (client) {
    case 'vscode':
      return { hookEventName: 'PreToolUse', sessionId: 's', timestamp: '2026-12-07T00:00:00.000Z', cwd, transcript_path: '/tmp/t', tool_name: tool, tool_input: toolInput, tool_use_id: callId() };
    case 'gemini':
      return { session_id: 's', transcript_path: '/tmp/t', cwd, hook_event_name: 'BeforeTool', timestamp: '2026-12-07T00:00:00.000Z', tool_name: tool, tool_input: toolInput };
    case 'cursor':
      return { hook_event_name: 'beforeShellExecution', conversation_id: 'c', workspace_roots: [cwd], command: toolInput['command'], cwd: toolInput['cwd'] ?? cwd };
    default:
      return { hook_event_name: 'PreToolUse', session_id: 's', cwd, transcript_path: '/tmp/t', tool_name: tool, tool_input: toolInput, tool_use_id: callId() };
  }
}

/** The decision as the client reads its answer. */
function decision(client: Client, r: CliResult): { deny: boolean; reason: string } {
  assert.ok(r.code === 0 || r.code === 2, `exit ${r.code}: ${r.stderr}`);
  const j = r.json ?? {};
  const reason: unknown = j.hookSpecificOutput?.permissionDecisionReason ?? j.reason ?? j.agent_message ?? '';
  const deny = j.hookSpecificOutput?.permissionDecision === 'deny' || j.decision === 'deny' || j.permission === 'deny';
  return { deny, reason: String(reason) };
}

function hook(client: Client, ws: string, cwd: string, tool: string, toolInput: Record<string, unknown>): { deny: boolean; reason: string } {
  return decision(client, cli(['hook', '--client', client], { cwd, input: JSON.stringify(input(client, cwd, tool, toolInput)) }));
}

const WRITE_TOOL: Record<'claude' | 'vscode' | 'gemini', (f: string) => [string, Record<string, unknown>]> = {
  claude: (f) => ['Write', { file_path: f, content: 'x' }],
  vscode: (f) => ['create_file', { filePath: f, content: 'x' }],
  gemini: (f) => ['write_file', { file_path: f, content: 'x' }],
};

for (const client of ['claude', 'vscode', 'gemini'] as const) {
  test(`${client}: a .stategate made in a subfolder does not blind the hook started there`, (t) => {
    const ws = workspace(t, 'reading');
    forge(ws);
    for (const cwd of [path.join(ws, 'sub'), path.join(ws, 'sub', 'deeper')]) {
      const [tool, args] = WRITE_TOOL[client](path.join(cwd, 'x.txt'));
      const d = hook(client, ws, cwd, tool, args);
      assert.equal(d.deny, true, `allowed from ${cwd}: the forged run in sub/.stategate decided`);
      assert.match(d.reason, /not allowed in state 'reading'/);
    }
    // The workspace's own run still decides the calls it allows.
    const [tool, args] = client === 'claude' ? ['Read', { file_path: 'a' }] : client === 'vscode' ? ['read_file', { filePath: 'a' }] : ['read_file', { file_path: 'a' }];
    assert.equal(hook(client, ws, path.join(ws, 'sub'), tool, args).deny, false);
  });
}

test('run tool: no tool may create a .stategate folder, the workspace\'s own workflows may be written', (t) => {
  const ws = workspace(t, 'writing');
  const tool = (name: string, args: unknown): CliResult => cli(['run', 'tool', name, '--input', JSON.stringify(args)], { cwd: ws });
  for (const [name, args] of [
    ['Write', { file_path: 'sub/.stategate/workflows/w.json', content: '{}' }],
    ['Bash', { command: 'mkdir -p sub/deeper/.stategate' }],
    ['mcp__fs__create_directory', { path: 'sub/.stategate' }],
  ] as const) {
    const r = tool(name, args);
    assert.equal(r.json?.decision, 'deny', `${name} allowed`);
    assert.match(r.json.reason, /would create a \.stategate folder .*sub\/(deeper\/)?\.stategate\).*Use another folder name/);
  }
  assert.equal(tool('Write', { file_path: '.stategate/workflows/w.json', content: '{}' }).json?.decision, 'allow');
});

/** Creating a `.stategate` anywhere, by any tool: [client, tool, input, why]. */
const CREATE_STORE: Array<[Client, string, (ws: string) => Record<string, unknown>]> = [
  ['claude', 'Write', (ws) => ({ file_path: path.join(ws, 'sub', '.stategate', 'workflows', 'w.json'), content: '{}' })],
  ['claude', 'Write', (ws) => ({ file_path: path.join(ws, 'a', 'b', 'c', '.stategate'), content: 'x' })],
  ['vscode', 'create_file', (ws) => ({ filePath: path.join(ws, 'sub', '.STATEGATE', 'workflows', 'w.json'), content: '{}' })],
  ['claude', 'Bash', () => ({ command: 'mkdir -p sub/.stategate' })],
  ['vscode', 'run_in_terminal', () => ({ command: 'mkdir sub/deeper/.stategate', explanation: 'x', isBackground: false })],
  ['claude', 'Bash', () => ({ command: 'cp -r .stategate sub/.stategate' })],
  ['claude', 'mcp__fs__create_directory', () => ({ path: 'sub/.stategate' })],
  ['gemini', 'run_shell_command', () => ({ command: 'mkdir .stategate', dir_path: 'sub' })],
];

for (const [client, tool, args] of CREATE_STORE) {
  test(`${client}: ${tool} may not create a .stategate folder (${JSON.stringify(args('WS'))})`, (t) => {
    const ws = workspace(t, 'writing');
    const d = hook(client, ws, ws, tool, args(ws));
    assert.equal(d.deny, true, 'allowed');
    assert.match(d.reason, /(would create a \.stategate folder|one of the run's own files)/);
  });
}

test('writing: everyday writes and the workspace\'s own workflows still pass', (t) => {
  const ws = workspace(t, 'writing');
  assert.equal(hook('claude', ws, ws, 'Write', { file_path: path.join(ws, '.stategate', 'workflows', 'w.json'), content: '{}' }).deny, false);
  assert.equal(hook('claude', ws, ws, 'Bash', { command: 'mkdir -p sub/stategate-notes && echo x > sub/.stategate-old' }).deny, false);
  assert.equal(hook('claude', ws, ws, 'mcp__fs__write_file', { path: 'src/a.ts', content: 'export {};' }).deny, false);
});

/**
 * Where a command runs, in each client's spelling: `> settings.json` run in
 * `.claude` writes `.claude/settings.json`. [client, tool, input with the folder].
 */
const CWD_ROWS: Array<[Client, string, (dir: string) => Record<string, unknown>]> = [
  ['gemini', 'run_shell_command', (dir) => ({ command: 'echo {} > settings.json', description: 'x', dir_path: dir })],
  ['gemini', 'run_shell_command', (dir) => ({ command: 'echo {} > settings.json', directory: dir })],
  ['codex', 'Bash', (dir) => ({ command: 'echo {} > settings.json', workdir: dir })],
  ['opencode', 'bash', (dir) => ({ command: 'echo {} > settings.json', workdir: dir, description: 'x' })],
  ['cursor', 'Shell', (dir) => ({ command: 'echo {} > settings.json', cwd: dir })],
];

for (const [client, tool, args] of CWD_ROWS) {
  test(`${client}: ${tool} runs where ${Object.keys(args('d')).find((k) => k !== 'command' && k !== 'description')} says`, (t) => {
    const ws = workspace(t, 'writing');
    const inClaude = hook(client, ws, ws, tool, args(client === 'cursor' ? path.join(ws, '.claude') : '.claude'));
    assert.equal(inClaude.deny, true, 'allowed: the command was taken to run in the workspace folder');
    assert.match(inClaude.reason, /\.claude\/settings\.json|Claude Code's settings/);
    assert.equal(hook(client, ws, ws, tool, args(client === 'cursor' ? path.join(ws, 'src') : 'src')).deny, false);
  });
}

/** findStoreDir itself: [what is on disk, the cwd, the folder found]. */
const STORE_ROWS: Array<[name: string, setup: { records: string[]; stores: Array<[string, boolean]> }, cwd: string, found: string | undefined]> = [
  ['a record at the root wins over a forged run below', { records: ['ws'], stores: [['ws', true], ['ws/sub', true]] }, 'ws/sub/deeper', 'ws'],
  ['a record whose .stategate is gone still names it (tampering)', { records: ['ws'], stores: [['ws/sub', true]] }, 'ws/sub', 'ws'],
  ['the nearest record wins (a nested project with its own run)', { records: ['ws', 'ws/sub'], stores: [['ws', true], ['ws/sub', true]] }, 'ws/sub/deeper', 'ws/sub'],
  ['no record: the outermost .stategate naming a run', { records: [], stores: [['ws', true], ['ws/sub', true]] }, 'ws/sub', 'ws'],
  ['no record: a folder of workflows only does not hide a run below', { records: [], stores: [['ws', false], ['ws/sub', true]] }, 'ws/sub', 'ws/sub'],
  ['no record, no run: the nearest .stategate', { records: [], stores: [['ws', false], ['ws/sub', false]] }, 'ws/sub', 'ws/sub'],
  ['nothing at all', { records: [], stores: [] }, 'ws/sub', undefined],
];
for (const [name, setup, cwd, found] of STORE_ROWS) {
  test(`findStoreDir: ${name}`, (t) => {
    const base = fs.realpathSync(tempDir('sg-find-store-'));
    t.after(() => fs.rmSync(base, { recursive: true, force: true }));
    const state = path.join(base, 'state');
    fs.mkdirSync(path.join(base, 'ws', 'sub', 'deeper'), { recursive: true });
    for (const [dir, running] of setup.stores) {
      fs.mkdirSync(path.join(base, dir, '.stategate', 'workflows'), { recursive: true });
      if (running) fs.writeFileSync(path.join(base, dir, '.stategate', 'active'), 'r1\n');
    }
    for (const dir of setup.records) {
      const file = recordFileFor(path.join(base, dir), state);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '{}');
    }
    assert.equal(findStoreDir(path.join(base, cwd), state), found === undefined ? undefined : path.join(base, found, '.stategate'));
  });
}
