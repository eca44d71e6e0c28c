/**
 * `stategate hook` through VS Code- and Claude Code-shaped inputs (see
 * test/fixtures/hooks/README.md for where the shapes come from): every policy
 * rule, garbage stdin, a corrupt run, no run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, type CliResult } from './helpers/cli';
import { TEST_STATE_DIR } from './helpers/state-dir';
import { recordFileFor } from '../../src/engine/store/active-record';
import { tempDir } from './helpers/temp-dir';

/** Every call its own id, as clients send (two hooks answering one id are counted once: recent-calls.ts). */
let callSeq = 0;
const nextCallId = (): string => `call-${++callSeq}`;

const WORKFLOW = {
  id: 'gate',
  initial: 'reading',
  meta: { debug: true },
  interrupts: { secrets: { trigger: { file_pattern: '**/*.env*' }, target: 'secrets_review' } },
  states: {
    reading: { allowed_tools: ['Read', 'Grep'], instructions: 'Read only.', on: { READY: 'editing', COUNT: 'counting', BUDGET: 'budget', LOCK: 'locked' } },
    editing: { allowed_tools: ['Read', 'Edit', 'Write'], disallowed_tools: ['Write'], max_edit_lines: 3, max_files_per_state: 1, on: { DONE: 'done' } },
    counting: { max_iterations: 2, on: { DONE: 'done' } },
    budget: { allowed_tools: ['Read'], context_budget_bytes: 100, on: { DONE: 'done' } },
    locked: { allowed_tools: [], on: { DONE: 'done' } },
    secrets_review: { allowed_tools: ['Read'], on: { CLEARED: '$return' } },
    done: { type: 'final' },
  },
};

type Client = 'vscode' | 'claude';

function workspace(start = true): string {
  const cwd = tempDir('sg-hook-');
  fs.writeFileSync(path.join(cwd, 'gate.workflow.json'), JSON.stringify(WORKFLOW));
  if (start) assert.equal(cli(['run', 'start', 'gate.workflow.json'], { cwd }).code, 0);
  return cwd;
}

function at(cwd: string, state: string): void {
  assert.equal(cli(['run', 'force', state], { cwd }).code, 0);
}

/** A hook event as each client sends it. */
function event(client: Client, cwd: string, name: string, extra: Record<string, unknown> = {}): string {
  const common =
    client === 'vscode'
      ? { hookEventName: name, sessionId: 'vs-1', timestamp: '2026-11-22T20:00:00.000Z', cwd, transcript_path: '/tmp/t.json', tool_use_id: nextCallId() }
      : { hook_event_name: name, session_id: 'cc-1', cwd, transcript_path: '/tmp/t.jsonl' };
  return JSON.stringify({ ...common, ...extra });
}

const TOOLS = {
  vscode: {
    read: (f: string) => ({ tool_name: 'read_file', tool_input: { filePath: f, startLine: 1, endLine: 20 } }),
    edit: (f: string, oldString: string, newString: string) => ({ tool_name: 'replace_string_in_file', tool_input: { filePath: f, oldString, newString } }),
    write: (f: string, content: string) => ({ tool_name: 'create_file', tool_input: { filePath: f, content } }),
  },
  claude: {
    read: (f: string) => ({ tool_name: 'Read', tool_input: { file_path: f } }),
    edit: (f: string, old_string: string, new_string: string) => ({ tool_name: 'Edit', tool_input: { file_path: f, old_string, new_string } }),
    write: (f: string, content: string) => ({ tool_name: 'Write', tool_input: { file_path: f, content } }),
  },
};

function hook(cwd: string, stdin: string, env: Record<string, string> = {}): CliResult {
  return cli(['hook'], { cwd, input: stdin, env });
}

function decision(r: CliResult): string | undefined {
  return r.json?.hookSpecificOutput?.permissionDecision;
}

