/**
 * `stategate hook --client codex|gemini|copilot|cursor|opencode`: each client's
 * hook inputs (test/fixtures/hooks/clients/<client>.json, each file naming its
 * source) answered through the real CLI, read back in that client's own answer
 * format (an allow that the client would take as a deny, or the reverse, fails).
 * Then per client: the interrupt after an edit, the briefing, and garbage
 * input failing closed in the client's own deny shape.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, type CliResult } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const WORKFLOW = {
  id: 'gate',
  initial: 'reading',
  meta: { debug: true },
  interrupts: { secrets: { trigger: { file_pattern: '**/*.env*' }, target: 'secrets_review' } },
  states: {
    reading: { allowed_tools: ['Read', 'Grep', 'Bash'], allowed_commands: ['ls', 'cat'], instructions: 'Read only.', on: { READY: 'editing', LOCK: 'locked' } },
    editing: { allowed_tools: ['Read', 'Edit', 'Write'], max_edit_lines: 3, on: { DONE: 'done' } },
    locked: { allowed_tools: [], on: { DONE: 'done' } },
    secrets_review: { allowed_tools: ['Read'], on: { CLEARED: '$return' } },
    done: { type: 'final' },
  },
};

type Client = 'codex' | 'gemini' | 'copilot' | 'cursor' | 'opencode';
const CLIENTS: readonly Client[] = ['codex', 'gemini', 'copilot', 'cursor', 'opencode'];

interface Case {
  readonly name: string;
  readonly state: string;
  readonly event?: string;
  readonly expect: 'allow' | 'deny';
  readonly reason?: string;
  readonly exit?: number;
  readonly input: Record<string, unknown>;
}
interface Fixture {
  readonly client: Client;
  readonly source: string;
  readonly cases: readonly Case[];
}

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'hooks', 'clients');

function workspace(): string {
  const cwd = tempDir('sg-clients-');
  fs.writeFileSync(path.join(cwd, 'gate.workflow.json'), JSON.stringify(WORKFLOW));
  fs.writeFileSync(path.join(cwd, 'a.ts'), 'a\n');
  assert.equal(cli(['run', 'start', 'gate.workflow.json'], { cwd }).code, 0);
  return cwd;
}

function at(cwd: string, state: string): void {
  assert.equal(cli(['run', 'force', state], { cwd }).code, 0);
}

function withCwd(value: unknown, cwd: string): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll('$CWD', cwd.replaceAll('\\', '\\\\')));
}

function hook(client: Client, cwd: string, input: unknown, event?: string): CliResult {
  return cli(['hook', '--client', client, ...(event ? ['--event', event] : [])], { cwd, input: JSON.stringify(withCwd(input, cwd)) });
}

/** The decision as the client itself would read the answer, and the reason it would show the model. */
function verdict(client: Client, r: CliResult): { decision: 'allow' | 'deny' | 'broken'; reason?: string } {
  const j = r.json as Record<string, any> | undefined;
  if (r.code !== 0 && r.code !== 2) return { decision: 'broken' };
  switch (client) {
    case 'codex': {
      // Codex: allow is silence (an "allow" without updatedInput is a failed hook there).
      if (r.code === 0 && r.stdout === '') return { decision: 'allow' };
      const h = j?.hookSpecificOutput;
      if (h?.permissionDecision === 'deny' && typeof h.permissionDecisionReason === 'string') return { decision: 'deny', reason: h.permissionDecisionReason };
      return { decision: 'broken' };
    }
    case 'gemini':
      // Gemini reads stdout first: a decision "deny" blocks, JSON without one allows.
      if (!j) return { decision: 'broken' };
      return j.decision === 'deny' ? { decision: 'deny', reason: j.reason } : r.code === 0 ? { decision: 'allow' } : { decision: 'broken' };
    case 'copilot':
      if (r.code === 0 && r.stdout === '') return { decision: 'allow' };
      return j?.permissionDecision === 'deny' ? { decision: 'deny', reason: j.permissionDecisionReason } : { decision: 'broken' };
    case 'cursor':
      if (j?.permission === 'allow' && r.code === 0) return { decision: 'allow' };
      return j?.permission === 'deny' ? { decision: 'deny', reason: j.agent_message } : { decision: 'broken' };
    case 'opencode':
      if (j?.decision === 'allow' && r.code === 0) return { decision: 'allow' };
      return j?.decision === 'deny' ? { decision: 'deny', reason: j.reason } : { decision: 'broken' };
  }
}

