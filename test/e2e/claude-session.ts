// The real Claude Code CLI (`claude -p`, installed by setup-claude.sh) in a
// temp workspace under the stategate hook entries "stategate: Enable Agent
// Enforcement" merges into `.claude/settings.local.json`, with a scripted
// fake of the Anthropic Messages API (fake-anthropic.ts) as its model. Shared
// by claude-code.test.ts and claude-code-adversary.test.ts.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { mergeClaudeSettings, CLAUDE_SETTINGS_FILE } from '../../src/vscode/agents/hook-install';
import { startFakeAnthropic, toolResults, type Block, type FakeAnthropic, type MessagesRequest } from './fake-anthropic';
import { removeTempDir, tempDir } from '../unit/helpers/temp-dir';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

export type JournalEntry = Record<string, unknown> & { kind: string };
export type HookInput = Record<string, unknown> & { hook_event_name: string; tool_name?: string };

/** setup-claude.sh: the binary, or why the test must skip (the registry only). */
export function installClaude(): { bin: string } | { skip: string } {
  const r = spawnSync('bash', [path.join(__dirname, 'setup-claude.sh')], { encoding: 'utf8', timeout: 600_000 });
  if (r.status === 3) return { skip: `Claude Code could not be installed: the npm registry is out of reach (setup-claude.sh: ${r.stderr.trim().split('\n').at(-1)})` };
  assert.equal(r.status, 0, `setup-claude.sh failed (exit ${r.status}):\n${r.stderr}`);
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  assert.match(line, /^STATEGATE_CLAUDE \//, `setup-claude.sh printed no binary: ${r.stdout}`);
  return { bin: line.slice('STATEGATE_CLAUDE '.length) };
}

export function stategate(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env });
  assert.equal(r.status, 0, `stategate ${args.join(' ')}: exit ${r.status}\n${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/**
 * The model: one scripted turn per assistant message already in the main
 * conversation (the request that offers Claude Code's tools). Anything else
 * Claude Code asks on the side gets a short text.
 */
export class ScriptedModel {
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

export interface ClaudeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly output: Record<string, unknown> | undefined;
}

export class Session {
  readonly root = tempDir('sg-claude-');
  readonly ws = path.join(this.root, 'ws');
  readonly home = path.join(this.root, 'home');
  readonly inputsFile = path.join(this.root, 'hook-inputs.jsonl');
  readonly mcpConfig = path.join(this.root, 'mcp.json');
  readonly model = new ScriptedModel();
  api!: FakeAnthropic;

  /** stategate's user state folder for this session (never the real one under $HOME). */
  readonly stateDir = path.join(this.root, 'state');

  constructor(
    readonly claude: string,
    readonly workflow: unknown,
  ) {}

  /** The environment the CLI and the hooks Claude Code starts see. */
  env(): NodeJS.ProcessEnv {
    return { ...process.env, STATEGATE_STATE_DIR: this.stateDir };
  }

  /** `stategate ARGS` in the workspace, with this session's state folder. */
  cli(args: string[]): Record<string, unknown> {
    return stategate(this.ws, args, this.env());
  }

  async start(): Promise<void> {
    fs.mkdirSync(this.ws);
    fs.mkdirSync(this.home);
    fs.writeFileSync(path.join(this.ws, 'x.workflow.json'), `${JSON.stringify(this.workflow, null, 2)}\n`);
    this.cli(['run', 'start', 'x.workflow.json']);
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
  run(prompt: string, extraArgs: readonly string[] = [], extraEnv: Readonly<Record<string, string>> = {}): Promise<ClaudeRun> {
    const env = {
      ...extraEnv,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.home,
      CLAUDE_CONFIG_DIR: path.join(this.home, '.claude'),
      ANTHROPIC_BASE_URL: this.api.url,
      ANTHROPIC_API_KEY: 'test-key',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      STATEGATE_STATE_DIR: this.stateDir,
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

  /**
   * The active run's journal. Not the first folder under runs/: a test that starts its own run after
   * start()'s leaves two run folders, and readdir's order is the file system's (on ext4 a hash order),
   * so the stopped first run's journal was read now and then.
   */
  journal(): JournalEntry[] {
    const store = path.join(this.ws, '.stategate');
    const id = fs.readFileSync(path.join(store, 'active'), 'utf8').trim();
    assert.ok(id, `${store}/active names no run`);
    return fs
      .readFileSync(path.join(store, 'runs', id, 'journal.jsonl'), 'utf8')
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

export function assertRan(r: ClaudeRun): void {
  assert.equal(r.code, 0, `claude -p exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  assert.ok(r.output, `claude -p printed no JSON: ${r.stdout}`);
  assert.equal(r.output['is_error'], false, `claude -p reports an error: ${r.stdout}`);
}


/**
 * A started session for test `t`, or undefined when `t` was skipped because
 * Claude Code cannot be installed (the npm registry out of reach, and only
 * that). Closed and removed after `t` (STATEGATE_KEEP_TEMP=1 keeps its folder).
 */
export async function claudeSession(t: TestContext, workflow: unknown): Promise<Session | undefined> {
  const installed = installClaude();
  if ('skip' in installed) {
    t.diagnostic(installed.skip);
    t.skip(installed.skip);
    return undefined;
  }
  assert.ok(fs.existsSync(CLI), `${CLI} is missing: run npm run build first`);
  const s = new Session(installed.bin, workflow);
  t.after(async () => {
    await s.close();
    removeTempDir(s.root);
  });
  await s.start();
  return s;
}