for (const client of ['vscode', 'claude'] as const) {
  const t = TOOLS[client];
  test(`${client}: a read in a reading state is allowed without overriding the client's own permissions`, () => {
    const cwd = workspace();
    const r = hook(cwd, event(client, cwd, 'PreToolUse', t.read(path.join(cwd, 'a.ts'))));
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
  });

  test(`${client}: an edit in a reading state is denied with the way forward`, () => {
    const cwd = workspace();
    const r = hook(cwd, event(client, cwd, 'PreToolUse', t.edit(path.join(cwd, 'a.ts'), 'a', 'b')));
    assert.equal(decision(r), 'deny');
    assert.match(r.json.hookSpecificOutput.permissionDecisionReason, /not allowed in state 'reading'.*Allowed: Read, Grep.*READY \(→ editing\)/);
  });

  test(`${client}: disallowed_tools denies even where allowed_tools allows`, () => {
    const cwd = workspace();
    at(cwd, 'editing');
    const r = hook(cwd, event(client, cwd, 'PreToolUse', t.write(path.join(cwd, 'new.ts'), 'x')));
    assert.equal(decision(r), 'deny');
    assert.match(r.json.hookSpecificOutput.permissionDecisionReason, /disallowed_tools/);
  });

  test(`${client}: an edit larger than max_edit_lines is denied before it runs`, () => {
    const cwd = workspace();
    at(cwd, 'editing');
    const r = hook(cwd, event(client, cwd, 'PreToolUse', t.edit(path.join(cwd, 'a.ts'), 'a', '1\n2\n3\n4\n')));
    assert.equal(decision(r), 'deny');
    assert.match(r.json.hookSpecificOutput.permissionDecisionReason, /changes 4 line\(s\).*allows 3 lines per edit \(max_edit_lines\)/);
  });

  test(`${client}: a second file beyond max_files_per_state is denied, re-editing the first is free`, () => {
    const cwd = workspace();
    at(cwd, 'editing');
    assert.equal(hook(cwd, event(client, cwd, 'PreToolUse', t.edit(path.join(cwd, 'a.ts'), 'a', 'b'))).stdout, '');
    const second = hook(cwd, event(client, cwd, 'PreToolUse', t.edit(path.join(cwd, 'b.ts'), 'a', 'b')));
    assert.equal(decision(second), 'deny');
    assert.match(second.json.hookSpecificOutput.permissionDecisionReason, /max_files_per_state/);
    assert.equal(hook(cwd, event(client, cwd, 'PreToolUse', t.edit(path.join(cwd, 'a.ts'), 'c', 'd'))).stdout, '');
  });

  test(`${client}: at max_iterations every tool is denied until a transition`, () => {
    const cwd = workspace();
    at(cwd, 'counting');
    // Three calls of the same read: each has its own tool_use_id, so each counts.
    const read = () => event(client, cwd, 'PreToolUse', t.read(path.join(cwd, 'a.ts')));
    assert.equal(decision(hook(cwd, read())), undefined);
    assert.equal(decision(hook(cwd, read())), undefined);
    const third = hook(cwd, read());
    assert.equal(decision(third), 'deny');
    assert.match(third.json.hookSpecificOutput.permissionDecisionReason, /used all 2 tool calls.*DONE/);
    const own = hook(cwd, event(client, cwd, 'PreToolUse', { tool_name: client === 'vscode' ? 'statewright_transition' : 'mcp__stategate__statewright_transition', tool_input: { event: 'DONE' } }));
    assert.equal(decision(own), undefined, 'stategate\'s own tools stay allowed');
  });

  test(`${client}: results fill the context budget and then reads are denied`, () => {
    const cwd = workspace();
    at(cwd, 'budget');
    const read = t.read(path.join(cwd, 'a.ts'));
    assert.equal(decision(hook(cwd, event(client, cwd, 'PreToolUse', read))), undefined);
    const post = hook(cwd, event(client, cwd, 'PostToolUse', { ...read, tool_response: 'x'.repeat(150) }));
    assert.match(post.json.hookSpecificOutput.additionalContext, /150 of 100 bytes/);
    const again = hook(cwd, event(client, cwd, 'PreToolUse', read));
    assert.equal(decision(again), 'deny');
    assert.match(again.json.hookSpecificOutput.permissionDecisionReason, /context budget/);
  });

  test(`${client}: allowed_tools [] leaves only stategate's own tools`, () => {
    const cwd = workspace();
    at(cwd, 'locked');
    assert.equal(decision(hook(cwd, event(client, cwd, 'PreToolUse', t.read(path.join(cwd, 'a.ts'))))), 'deny');
    // Each client's own spelling of stategate's tool: Claude Code's are its MCP server's (a bare name there is
    // no tool of stategate's, issue 29); VS Code's bare name is the extension's language-model tool.
    const own = client === 'claude' ? 'mcp__stategate__statewright_get_state' : 'statewright_get_state';
    assert.equal(decision(hook(cwd, event(client, cwd, 'PreToolUse', { tool_name: own, tool_input: {} }))), undefined);
  });

  test(`${client}: an agent edit of a file matching an interrupt switches the state and says so`, () => {
    const cwd = workspace();
    at(cwd, 'editing');
    const edit = t.edit(path.join(cwd, 'config', '.env.local'), 'A=1', 'A=2');
    const r = hook(cwd, event(client, cwd, 'PostToolUse', { ...edit, tool_response: 'ok' }));
    assert.match(r.json.hookSpecificOutput.additionalContext, /^\[STATEWRIGHT INTERRUPT\] Writing config\/\.env\.local fired interrupt "secrets"/);
    if (client === 'vscode') {
      // VS Code passes a PostToolUse block's reason to the model (not additionalContext): the interrupt goes both ways.
      assert.equal(r.json.decision, 'block');
      assert.equal(r.json.reason, r.json.hookSpecificOutput.additionalContext);
    } else {
      // Claude Code passes additionalContext on; a block as well would say it twice.
      assert.equal(r.json.decision, undefined);
    }
    assert.equal(cli(['run', 'state'], { cwd }).json.state, 'secrets_review');
  });

  test(`${client}: SessionStart tells the agent the state, tools and events`, () => {
    const cwd = workspace();
    const r = hook(cwd, event(client, cwd, 'SessionStart'));
    const text = r.json.hookSpecificOutput.additionalContext as string;
    assert.match(text, /state "reading"/);
    assert.match(text, /Allowed tools: Read, Grep\./);
    assert.match(text, /- READY → editing/);
  });

  test(`${client}: the first prompt after SessionStart is not briefed twice; later prompts and a moved state are`, () => {
    const cwd = workspace();
    assert.match(hook(cwd, event(client, cwd, 'SessionStart')).json.hookSpecificOutput.additionalContext, /state "reading"/);
    const first = hook(cwd, event(client, cwd, 'UserPromptSubmit', { prompt: 'go' }));
    assert.equal(first.code, 0);
    assert.equal(first.stdout, '', 'the first prompt repeats nothing SessionStart said');
    const second = hook(cwd, event(client, cwd, 'UserPromptSubmit', { prompt: 'and now?' }));
    assert.match(second.json.hookSpecificOutput.additionalContext, /state "reading"/);
    // A new session whose state moved before its first prompt is briefed on the new state.
    const other = event(client, cwd, 'SessionStart', client === 'vscode' ? { sessionId: 'vs-2' } : { session_id: 'cc-2' });
    hook(cwd, other);
    at(cwd, 'editing');
    const moved = hook(cwd, event(client, cwd, 'UserPromptSubmit', client === 'vscode' ? { sessionId: 'vs-2', prompt: 'x' } : { session_id: 'cc-2', prompt: 'x' }));
    assert.match(moved.json.hookSpecificOutput.additionalContext, /state "editing"/);
  });

  test(`${client}: Stop in a non-final state reminds, and blocks when configured`, () => {
    const cwd = workspace();
    const remind = hook(cwd, event(client, cwd, 'Stop'));
    assert.match(remind.json.systemMessage, /still in state "reading"/);
    const block = hook(cwd, event(client, cwd, 'Stop'), { STATEGATE_BLOCK_STOP: '1' });
    assert.equal(block.json.decision, 'block');
  });
}

