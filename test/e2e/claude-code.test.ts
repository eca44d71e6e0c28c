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
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { mergeClaudeSettings, CLAUDE_SETTINGS_FILE } from '../../src/vscode/agents/hook-install';
import { startFakeAnthropic, toolResults, type Block, type FakeAnthropic, type MessagesRequest } from './fake-anthropic';
import { removeTempDir, tempDir } from '../unit/helpers/temp-dir';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
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

type JournalEntry = Record<string, unknown> & { kind: string };
type HookInput = Record<string, unknown> & { hook_event_name: string; tool_name?: string };

/** setup-claude.sh: the binary, or why the test must skip (the registry only). */
function installClaude(): { bin: string } | { skip: string } {
  const r = spawnSync('bash', [path.join(__dirname, 'setup-claude.sh')], { encoding: 'utf8', timeout: 600_000 });
  if (r.status === 3) return { skip: `Claude Code could not be installed: the npm registry is out of reach (setup-claude.sh: ${r.stderr.trim().split('\n').at(-1)})` };
  assert.equal(r.status, 0, `setup-claude.sh failed (exit ${r.status}):\n${r.stderr}`);
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  assert.match(line, /^STATEGATE_CLAUDE \//, `setup-claude.sh printed no binary: ${r.stdout}`);
  return { bin: line.slice('STATEGATE_CLAUDE '.length) };
}

function stategate(cwd: string, args: string[]): Record<string, unknown> {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `stategate ${args.join(' ')}: exit ${r.status}\n${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/**
 * The model: one scripted turn per assistant message already in the main
 * conversation (the request that offers Claude Code's tools). Anything else
 * Claude Code asks on the side gets a short text.
 */
class ScriptedModel {
  turns: Block[] = [];
  readonly main: MessagesRequest[] = [];
  readonly side: MessagesRequest[] = [];
  readonly answer = (r: MessagesRequest): readonly Block[] => {
    if (!(r.tools ?? []).some((t) => t.name === 'Write')) {
      this.side.push(r);
      return [{ type: 'text', text: 'ok' }];
    }
    this.main.push(r);
    const turn = (r.messages ?? []).filter((m) => m.role === 'assistant').length;
    const block = this.turns[turn];
    return [block ?? { type: 'text', text: 'Done.' }];
  };
  /** The tool results the model was sent, in order, from main request `from` on. */
  results(from: number): ReturnType<typeof toolResults> {
    return this.main.slice(from).flatMap(toolResults);
  }
}

interface ClaudeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly output: Record<string, unknown> | undefined;
}

class Session {
  readonly root = tempDir('sg-claude-');
  readonly ws = path.join(this.root, 'ws');
  readonly home = path.join(this.root, 'home');
  readonly inputsFile = path.join(this.root, 'hook-inputs.jsonl');
  readonly mcpConfig = path.join(this.root, 'mcp.json');
  readonly model = new ScriptedModel();
  api!: FakeAnthropic;

  constructor(readonly claude: string) {}

  async start(): Promise<void> {
    fs.mkdirSync(this.ws);
    fs.mkdirSync(this.home);
    fs.writeFileSync(path.join(this.ws, 'x.workflow.json'), `${JSON.stringify(WORKFLOW, null, 2)}\n`);
    stategate(this.ws, ['run', 'start', 'x.workflow.json']);
    // The person's own hook (kept by the merge): it records what Claude Code sends.
    const capture = { type: 'command', command: `in=$(cat); printf '%s\\n' "$in" >> '${this.inputsFile}'` };
    const own = {
      hooks: Object.fromEntries(
        ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'].map((e) => [e, [{ ...(e.endsWith('ToolUse') ? { matcher: '*' } : {}), hooks: [capture] }]]),
      ),
    };
    const settings = mergeClaudeSettings(own, { execPath: process.execPath, extensionPath: REPO_ROOT, platform: process.platform });
    fs.mkdirSync(path.join(this.ws, '.claude'));
    fs.writeFileSync(path.join(this.ws, CLAUDE_SETTINGS_FILE), `${JSON.stringify(settings, null, 2)}\n`);
    // `claude mcp add stategate -- node <extension>/dist/cli.js mcp` (docs/agents.md), as a file for --mcp-config.
    fs.writeFileSync(this.mcpConfig, `${JSON.stringify({ mcpServers: { stategate: { command: process.execPath, args: [CLI, 'mcp'] } } }, null, 2)}\n`);
    this.api = await startFakeAnthropic(this.model.answer, { logFile: path.join(this.root, 'requests.jsonl') });
  }

  /** `claude -p` in the workspace, with a clean environment pointed at the fake API. */
  run(prompt: string, extraArgs: readonly string[] = []): Promise<ClaudeRun> {
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.home,
      CLAUDE_CONFIG_DIR: path.join(this.home, '.claude'),
      ANTHROPIC_BASE_URL: this.api.url,
      ANTHROPIC_API_KEY: 'test-key',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    };
    const args = ['-p', prompt, '--output-format', 'json', '--permission-mode', 'acceptEdits', ...extraArgs];
    return new Promise((resolve, reject) => {
      const child = spawn(this.claude, args, { cwd: this.ws, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 120_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        let output: Record<string, unknown> | undefined;
        try {
          output = JSON.parse(stdout) as Record<string, unknown>;
        } catch {
          output = undefined;
        }
        resolve({ code, stdout, stderr, output });
      });
    });
  }

  journal(): JournalEntry[] {
    const runs = path.join(this.ws, '.stategate', 'runs');
    const [id] = fs.readdirSync(runs);
    return fs
      .readFileSync(path.join(runs, id!, 'journal.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as JournalEntry);
  }

  hookInputs(): HookInput[] {
    if (!fs.existsSync(this.inputsFile)) return [];
    return fs
      .readFileSync(this.inputsFile, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as HookInput);
  }

  async close(): Promise<void> {
    await this.api?.close();
  }
}

function assertRan(r: ClaudeRun): void {
  assert.equal(r.code, 0, `claude -p exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  assert.ok(r.output, `claude -p printed no JSON: ${r.stdout}`);
  assert.equal(r.output['is_error'], false, `claude -p reports an error: ${r.stdout}`);
}

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
  const installed = installClaude();
  if ('skip' in installed) {
    t.diagnostic(installed.skip);
    t.skip(installed.skip);
    return;
  }
  assert.ok(fs.existsSync(CLI), `${CLI} is missing: run npm run build first`);
  const s = new Session(installed.bin);
  await s.start();
  t.after(async () => {
    await s.close();
    removeTempDir(s.root); // STATEGATE_KEEP_TEMP=1 keeps it
  });
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
  const before = stategate(s.ws, ['run', 'state']) as { usage: { steps_total: number } };
  assert.equal(stategate(s.ws, ['run', 'send', 'READY'])['to'], 'implementing');
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
    const after = stategate(s.ws, ['run', 'state']) as { usage: { steps_total: number } };
    // steps_total runs on from planning's Read: Write, Edit, Write (.env.local) since.
    assert.equal(after.usage.steps_total - before.usage.steps_total, 3);
  });

  await t.test('PostToolUse: writing .env.local fires the interrupt, and the model is told', () => {
    const view = stategate(s.ws, ['run', 'state']) as { state: string };
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
    const view = stategate(s.ws, ['run', 'state']) as { state: string; is_final: boolean };
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
