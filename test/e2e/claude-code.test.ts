// The real Claude Code CLI (`claude -p`, the version pinned in setup-claude.sh)
// under the stategate hook, with a scripted fake of the Anthropic Messages API
// (fake-anthropic.ts) standing in for the model: no network, no account.
//
// The hook entries are exactly those "stategate: Enable Agent Enforcement"
// merges into `.claude/settings.local.json` (mergeClaudeSettings), beside a
// hook of "the user's own" that appends every hook input Claude Code sends to
// a file: those inputs are checked against test/fixtures/hooks/claude-code-recorded/
// (same fields per event and tool), and STATEGATE_RECORD_CLAUDE_HOOKS=1 writes
// them there anew.
//
// Three sessions: planning (Read allowed, Write denied), `stategate run send
// READY`, implementing (Write and Edit allowed and recorded, Bash denied, a
// write of .env.local fires an interrupt), then stategate's own MCP server
// (`--mcp-config`, `stategate mcp`) takes the run back and to its end.
//
// Claude Code runs with `--permission-mode acceptEdits`: Claude Code itself
// would let Write and Edit through, so a denial of them can only be the hook's.
// The test skips only when setup-claude.sh says the npm registry is out of
// reach (exit 3); any other failure to install fails it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { assertRan, claudeSession, REPO_ROOT, type HookInput } from './claude-session';

const RECORDED = path.join(REPO_ROOT, 'test', 'fixtures', 'hooks', 'claude-code-recorded');
/** What recorded fixtures say in place of this run's temp folder. */
const RECORDED_ROOT = '/tmp/sg-claude';

const WORKFLOW = {
  id: 'plan-then-build',
  initial: 'planning',
  interrupts: { secrets: { trigger: { file_pattern: '**/*.env*' }, target: 'secrets_review' } },
  states: {
    planning: { allowed_tools: ['Read'], instructions: 'Read the workflow, then plan.', on: { READY: 'implementing' } },
    implementing: { allowed_tools: ['Read', 'Edit', 'Write'], on: { DONE: 'done' } },
    secrets_review: { allowed_tools: ['Read'], on: { CLEARED: '$return' } },
    done: { type: 'final' },
  },
};

/** The file a recorded hook input is kept in: `PreToolUse.Write.json`, `Stop.json`. */
function fixtureName(h: HookInput): string {
  return `${h.hook_event_name}${h.tool_name ? `.${h.tool_name}` : ''}.json`;
}

/** A hook input with this run's temp folder replaced (also in the mangled form of Claude Code's project folders). */
function portable(h: HookInput, root: string): HookInput {
  const mangle = (p: string): string => p.replace(/[^a-zA-Z0-9]/g, '-');
  const text = JSON.stringify(h).split(root).join(RECORDED_ROOT).split(mangle(root)).join(mangle(RECORDED_ROOT));
  return JSON.parse(text) as HookInput;
}

function keyShape(value: unknown): unknown {
  if (Array.isArray(value)) return 'array';
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, keyShape((value as Record<string, unknown>)[k])]));
  return typeof value;
}

