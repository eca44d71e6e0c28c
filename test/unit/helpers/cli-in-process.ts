/**
 * The CLI's own entry point (`main` of src/cli/main.ts) called in this
 * process: the same argument parsing, command, Runner and printed answer as
 * `dist/cli.js`, without starting a Node process (~0.1-0.3 s each on a busy
 * machine). For tests whose point is what the engine answers through a
 * command. Where the process is the point (exit code as seen by a shell,
 * start-up, stdin, a hook's deadline from process start) use helpers/cli.ts.
 *
 * Commands resolve `.stategate` against the working directory, so the call
 * changes it (and the variables given in `env`) for its duration: callers must
 * not run these concurrently within one test file (node:test runs a file's
 * tests one at a time unless told).
 */
import './state-dir';
import { main } from '../../../src/cli/main';
import type { CliResult } from './cli';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

let busy = false;

/** Run `fn` with the variables of `env` set (an empty string sets it empty), then put them back. */
export async function withEnv<T>(env: Readonly<Record<string, string>> | undefined, fn: () => Promise<T>): Promise<T> {
  const saved = Object.keys(env ?? {}).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

export async function cliInProcess(args: readonly string[], opts: { cwd: string; env?: Record<string, string> }): Promise<CliResult> {
  if (busy) throw new Error('cliInProcess: one call at a time (it changes the working directory)');
  busy = true;
  let stdout = '';
  let stderr = '';
  const before = process.cwd();
  process.chdir(opts.cwd);
  try {
    const code = await withEnv(opts.env, () => main(args, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) }));
    return { code, stdout, stderr, json: parseJson(stdout) };
  } finally {
    process.chdir(before);
    busy = false;
  }
}