/** A PostToolUse input recorded from Claude Code 2.1.330, moved into `cwd` (test/fixtures/hooks/claude-code-recorded/). */
function recordedClaude(name: string, cwd: string, patch: (input: Record<string, any>) => void = () => undefined): string {
  const text = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'hooks', 'claude-code-recorded', name), 'utf8').replaceAll('/tmp/sg-claude/ws', cwd);
  const input = JSON.parse(text) as Record<string, any>;
  patch(input);
  return JSON.stringify(input);
}

test('claude (recorded): an Edit\'s result spends no context budget, though Claude Code echoes the whole original file', () => {
  const cwd = workspace();
  at(cwd, 'budget');
  const big = 'x'.repeat(5000);
  const r = hook(cwd, recordedClaude('PostToolUse.Edit.json', cwd, (i) => (i.tool_response.originalFile = big)));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(cli(['run', 'state'], { cwd }).json.usage.bytes_read, 0);
});

test('claude (recorded): a Read spends the bytes of the file content the model got, not of the JSON around it', () => {
  const cwd = workspace();
  at(cwd, 'budget');
  const input = recordedClaude('PostToolUse.Read.json', cwd, (i) => (i.tool_response.file.content = 'abc'));
  assert.ok(input.length > 500, 'the recorded response carries much more than the content');
  assert.equal(hook(cwd, input).code, 0);
  assert.equal(cli(['run', 'state'], { cwd }).json.usage.bytes_read, 3);
});