for (const client of CLIENTS) {
  const fixture = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${client}.json`), 'utf8')) as Fixture;
  test(`${client}: the fixture names its source`, () => {
    assert.equal(fixture.client, client);
    assert.ok(fixture.source.length > 40, 'each fixture file says where its shapes come from');
    assert.ok(fixture.cases.some((c) => c.expect === 'allow') && fixture.cases.some((c) => c.expect === 'deny'));
  });
  for (const c of fixture.cases) {
    test(`${client}: ${c.name} → ${c.expect}`, () => {
      const cwd = workspace();
      if (c.state !== 'reading') at(cwd, c.state);
      const before = cli(['run', 'state'], { cwd }).json.iteration as number;
      const r = hook(client, cwd, c.input, c.event);
      const v = verdict(client, r);
      assert.equal(v.decision, c.expect, `answer: exit ${r.code} ${r.stdout}${r.stderr}`);
      if (c.exit !== undefined) assert.equal(r.code, c.exit);
      if (c.reason) assert.match(v.reason ?? '', new RegExp(c.reason));
      if (c.expect === 'deny') assert.ok((v.reason ?? '').length > 10, 'a denial says why');
      // An allowed call of another tool is counted once; stategate's own tools and denials are not.
      const after = cli(['run', 'state'], { cwd }).json.iteration as number;
      const own = /statewright_/.test(JSON.stringify(c.input));
      assert.equal(after - before, c.expect === 'allow' && !own ? 1 : 0, 'iterations counted');
    });
  }
}

/** A PostToolUse of a write of `.env.local`, as each client sends it. */
const POST_WRITE: Record<Client, { input: Record<string, unknown>; event?: string }> = {
  codex: { input: { hook_event_name: 'PostToolUse', session_id: 'cx', cwd: '$CWD', tool_name: 'apply_patch', tool_use_id: 'p1', tool_input: { command: '*** Begin Patch\n*** Add File: .env.local\n+A=1\n*** End Patch\n' }, tool_response: 'Success' } },
  gemini: { input: { session_id: 'gm', cwd: '$CWD', hook_event_name: 'AfterTool', timestamp: 't', tool_name: 'write_file', tool_input: { file_path: '.env.local', content: 'A=1\n' }, tool_response: { llmContent: 'ok' } } },
  copilot: { event: 'postToolUse', input: { timestamp: 1, cwd: '$CWD', toolName: 'create', toolArgs: '{"path":".env.local","file_text":"A=1\\n"}', toolResult: { resultType: 'success', textResultForLlm: 'Created' } } },
  cursor: { input: { hook_event_name: 'afterFileEdit', conversation_id: 'cu', workspace_roots: ['$CWD'], file_path: '$CWD/.env.local', edits: [{ old_string: '', new_string: 'A=1\n' }] } },
  opencode: { input: { hook_event_name: 'PostToolUse', session_id: 'ses', tool_use_id: 'c9', tool_name: 'write', tool_input: { filePath: '$CWD/.env.local', content: 'A=1\n' }, tool_response: 'Wrote file', cwd: '$CWD' } },
};

/** The text each client puts in front of the model from a context answer. */
function contextText(client: Client, r: CliResult): string | undefined {
  const j = r.json as Record<string, any> | undefined;
  switch (client) {
    case 'codex':
    case 'gemini':
      return j?.hookSpecificOutput?.additionalContext;
    case 'copilot':
      return j?.additionalContext;
    case 'cursor':
      return j?.additional_context;
    case 'opencode':
      return j?.context;
  }
}

for (const client of CLIENTS) {
  test(`${client}: an edit of a file matching an interrupt fires it and tells the agent`, () => {
    const cwd = workspace();
    at(cwd, 'editing');
    const { input, event } = POST_WRITE[client];
    const r = hook(client, cwd, input, event);
    assert.equal(r.code, 0, r.stderr);
    assert.match(contextText(client, r) ?? '', /^\[STATEWRIGHT INTERRUPT\] Writing \.env\.local fired interrupt "secrets"/);
    assert.equal(cli(['run', 'state'], { cwd }).json.state, 'secrets_review');
  });

  test(`${client}: garbage on stdin is a denial in the client's own shape, exit 2`, () => {
    const cwd = workspace();
    const r = cli(['hook', '--client', client], { cwd, input: '{"hook_event_name": ' });
    assert.equal(r.code, 2);
    assert.equal(verdict(client, r).decision, 'deny');
    assert.match(r.stderr, /bad hook input/);
  });
}

