// What the end-to-end tests of other agents' CLIs share (gemini-cli, codex-cli,
// opencode): installing the pinned CLI through its setup script, one sandbox
// (a temp HOME and workspace) whose state folder the CLI, its hooks, its MCP
// server and the test's own `stategate` calls all find, `stategate` run as a
// person would, and the agent run to its end with its output kept.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { removeTempDir, tempDir } from '../unit/helpers/temp-dir';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const STATEGATE_CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

/**
 * Runs test/e2e/<script> and returns the path it printed after `tag`, or why the test skips: only when
 * the script says the npm registry is out of reach (exit 3). Any other failure fails the test.
 */
export function installAgentCli(script: string, tag: string): { path: string } | { skip: string } {
  const r = spawnSync('bash', [path.join(__dirname, script)], { encoding: 'utf8', timeout: 600_000 });
  if (r.status === 3) return { skip: `${script}: the npm registry is out of reach (${r.stderr.trim().split('\n').at(-1)})` };
  assert.equal(r.status, 0, `${script} failed (exit ${r.status}):\n${r.stderr}`);
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  assert.ok(line.startsWith(`${tag} /`), `${script} printed ${line}`);
  return { path: line.slice(tag.length + 1) };
}

export interface Sandbox {
  readonly home: string;
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  /** `stategate ARGS` in the workspace; exit 0 asserted; its JSON answer. */
  sg(args: string[]): Record<string, any>;
  /** The active run's journal lines. */
  journal(runId: string): string[];
}

/**
 * A temp HOME and workspace, removed after the test. The state folder is the default one under that HOME
 * (XDG_STATE_HOME unset): clients that hand their MCP servers a scrubbed environment (Codex) still pass
 * HOME, so every stategate process finds the same record of the active run.
 */
export function sandbox(t: TestContext, name: string, extraEnv: NodeJS.ProcessEnv = {}): Sandbox {
  const home = tempDir(`sg-${name}-home-`);
  const root = tempDir(`sg-${name}-ws-`);
  t.after(() => {
    removeTempDir(home);
    removeTempDir(root);
  });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, STATEGATE_STATE_DIR: path.join(home, '.local', 'state', 'stategate'), NO_COLOR: '1', ...extraEnv };
  delete env['XDG_STATE_HOME'];
  return {
    home,
    root,
    env,
    sg: (args) => {
      const r = spawnSync(process.execPath, [STATEGATE_CLI, ...args], { cwd: root, env, encoding: 'utf8' });
      assert.equal(r.status, 0, `stategate ${args.join(' ')}: ${r.stdout}${r.stderr}`);
      return JSON.parse(r.stdout) as Record<string, any>;
    },
    journal: (runId) => fs.readFileSync(path.join(root, '.stategate', 'runs', runId, 'journal.jsonl'), 'utf8').split('\n').filter((l) => l !== ''),
  };
}

/** Runs the agent to its end (killed after `timeoutMs`); its exit code and stdout + stderr. */
export async function runAgent(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  return { code, output };
}

/**
 * The workflow every agent-CLI test plays: read-only with `cat`/`ls` first, READY (over MCP) to editing,
 * and an interrupt on any `.env` file. `id` names the client, so the model's read shows whose file it was.
 */
export function gateWorkflow(id: string): object {
  return {
    id,
    initial: 'reading',
    interrupts: { secrets: { trigger: { file_pattern: '**/*.env*' }, target: 'secrets_review' } },
    states: {
      reading: { allowed_tools: ['Read', 'Bash'], allowed_commands: ['cat', 'ls'], instructions: 'Read, then move on with READY.', on: { READY: 'editing' } },
      editing: { allowed_tools: ['Read', 'Write', 'Edit'], on: { DONE: 'done' } },
      secrets_review: { allowed_tools: ['Read'], on: { CLEARED: '$return' } },
      done: { type: 'final' },
    },
  };
}

/**
 * What the journal of a gated session must hold, whatever the client: the two denials (the write and
 * the command) under the client's name, the allowed read recorded after it ran with its client, and the
 * client's own after-call hook seeing the MCP transition under stategate's one spelling of its tool.
 */
export function assertGatedJournal(journal: readonly string[], client: string, readTool: string): string[] {
  const denied = journal.filter((l) => l.includes('"tool_denied"'));
  assert.equal(denied.length, 2, journal.join('\n'));
  for (const l of denied) assert.match(l, new RegExp(`"client":"${client}"`));
  const recorded = (tool: string) => journal.some((l) => new RegExp(`"tool_result".*"tool":"${tool}".*"client":"${client}"`).test(l));
  assert.ok(recorded(readTool), `the allowed ${readTool} was recorded after it ran, with its client`);
  assert.ok(recorded('mcp__stategate__statewright_transition'), "the client's hook saw the MCP call too, under the one spelling of stategate's tool");
  return denied;
}