test('claude (recorded): an MCP tool spends the bytes of its text parts', () => {
  const cwd = workspace();
  at(cwd, 'budget');
  const input = recordedClaude('PostToolUse.mcp__stategate__statewright_transition.json', cwd, (i) => {
    i.tool_name = 'mcp__other__lookup';
    i.tool_response = [{ type: 'text', text: 'hello' }, { type: 'text', text: ' world' }];
  });
  assert.equal(hook(cwd, input).code, 0);
  assert.equal(cli(['run', 'state'], { cwd }).json.usage.bytes_read, 11);
});

const garbage: Array<[string, string]> = [
  ['empty stdin', ''],
  ['not JSON', 'rm -rf /'],
  ['a JSON array', '[1,2]'],
  ['no event name', '{"tool_name":"Read"}'],
  ['an unknown event', '{"hook_event_name":"Explode","tool_name":"Read"}'],
  ['PreToolUse without a tool', '{"hook_event_name":"PreToolUse","tool_input":{}}'],
];
for (const [name, stdin] of garbage) {
  test(`garbage stdin (${name}) is denied with exit 2 and a reason on stderr`, () => {
    const cwd = workspace();
    const r = hook(cwd, stdin);
    assert.equal(r.code, 2);
    assert.equal(decision(r), 'deny');
    assert.match(r.stderr, /^stategate: bad hook input/);
  });
}

test('a corrupt run file denies with how to recover', () => {
  const cwd = workspace();
  const id = fs.readFileSync(path.join(cwd, '.stategate', 'active'), 'utf8').trim();
  fs.writeFileSync(path.join(cwd, '.stategate', 'runs', id, 'run.json'), '{"truncat');
  const r = hook(cwd, event('claude', cwd, 'PreToolUse', TOOLS.claude.read('a.ts')));
  assert.equal(decision(r), 'deny');
  assert.match(r.json.hookSpecificOutput.permissionDecisionReason, /tampered with: .*not the file stategate last wrote.*stategate run stop/);
  // Without the record outside the workspace (a run from before it existed): unreadable, denied all the same.
  fs.rmSync(recordFileFor(fs.realpathSync(cwd), TEST_STATE_DIR));
  const old = hook(cwd, event('claude', cwd, 'PreToolUse', TOOLS.claude.read('a.ts')));
  assert.equal(decision(old), 'deny');
  assert.match(old.json.hookSpecificOutput.permissionDecisionReason, /cannot read the active run.*stategate run stop/);
});

test('no active run: nothing to enforce', () => {
  const cwd = workspace(false);
  fs.mkdirSync(path.join(cwd, '.stategate'));
  const r = hook(cwd, event('vscode', cwd, 'PreToolUse', TOOLS.vscode.edit('a.ts', 'a', 'b')));
  assert.deepEqual([r.code, r.stdout], [0, '']);
});

test('a paused run enforces nothing', () => {
  const cwd = workspace();
  cli(['run', 'pause'], { cwd });
  const r = hook(cwd, event('vscode', cwd, 'PreToolUse', TOOLS.vscode.edit('a.ts', 'a', 'b')));
  assert.deepEqual([r.code, r.stdout], [0, '']);
});

test('the hook finds .stategate from a subfolder cwd', () => {
  const cwd = workspace();
  const sub = path.join(cwd, 'src', 'deep');
  fs.mkdirSync(sub, { recursive: true });
  const r = hook(sub, event('claude', sub, 'PreToolUse', TOOLS.claude.edit('a.ts', 'a', 'b')));
  assert.equal(decision(r), 'deny');
});
