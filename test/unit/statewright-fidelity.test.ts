/**
 * Statewright fidelity (issue 30): `meta.approval_mode` "ui", `max_edit_lines`
 * per edit, and forks whose branches agents bind to, with Claude Code and
 * VS Code inputs. The decisions are the hook's, taken in this process
 * (helpers/hook-in-process.ts) and run commands go through the CLI's main in
 * this process (helpers/cli-in-process.ts); `stategate hook` runs as a
 * process where its answer is the point: one fork decision per client, the
 * briefings, PostToolUse and the rewritten command (updatedInput).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, type CliResult } from './helpers/cli';
import { cliInProcess } from './helpers/cli-in-process';
import { hookDecision } from './helpers/hook-in-process';
import { tempDir } from './helpers/temp-dir';
import { Runner } from '../../src/engine/runs/runner';
import { invokeAgentTool, type AgentSession } from '../../src/engine/runs/agent-tools';
import { checkWorkflowFile } from '../../src/engine/check/check-file';
import { analyseForPolicy, rewriteForPolicy } from '../../src/engine/shell/gate';

let callSeq = 0;
type Client = 'claude' | 'vscode';

/** A PreToolUse hook call as each client sends it; `ids` are the client's session fields. */
function preToolUse(client: Client, cwd: string, tool: string, input: object, ids: Record<string, string>): object {
  const common =
    client === 'vscode'
      ? { hookEventName: 'PreToolUse', timestamp: '2026-12-07T16:00:00.000Z', cwd, tool_use_id: `fid-${++callSeq}` }
      : { hook_event_name: 'PreToolUse', cwd, tool_use_id: `fid-${++callSeq}` };
  return { ...common, ...ids, tool_name: tool, tool_input: input };
}

/** What the hook decided and why: `json` is the client's answer when the hook ran as a process. */
interface Decided {
  readonly decision: string;
  readonly reason: string;
  readonly json?: any;
}

/** The hook's decision, in this process. */
async function pre(client: Client, cwd: string, tool: string, input: object, ids: Record<string, string>): Promise<Decided> {
  return hookDecision(client, cwd, preToolUse(client, cwd, tool, input, ids));
}

/** The hook as a process: the answer its client reads. */
function preProcess(client: Client, cwd: string, tool: string, input: object, ids: Record<string, string>): Decided {
  const r = cli(['hook', '--client', client], { cwd, input: JSON.stringify(preToolUse(client, cwd, tool, input, ids)) });
  assert.equal(r.code, 0, r.stderr);
  return { decision: r.json?.hookSpecificOutput?.permissionDecision ?? 'allow', reason: String(r.json?.hookSpecificOutput?.permissionDecisionReason ?? ''), json: r.json };
}

const decision = (r: Decided): string => r.decision;
const reason = (r: Decided): string => r.reason;

async function workspace(workflow: object, file = 'w.workflow.json'): Promise<string> {
  const cwd = tempDir('sg-fidelity-');
  fs.writeFileSync(path.join(cwd, file), JSON.stringify(workflow));
  assert.equal((await cliInProcess(['run', 'start', file], { cwd })).code, 0);
  return cwd;
}

/** A run command through the CLI's main, in this process. */
const run = (cwd: string, ...args: string[]): Promise<CliResult> => cliInProcess(['run', ...args], { cwd });

// ---------------------------------------------------------------------------
// meta.approval_mode

const approvals = (mode: string): object => ({
  id: 'deploy',
  initial: 'testing',
  meta: { approval_mode: mode },
  states: { testing: { on: { SHIP: { target: 'shipped', requires_approval: true, approval_message: 'Ship it?' } } }, shipped: { type: 'final' } },
});

