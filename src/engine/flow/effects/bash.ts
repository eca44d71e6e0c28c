/**
 * The `bash` tool: `bash -c COMMAND` in the workspace, in a process group of
 * its own, so `flow stop` kills the command and every child it started.
 * stdout is captured (and shown live, tagged `stdout`), stderr shown live.
 */
import type { CommandRequest, FlowSink, ToolOutcome } from '../host.js';
import { runInProcessGroup } from './process-group.js';
import { programFor, toOutcome, toolEnv } from './outcome.js';

export interface EffectOptions {
  /** The environment tools run with (default process.env); also where the *_BIN overrides are read. */
  readonly env?: NodeJS.ProcessEnv;
  /** Milliseconds between SIGTERM and SIGKILL when a state is stopped. */
  readonly killGraceMs?: number;
}

/** STATEGATE_BASH_BIN overrides the shell (the default is `bash` on PATH). */
export const BASH_BIN_VARIABLE = 'STATEGATE_BASH_BIN';

export async function runBash(req: CommandRequest, sink: FlowSink, opts: EffectOptions = {}): Promise<ToolOutcome> {
  const env = toolEnv(opts.env ?? process.env, req.env);
  const program = programFor(env, BASH_BIN_VARIABLE, 'bash');
  const result = await runInProcessGroup({
    program,
    args: ['-c', req.command],
    cwd: req.cwd,
    env,
    signal: req.signal,
    ...(req.onStarted ? { onStarted: req.onStarted } : {}),
    onStdout: (chunk) => sink.output(req.state, chunk, 'stdout'),
    onStderr: (chunk) => sink.output(req.state, chunk, 'stderr'),
    ...(opts.killGraceMs !== undefined ? { killGraceMs: opts.killGraceMs } : {}),
  });
  return toOutcome(result, `${program} is not installed or not on PATH: the bash tool runs its command with bash (set ${BASH_BIN_VARIABLE} to use another bash)`);
}