const BRIEF: Record<Exclude<Client, 'opencode'>, { input: Record<string, unknown>; event?: string }> = {
  codex: { input: { hook_event_name: 'SessionStart', session_id: 'b1', cwd: '$CWD', source: 'startup' } },
  gemini: { input: { hook_event_name: 'SessionStart', session_id: 'b1', cwd: '$CWD', timestamp: 't', trigger: 'startup' } },
  copilot: { event: 'sessionStart', input: { timestamp: 1, cwd: '$CWD', source: 'new', initialPrompt: 'go' } },
  cursor: { input: { hook_event_name: 'sessionStart', conversation_id: 'b1', workspace_roots: ['$CWD'] } },
};

for (const client of Object.keys(BRIEF) as (keyof typeof BRIEF)[]) {
  test(`${client}: session start briefs the agent with the state and its way forward`, () => {
    const cwd = workspace();
    const r = hook(client, cwd, BRIEF[client].input, BRIEF[client].event);
    assert.equal(r.code, 0);
    const text = contextText(client, r) ?? '';
    assert.match(text, /reading/);
    assert.match(text, /READY/);
  });
}

test('opencode: the briefing comes with each model request (the plugin sends UserPromptSubmit)', () => {
  const cwd = workspace();
  const r = hook('opencode', cwd, { hook_event_name: 'UserPromptSubmit', session_id: 'ses', cwd: '$CWD' });
  assert.match(contextText('opencode', r) ?? '', /READY/);
});

test('an unknown --client is denied with exit 2 and names the clients', () => {
  const cwd = workspace();
  const r = cli(['hook', '--client', 'nope'], { cwd, input: '{}' });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /codex, gemini, copilot, cursor, opencode/);
});

/** The run's iteration count: what max_iterations reads. */
const iteration = (cwd: string): number => cli(['run', 'state'], { cwd }).json.iteration as number;