const MODES: Array<[mode: string, parks: boolean]> = [
  ['ui', true],
  ['ask', true],
  ['none', false],
];
for (const [mode, parks] of MODES) {
  test(`approval_mode "${mode}" is valid and ${parks ? 'parks SHIP for a person' : 'is advisory: SHIP happens and a person is notified'}`, async () => {
    const text = JSON.stringify(approvals(mode));
    assert.deepEqual(checkWorkflowFile(text, '/tmp/deploy.workflow.json').diagnostics.filter((d) => d.severity === 'error'), []);
    const root = tempDir('sg-fidelity-approval-');
    fs.writeFileSync(path.join(root, 'deploy.workflow.json'), text);
    const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
    await runner.start(path.join(root, 'deploy.workflow.json'));
    const sent = await runner.send('SHIP');
    assert.equal(sent.error, undefined);
    if (parks) {
      assert.equal(sent.transitioned, false);
      assert.deepEqual(sent.pending_approval, { event: 'SHIP', target: 'shipped', message: 'Ship it?' });
      assert.equal((await runner.state()).pending_approval?.target, 'shipped', 'the panel and run state show it parked');
      assert.equal((await runner.approve()).to, 'shipped', 'a person approves: the run moves');
    } else {
      assert.equal(sent.transitioned, true);
      assert.equal(sent.to, 'shipped');
    }
  });
}

test('approval_mode "ui" parks through `stategate run send`, and `run reject` keeps the run where it was', async () => {
  const cwd = await workspace(approvals('ui'));
  assert.equal((await run(cwd, 'send', 'SHIP')).json.pending_approval.target, 'shipped');
  assert.equal((await run(cwd, 'reject')).code, 0);
  assert.equal((await run(cwd, 'state')).json.state, 'testing');
});

// ---------------------------------------------------------------------------
// max_edit_lines: each edit

const EDITS = {
  id: 'edits',
  initial: 'implementing',
  states: { implementing: { allowed_tools: ['Read', 'Edit', 'MultiEdit', 'Write'], max_edit_lines: 3, on: { DONE: 'done' } }, done: { type: 'final' } },
};
const lines = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `${tag} ${i}`).join('\n');

const EDIT_SHAPES: Array<[client: Client, tool: string, input: (n: number, tag: string) => object]> = [
  ['claude', 'Edit', (n, tag) => ({ file_path: 'a.ts', old_string: tag, new_string: lines(n, tag) })],
  ['claude', 'MultiEdit', (n, tag) => ({ file_path: 'a.ts', edits: [{ old_string: tag, new_string: lines(n, tag) }] })],
  ['claude', 'Write', (n, tag) => ({ file_path: 'a.ts', content: `${lines(n, tag)}\n` })],
  ['vscode', 'replace_string_in_file', (n, tag) => ({ filePath: 'a.ts', oldString: tag, newString: lines(n, tag) })],
];
for (const [client, tool, input] of EDIT_SHAPES) {
  test(`max_edit_lines 3 holds each ${client} ${tool}: two 2-line edits both pass, a 4-line one is refused per edit`, async () => {
    const cwd = await workspace(EDITS);
    const ids: Record<string, string> = client === 'vscode' ? { sessionId: 'vs-1' } : { session_id: 'cc-1' };
    assert.equal(decision(await pre(client, cwd, tool, input(2, 'one'), ids)), 'allow');
    assert.equal(decision(await pre(client, cwd, tool, input(2, 'two'), ids)), 'allow', 'not a running total: 2 + 2 over 3 is fine');
    const big = await pre(client, cwd, tool, input(4, 'three'), ids);
    assert.equal(decision(big), 'deny');
    assert.match(reason(big), /changes 4 line\(s\); state 'implementing' allows 3 lines per edit \(max_edit_lines\)/);
  });
}

test('the briefing says max_edit_lines is per edit', async () => {
  const cwd = await workspace(EDITS);
  const r = cli(['hook', '--client', 'claude'], { cwd, input: JSON.stringify({ hook_event_name: 'SessionStart', session_id: 'cc-brief', cwd }) });
  assert.match(JSON.stringify(r.json), /at most 3 lines per edit/);
});

// ---------------------------------------------------------------------------
// Forks: the seed's schema (no mode), branches with different rules.

const CI = {
  id: 'ci',
  initial: 'building',
  states: {
    building: {
      on: {
        BUILD_DONE: {
          fork: {
            branches: { lint: { initial: 'lint_run', terminal: 'lint_done' }, types: { initial: 'types_run', terminal: 'types_done' } },
            join: 'all',
            on_complete: 'deploying',
            on_fail: 'failed',
          },
        },
      },
    },
    lint_run: { allowed_tools: ['Read', 'Bash'], allowed_commands: ['npm run lint'], on: { LINTED: 'lint_done' } },
    lint_done: { type: 'final' },
    types_run: { allowed_tools: ['Read', 'Edit', 'Bash'], allowed_commands: ['npx tsc', 'npm run lint'], on: { TYPED: 'types_done' } },
    types_done: { type: 'final' },
    deploying: { on: { DONE: 'done' } },
    done: { type: 'final' },
    failed: { type: 'final' },
  },
};

