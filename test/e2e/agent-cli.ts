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