test('Claude Code under the stategate hook: denied in planning with the reason, allowed and recorded after READY', { timeout: 600_000 }, async (t: TestContext) => {
  const s = await claudeSession(t, WORKFLOW);
  if (!s) return;
  const plan = path.join(s.ws, 'plan.md');

  // --- session 1, state planning: Read, then Write --------------------------
  s.model.turns = [
    { type: 'tool_use', name: 'Read', input: { file_path: path.join(s.ws, 'x.workflow.json') } },
    { type: 'tool_use', name: 'Write', input: { file_path: plan, content: '# Plan\n' } },
  ];
  const first = await s.run('write the plan');
  const results1 = s.model.results(0);
  const mainCount1 = s.model.main.length;

  await t.test('claude -p runs against the fake API and finishes without an error', () => {
    assertRan(first);
    assert.equal(mainCount1, 3, `the model was asked 3 times (start, after Read, after Write), got ${mainCount1}`);
  });

  await t.test('SessionStart: the stategate briefing reaches the model', () => {
    // Claude Code 2.1.330 passes it as a `system` turn among the messages ("SessionStart hook additional context: ...").
    const opening = s.model.main[0];
    const said = [opening?.system, ...(opening?.messages ?? []).filter((m) => m.role === 'system').map((m) => m.content)].map((c) => JSON.stringify(c ?? '')).join('\n');
    assert.match(said, /stategate: workflow \\"plan-then-build\\" is in state \\"planning\\"/);
  });

  await t.test('planning: Read is allowed by the hook and runs', () => {
    const read = results1[0];
    assert.ok(read, 'no tool_result for the Read');
    assert.equal(read.is_error, false, read.text);
    assert.match(read.text, /plan-then-build/);
  });

  await t.test("planning: Write is denied by the hook and the model reads stategate's reason", () => {
    const write = results1[1];
    assert.ok(write, 'no tool_result for the Write');
    assert.equal(write.is_error, true, write.text);
    assert.match(write.text, /Write is not allowed in state 'planning'/);
    assert.match(write.text, /READY/);
    assert.equal(fs.existsSync(plan), false, 'plan.md was written');
    const denials = (first.output?.['permission_denials'] ?? []) as { tool_name: string }[];
    assert.deepEqual(denials.map((d) => d.tool_name), ['Write']);
  });

  await t.test('the run journal has the denial (tool_denied, Write, planning)', () => {
    const denied = s.journal().filter((e) => e.kind === 'tool_denied');
    assert.equal(denied.length, 1, JSON.stringify(denied));
    assert.equal(denied[0]!['tool'], 'Write');
    assert.equal(denied[0]!['state'], 'planning');
    assert.match(String(denied[0]!['reason']), /not allowed in state 'planning'/);
  });

  // --- READY, session 2, state implementing: Write, Edit, Bash --------------
  const before = s.cli(['run', 'state']) as { usage: { steps_total: number } };
  assert.equal(s.cli(['run', 'send', 'READY'])['to'], 'implementing');
  s.model.turns = [
    { type: 'tool_use', name: 'Write', input: { file_path: plan, content: '# Plan\n' } },
    { type: 'tool_use', name: 'Edit', input: { file_path: plan, old_string: '# Plan\n', new_string: '# Plan\n\n1. Build it.\n' } },
    { type: 'tool_use', name: 'Bash', input: { command: 'ls', description: 'List the files' } },
    { type: 'tool_use', name: 'Write', input: { file_path: path.join(s.ws, '.env.local'), content: 'API_KEY=x\n' } },
  ];
  const from = s.model.main.length;
  const second = await s.run('now build it');
  const results2 = s.model.results(from);

  await t.test('implementing: Write and Edit are allowed and run (the file has both)', () => {
    assertRan(second);
    assert.equal(results2[0]?.is_error, false, results2[0]?.text);
    assert.equal(results2[1]?.is_error, false, results2[1]?.text);
    assert.equal(fs.readFileSync(plan, 'utf8'), '# Plan\n\n1. Build it.\n');
  });

  await t.test('implementing: Bash is denied by the hook (not in allowed_tools)', () => {
    const bash = results2[2];
    assert.ok(bash, 'no tool_result for the Bash call');
    assert.equal(bash.is_error, true, bash.text);
    assert.match(bash.text, /Bash is not allowed in state 'implementing'/);
  });

  await t.test('PostToolUse recorded the Write and the Edit in the journal, with the file', () => {
    const results = s.journal().filter((e) => e.kind === 'tool_result' && e['state'] === 'implementing');
    assert.deepEqual(results.slice(0, 2).map((e) => [e['tool'], e['file']]), [['Write', 'plan.md'], ['Edit', 'plan.md']]);
  });

  await t.test('run state counted the allowed calls and the edited files of implementing', () => {
    const journal = s.journal();
    const cut = journal.findIndex((e) => e.kind === 'interrupt' || (e.kind === 'transition' && e['to'] === 'secrets_review'));
    const counted = (cut < 0 ? journal : journal.slice(0, cut)).filter((e) => e.kind === 'tool_result' && e['state'] === 'implementing');
    assert.deepEqual(counted.map((e) => e['file']), ['plan.md', 'plan.md', '.env.local']);
    const after = s.cli(['run', 'state']) as { usage: { steps_total: number } };
    // steps_total runs on from planning's Read: Write, Edit, Write (.env.local) since.
    assert.equal(after.usage.steps_total - before.usage.steps_total, 3);
  });

  await t.test('PostToolUse: writing .env.local fires the interrupt, and the model is told', () => {
    const view = s.cli(['run', 'state']) as { state: string };
    assert.equal(view.state, 'secrets_review');
    const told = results2[3];
    assert.ok(told, 'no tool_result for the .env.local Write');
    assert.equal(told.is_error, false, told.text);
    // The hook answers Claude Code with additionalContext only (Claude Code would pass a block's reason on as
    // well, with the hook's command line): the model reads the notice once, as a `system` message.
    const next = JSON.stringify(s.model.main.at(-1)?.messages ?? []);
    assert.match(next, /\[STATEWRIGHT INTERRUPT\] Writing \.env\.local fired interrupt \\"secrets\\"/);
    assert.equal(next.split('fired interrupt').length - 1, 1, 'the interrupt is told once');
    assert.doesNotMatch(next, /hook blocking error/);
  });

  // --- session 3, state secrets_review: stategate's MCP tools -------------
  // Claude Code asks before an MCP tool runs: --allowedTools lets stategate's transition tool through.
  const transition = 'mcp__stategate__statewright_transition';
  s.model.turns = [
    { type: 'tool_use', name: transition, input: { event: 'CLEARED' } },
    { type: 'tool_use', name: transition, input: { event: 'DONE' } },
  ];
  const from3 = s.model.main.length;
  const third = await s.run('the secret is fine; finish', ['--mcp-config', s.mcpConfig, '--strict-mcp-config', '--allowedTools', transition]);
  const results3 = s.model.results(from3);

  await t.test('MCP: statewright_transition through `stategate mcp` returns from the interrupt and finishes the run', () => {
    assertRan(third);
    assert.equal(results3.length, 2, JSON.stringify(results3));
    assert.equal(results3[0]!.is_error, false, results3[0]!.text);
    assert.match(results3[0]!.text, /Transition CLEARED: secrets_review → implementing/);
    assert.equal(results3[1]!.is_error, false, results3[1]!.text);
    assert.match(results3[1]!.text, /Transition DONE: implementing → done/);
    const transitions = s.journal().filter((e) => e.kind === 'transition').map((e) => `${e['from']}→${e['to']}`);
    assert.deepEqual(transitions.slice(-2), ['secrets_review→implementing', 'implementing→done']);
    const view = s.cli(['run', 'state']) as { state: string; is_final: boolean };
    assert.equal(view.state, 'done');
    assert.equal(view.is_final, true);
  });

  // --- what Claude Code sent to the hooks -----------------------------------
  const inputs = s.hookInputs().map((h) => portable(h, s.root));
  const firstOf = new Map<string, HookInput>();
  for (const h of inputs) if (!firstOf.has(fixtureName(h))) firstOf.set(fixtureName(h), h);

  await t.test('Claude Code sent every hook event the script causes, with the documented core fields', () => {
    const names = [...firstOf.keys()].sort();
    const expected = [`PostToolUse.${transition}`, `PreToolUse.${transition}`, 'PostToolUse.Edit', 'PostToolUse.Read', 'PostToolUse.Write', 'PreToolUse.Bash', 'PreToolUse.Edit', 'PreToolUse.Read', 'PreToolUse.Write', 'SessionStart', 'Stop', 'UserPromptSubmit'];
    assert.deepEqual(names, expected.map((n) => `${n}.json`).sort());
    for (const h of inputs) {
      for (const key of ['session_id', 'transcript_path', 'cwd', 'hook_event_name']) assert.equal(typeof h[key], 'string', `${fixtureName(h)} has no ${key}`);
      if (h.hook_event_name.endsWith('ToolUse')) assert.equal(typeof h['tool_input'], 'object', `${fixtureName(h)} has no tool_input`);
    }
  });

  await t.test('the hook inputs have the shape of the recorded fixtures (claude-code-recorded/)', () => {
    if (process.env.STATEGATE_RECORD_CLAUDE_HOOKS === '1') {
      fs.mkdirSync(RECORDED, { recursive: true });
      for (const [name, h] of firstOf) fs.writeFileSync(path.join(RECORDED, name), `${JSON.stringify(h, null, 2)}\n`);
    }
    for (const [name, h] of firstOf) {
      const file = path.join(RECORDED, name);
      assert.ok(fs.existsSync(file), `no recorded fixture ${name}: rerun with STATEGATE_RECORD_CLAUDE_HOOKS=1`);
      const recorded = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      assert.deepEqual(keyShape(h), keyShape(recorded), `${name} differs in shape from the recorded fixture`);
    }
  });
});