async function forked(): Promise<string> {
  const cwd = await workspace(CI, 'ci.workflow.json');
  assert.equal((await run(cwd, 'send', 'BUILD_DONE')).code, 0);
  return cwd;
}

function bind(cwd: string, session: string, branch: string): Promise<CliResult> {
  return run(cwd, 'bind', '--session', session, '--branch', branch);
}

/** Each client's calls: a read, an edit, two shell commands. */
const CALLS = {
  claude: { read: ['Read', { file_path: 'a.ts' }], edit: ['Edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b' }], tsc: ['Bash', { command: 'npx tsc' }], lint: ['Bash', { command: 'npm run lint' }] },
  vscode: { read: ['read_file', { filePath: 'a.ts', startLine: 1, endLine: 5 }], edit: ['replace_string_in_file', { filePath: 'a.ts', oldString: 'a', newString: 'b' }], tsc: ['run_in_terminal', { command: 'npx tsc', explanation: 'x', isBackground: false }], lint: ['run_in_terminal', { command: 'npm run lint', explanation: 'x', isBackground: false }] },
} as const;
const session = (client: Client, id: string): Record<string, string> => (client === 'vscode' ? { sessionId: id } : { session_id: id });

for (const client of ['claude', 'vscode'] as const) {
  const call = (cwd: string, what: keyof (typeof CALLS)['claude'], ids: Record<string, string>): Promise<Decided> => {
    const [tool, input] = CALLS[client][what];
    return pre(client, cwd, tool, input, ids);
  };

  test(`${client}: an unbound call in a parallel fork is allowed only where every running branch allows it`, async () => {
    const cwd = await forked();
    assert.equal((await bind(cwd, 'someone-else', 'types')).code, 0, 'a binding turns the seed-schema fork parallel');
    const ids = session(client, 'parent');
    assert.equal(decision(await call(cwd, 'read', ids)), 'allow', 'both branches allow Read');
    assert.equal(decision(await call(cwd, 'lint', ids)), 'allow', 'both branches allow npm run lint');
    for (const what of ['edit', 'tsc'] as const) {
      const r = await call(cwd, what, ids);
      assert.equal(decision(r), 'deny', what);
      assert.match(reason(r), /Branch "lint" of the parallel fork refuses this call/);
      assert.match(reason(r), /stategate run bind --session parent --branch NAME/);
      assert.match(reason(r), /statewright_load_workflow\(name, branch\)/);
    }
  });

  test(`${client}: a bound session is decided by its branch's rules (the hook process, as the client reads it)`, async () => {
    const cwd = await forked();
    assert.equal((await bind(cwd, 'on-types', 'types')).code, 0);
    assert.equal((await bind(cwd, 'on-lint', 'lint')).code, 0);
    const callProcess = (what: keyof (typeof CALLS)['claude'], ids: Record<string, string>): Decided => {
      const [tool, input] = CALLS[client][what];
      return preProcess(client, cwd, tool, input, ids);
    };
    assert.equal(decision(callProcess('edit', session(client, 'on-types'))), 'allow');
    assert.equal(decision(callProcess('tsc', session(client, 'on-types'))), 'allow');
    const lint = callProcess('edit', session(client, 'on-lint'));
    assert.equal(decision(lint), 'deny');
    assert.match(reason(lint), /state 'lint_run'/);
    assert.doesNotMatch(reason(lint), /bound to no branch/);
  });

  test(`${client}: a session bound to a branch that finished falls back to what the running branches allow`, async () => {
    const cwd = await forked();
    assert.equal((await bind(cwd, 'linter', 'lint')).code, 0);
    assert.equal(decision(await call(cwd, 'edit', session(client, 'linter'))), 'deny', 'lint refuses Edit');
    assert.equal((await run(cwd, 'send', 'LINTED', '--branch', 'lint')).code, 0);
    // Standing in its terminal state, the branch enforces nothing: its session is held by the others, not let loose.
    assert.equal(decision(await call(cwd, 'edit', session(client, 'linter'))), 'allow', 'types, the one running branch left, allows Edit');
    assert.equal((await run(cwd, 'send', 'BRANCH_DONE:lint', '--branch', 'lint')).code, 0);
    assert.equal(decision(await call(cwd, 'edit', session(client, 'linter'))), 'allow');
    const sneaky = await pre(client, cwd, client === 'vscode' ? 'create_file' : 'Write', client === 'vscode' ? { filePath: 'b.ts', content: 'x' } : { file_path: 'b.ts', content: 'x' }, session(client, 'linter'));
    assert.equal(decision(sneaky), 'deny', 'types does not allow Write');
    assert.match(reason(sneaky), /Branch "types"/);
  });
}