test('one call answered by two hooks (VS Code reading its own file and Claude Code\'s) counts once, same answer', () => {
  const cwd = workspace();
  const call = { tool_use_id: 'toolu_same', tool_name: 'read_file', tool_input: { filePath: path.join(cwd, 'a.ts') }, cwd };
  const before = iteration(cwd);
  const a = cli(['hook', '--client', 'vscode'], { cwd, input: JSON.stringify({ hookEventName: 'PreToolUse', sessionId: 's', ...call }) });
  const b = cli(['hook', '--client', 'claude'], { cwd, input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', ...call }) });
  assert.equal(a.code, 0);
  assert.equal(b.code, 0);
  assert.equal(a.stdout, b.stdout, 'the same answer');
  assert.equal(iteration(cwd) - before, 1, 'counted once');
  const recent = JSON.parse(fs.readFileSync(path.join(cwd, '.stategate', 'recent-calls.json'), 'utf8'));
  const entry = recent.find((e: any) => e.callId === 'toolu_same');
  assert.equal(entry.answers, 2);
  assert.equal(entry.client, 'vscode+claude');
});

test('a reused call id on another call is decided on its own: a denied write\'s answer never reaches a read sent under the same id', () => {
  const cwd = workspace();
  // VS Code's hook protocol: exit 0 and a deny decision in the JSON, or nothing said (the call goes ahead).
  const ask = (tool: string, input: object) => {
    const r = cli(['hook', '--client', 'vscode'], { cwd, input: JSON.stringify({ hookEventName: 'PreToolUse', sessionId: 's', tool_use_id: 'call-reused', tool_name: tool, tool_input: input, cwd }) });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.trim() === '' ? 'allow' : (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision;
  };
  const before = iteration(cwd);
  assert.equal(ask('create_file', { filePath: path.join(cwd, 'x.md'), content: 'x' }), 'deny');
  assert.equal(ask('read_file', { filePath: path.join(cwd, 'a.ts') }), 'allow', 'the read is decided, not answered with the write\'s denial');
  assert.equal(iteration(cwd) - before, 1, 'the read counted');
  // The very same call again under that id is a retry: its first answer, counted once.
  assert.equal(ask('read_file', { filePath: path.join(cwd, 'a.ts') }), 'allow');
  assert.equal(iteration(cwd) - before, 1, 'a retry of the read is not counted again');
});

test('Copilot CLI running its own file and VS Code\'s for one call (no shared id): counted once by the call\'s digest', () => {
  const cwd = workspace();
  const before = iteration(cwd);
  const own = hook('copilot', cwd, { timestamp: 1, cwd: '$CWD', toolName: 'bash', toolArgs: '{"command":"ls","description":"list"}' }, 'preToolUse');
  const viaVscodeFile = cli(['hook', '--client', 'vscode'], { cwd, input: JSON.stringify({ hookEventName: 'PreToolUse', sessionId: 's', cwd, tool_name: 'bash', tool_input: { description: 'list', command: 'ls' } }) });
  assert.equal(own.code, 0);
  assert.equal(viaVscodeFile.code, 0);
  assert.equal(iteration(cwd) - before, 1);
});

test('the same command called twice by one client (no ids) is two calls, and so is a second call with a new id', () => {
  const cwd = workspace();
  const before = iteration(cwd);
  for (let i = 0; i < 2; i++) assert.equal(hook('copilot', cwd, { timestamp: i, cwd: '$CWD', toolName: 'bash', toolArgs: '{"command":"ls"}' }, 'preToolUse').code, 0);
  for (const id of ['c1', 'c2']) assert.equal(hook('codex', cwd, { hook_event_name: 'PreToolUse', session_id: 's', cwd: '$CWD', tool_name: 'Bash', tool_use_id: id, tool_input: { command: 'cat a.ts' } }).code, 0);
  assert.equal(iteration(cwd) - before, 4);
});

test('a result reported by two hooks adds its bytes once', () => {
  const cwd = workspace();
  const post = { tool_use_id: 'toolu_r', tool_name: 'Read', tool_input: { file_path: path.join(cwd, 'a.ts') }, tool_response: 'x'.repeat(50), cwd };
  for (const [client, key] of [['claude', 'hook_event_name'], ['vscode', 'hookEventName']] as const) {
    assert.equal(cli(['hook', '--client', client], { cwd, input: JSON.stringify({ [key]: 'PostToolUse', ...post }) }).code, 0);
  }
  const journal = fs.readFileSync(path.join(cwd, '.stategate', 'runs', fs.readdirSync(path.join(cwd, '.stategate', 'runs'))[0]!, 'journal.jsonl'), 'utf8');
  const results = journal.split('\n').filter((l) => l.includes('"tool_result"'));
  assert.equal(results.length, 1, 'journaled once');
  assert.match(results[0]!, /"client":"claude"/, 'with the client that reported it');
});
