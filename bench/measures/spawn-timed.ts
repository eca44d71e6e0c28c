/**
 * One process spawned and timed from spawn to exit, its output kept: how the
 * hook benchmarks measure a hook call, as an agent's client makes it.
 */
import { spawn } from 'node:child_process';

export interface Spawned {
  readonly ms: number;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run node with `args` in `cwd`, `stdin` written and closed; `env` defaults to this process's. */
export function timeSpawn(args: readonly string[], stdin: string, cwd: string, env?: NodeJS.ProcessEnv): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd, ...(env ? { env } : {}), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - t0, code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