test('claude: a sub-agent\'s agent_id wins over the session_id it shares with its parent', async () => {
  const cwd = await forked();
  assert.equal((await bind(cwd, 'parent', 'lint')).code, 0);
  assert.equal((await bind(cwd, 'sub-types', 'types')).code, 0);
  const edit = (ids: Record<string, string>): Promise<Decided> => pre('claude', cwd, 'Edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b' }, ids);
  assert.equal(decision(await edit({ session_id: 'parent', agent_id: 'sub-types' })), 'allow');
  assert.equal(decision(await edit({ session_id: 'parent' })), 'deny');
});

test('run bind: no fork, an unknown branch and a missing option are refused with the branches listed', async () => {
  const cwd = await workspace(CI, 'ci.workflow.json');
  const none = await bind(cwd, 's', 'lint');
  assert.equal(none.code, 1);
  assert.equal(none.json.error.code, 'no_fork');
  assert.equal((await run(cwd, 'send', 'BUILD_DONE')).code, 0);
  const unknown = await bind(cwd, 's', 'docs');
  assert.equal(unknown.code, 1);
  assert.equal(unknown.json.error.code, 'unknown_branch');
  assert.match(unknown.json.error.message, /branches: lint \(running\), types \(pending\)/);
  assert.notEqual((await run(cwd, 'bind', '--branch', 'lint')).code, 0);
  assert.equal((await bind(cwd, 'x'.repeat(201), 'lint')).json.error.code, 'invalid_session');
  assert.equal((await run(cwd, 'state', '--branch', 'lint')).json.fork.mode, 'sequential', 'a refused binding changes nothing');
});

test('run bind through the CLI process: a refusal exits 1 with its code on stdout and one line on stderr', async () => {
  const cwd = await workspace(CI, 'ci.workflow.json');
  const none = cli(['run', 'bind', '--session', 's', '--branch', 'lint'], { cwd });
  assert.equal(none.code, 1, none.stderr);
  assert.equal(none.json?.error?.code, 'no_fork');
  assert.match(none.stderr, /^stategate: .+\n$/);
});

test('run state lists fork.branches[].sessions; binding again moves a session', async () => {
  const cwd = await forked();
  const first = await bind(cwd, 'a', 'lint');
  assert.equal(first.json.parallel, true);
  await bind(cwd, 'b', 'types');
  await bind(cwd, 'c', 'types');
  await bind(cwd, 'a', 'types');
  const state = await run(cwd, 'state');
  assert.equal(state.code, 0, 'no branch named: the fork\'s own view, not an error');
  const fork = state.json.fork;
  assert.equal(fork.mode, 'parallel');
  assert.deepEqual(
    fork.branches.map((b: { name: string; sessions: string[] }) => [b.name, b.sessions]),
    [
      ['lint', []],
      ['types', ['b', 'c', 'a']],
    ],
  );
});

test('the hook briefing names the bound branch, and tells an unbound session how to bind', async () => {
  const cwd = await forked();
  await bind(cwd, 'cc-bound', 'types');
  const brief = (id: string): string => JSON.stringify(cli(['hook', '--client', 'claude'], { cwd, input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: id, cwd, prompt: 'go' }) }).json);
  assert.match(brief('cc-bound'), /fork branch types/);
  assert.match(brief('cc-free'), /Bind this session to the branch you work/);
  assert.match(brief('cc-free'), /This session's id is cc-free: bind it with `stategate run bind --session cc-free --branch NAME`/);
});

