/**
 * From a finished process to the runner's ToolOutcome: the exit code and
 * stdout as they are, and when the program never ran, a message that names
 * what is missing and how to get it (`missing`), instead of a bare 127.
 */
import type { ToolOutcome } from '../host.js';
import type { GroupRunResult } from './process-group.js';

export function toOutcome(result: GroupRunResult, missing: string): ToolOutcome {
  if (result.spawnError === 'not-found') return { exitCode: result.exitCode, stdout: '', message: missing };
  if (result.spawnError) return { exitCode: result.exitCode, stdout: '', message: result.spawnMessage ?? missing };
  if (result.aborted) return { exitCode: result.exitCode, stdout: result.stdout, message: 'stopped: the process group was killed' };
  return { exitCode: result.exitCode, stdout: result.stdout };
}

/** The environment a tool runs with: the host's, then the request's extra variables. */
export function toolEnv(base: NodeJS.ProcessEnv, extra?: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  return extra ? { ...base, ...extra } : { ...base };
}

/** The program to run for a tool: the override variable when set (tests, unusual installs), else the name on PATH. */
export function programFor(env: NodeJS.ProcessEnv, variable: string, name: string): string {
  const override = env[variable];
  return override && override.trim() !== '' ? override : name;
}
