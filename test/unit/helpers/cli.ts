/** Run the bundled CLI (dist/cli.js, built by `pretest:unit`) as a user would. */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import './state-dir';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON, when it is. */
  readonly json: any;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function requireBuiltCli(): void {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
}

export function cli(args: readonly string[], opts: { cwd: string; input?: string; env?: Record<string, string> }): CliResult {
  requireBuiltCli();
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: opts.cwd, input: opts.input ?? '', encoding: 'utf8', env: { ...process.env, ...opts.env } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: parseJson(r.stdout) };
}

export function cliAsync(args: readonly string[], opts: { cwd: string; input?: string; env?: Record<string, string> }): Promise<CliResult> {
  requireBuiltCli();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, json: parseJson(stdout) }));
    child.stdin.end(opts.input ?? '');
  });
}