test('MCP: statewright_load_workflow(name, branch, session) binds that session in the run, so the hook applies the branch', async () => {
  const cwd = await forked();
  const runner = new Runner({ dir: path.join(cwd, '.stategate'), workspaceRoot: cwd, analyseShell: analyseForPolicy, rewriteShell: rewriteForPolicy });
  const mcp: AgentSession = {};
  const bad = await invokeAgentTool(runner, 'statewright_load_workflow', { name: 'ci', branch: 'docs', session: 'cc-sub' }, mcp);
  assert.equal(bad.isError, true);
  assert.match(bad.text, /branches: lint \(running\), types \(pending\)/);
  const ok = await invokeAgentTool(runner, 'statewright_load_workflow', { name: 'ci', branch: 'types', session: 'cc-sub' }, mcp);
  assert.equal(ok.isError, false, ok.text);
  assert.match(ok.text, /fork branch types/, 'statewright_get_state names the branch');
  assert.deepEqual(mcp, { branch: 'types', id: 'cc-sub' });
  assert.equal(decision(await pre('claude', cwd, 'Edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b' }, { session_id: 'cc-sub' })), 'allow');
  assert.equal(decision(await pre('claude', cwd, 'Edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b' }, { session_id: 'cc-other' })), 'deny');
});

test('claude: an unbound call allowed by every branch is recorded in every branch (a written file fires the interrupt in each)', async () => {
  const wf = {
    id: 'ci2',
    initial: 'building',
    interrupts: { secrets: { trigger: { file_pattern: '**/*.env' }, target: 'review' } },
    states: {
      building: { on: { GO: { fork: { branches: { a: { initial: 'a_run', terminal: 'a_done' }, b: { initial: 'b_run', terminal: 'b_done' } }, on_complete: 'done' } } } },
      a_run: { allowed_tools: ['Read', 'Edit'], on: { A: 'a_done' } },
      a_done: { type: 'final' },
      b_run: { allowed_tools: ['Edit'], on: { B: 'b_done' } },
      b_done: { type: 'final' },
      review: { allowed_tools: ['Read'], on: { CLEARED: '$return' } },
      done: { type: 'final' },
    },
  };
  const cwd = await workspace(wf, 'ci2.workflow.json');
  assert.equal((await run(cwd, 'send', 'GO')).code, 0);
  assert.equal((await bind(cwd, 'other', 'a')).code, 0);
  const edit = { file_path: 'app.env', old_string: 'a', new_string: 'b' };
  assert.equal(decision(await pre('claude', cwd, 'Edit', edit, { session_id: 'free' })), 'allow');
  const post = cli(['hook', '--client', 'claude'], { cwd, input: JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 'free', cwd, tool_use_id: `fid-${callSeq}`, tool_name: 'Edit', tool_input: edit, tool_response: { success: true } }) });
  assert.equal(post.code, 0, post.stderr);
  const branches = (await run(cwd, 'state')).json.fork.branches.map((b: { name: string; state: string }) => [b.name, b.state]);
  assert.deepEqual(branches, [
    ['a', 'review'],
    ['b', 'review'],
  ]);
});

test('an unbound shell command runs with every branch\'s blocked variables unset (their union)', async () => {
  const wf = {
    id: 'ci3',
    initial: 'building',
    states: {
      building: { on: { GO: { fork: { branches: { a: { initial: 'a_run', terminal: 'a_done' }, b: { initial: 'b_run', terminal: 'b_done' } }, on_complete: 'done' } } } },
      a_run: { allowed_tools: ['Bash'], blocked_env: ['A_TOKEN'], on: { A: 'a_done' } },
      a_done: { type: 'final' },
      b_run: { allowed_tools: ['Bash'], blocked_env: ['B_TOKEN'], on: { B: 'b_done' } },
      b_done: { type: 'final' },
      done: { type: 'final' },
    },
  };
  const cwd = await workspace(wf, 'ci3.workflow.json');
  assert.equal((await run(cwd, 'send', 'GO')).code, 0);
  assert.equal((await bind(cwd, 'other', 'a')).code, 0);
  const r = preProcess('claude', cwd, 'Bash', { command: 'npm test' }, { session_id: 'free' });
  assert.notEqual(decision(r), 'deny', reason(r));
  const command = String(r.json?.hookSpecificOutput?.updatedInput?.command ?? '');
  assert.match(command, /A_TOKEN/);
  assert.match(command, /B_TOKEN/);
});
