/**
 * Running a `command` handler: the argv as given, no shell, in the workspace
 * folder, the params as JSON on stdin and in STATEGATE_PARAMS. What comes
 * back is the exit code, how many bytes it wrote (stdout and stderr, what is
 * journaled) and its stdout (capped: it becomes the done event's data, never
 * the journal's).
 */
import { spawn } from 'node:child_process';
import type { JsonObject } from '../model/index.js';

export interface ExecResult {
  /** null: it could not start, or was killed (see `error`). */
  readonly exitCode: number | null;
  readonly bytes: number;
  readonly stdout: string;
  readonly error?: string;
}

/** Output kept for the done event's data; more is counted in `bytes` but not kept. */
export const MAX_KEPT_OUTPUT = 1 << 20;
/** A handler that runs longer is ended (an invocation must not wait forever on a hung command). */
export const HANDLER_TIMEOUT_MS = 10 * 60 * 1000;

export function execCommand(argv: readonly string[], cwd: string, params: JsonObject | undefined, timeoutMs = HANDLER_TIMEOUT_MS): Promise<ExecResult> {
  return new Promise((resolve) => {
    const json = JSON.stringify(params ?? {});
    let bytes = 0;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let settled = false;
    const done = (r: ExecResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(argv[0] as string, argv.slice(1), { cwd, shell: false, env: { ...process.env, STATEGATE_PARAMS: json }, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (err) {
      resolve({ exitCode: null, bytes: 0, stdout: '', error: `${argv[0]} could not start: ${(err as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ exitCode: null, bytes, stdout: Buffer.concat(kept).toString('utf8'), error: `${argv[0]} ran longer than ${Math.round(timeoutMs / 1000)} s and was ended` });
    }, timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (keptBytes < MAX_KEPT_OUTPUT) {
        kept.push(chunk.subarray(0, MAX_KEPT_OUTPUT - keptBytes));
        keptBytes += chunk.length;
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    child.on('error', (err) => done({ exitCode: null, bytes, stdout: '', error: `${argv[0]} could not start: ${err.message}` }));
    child.on('close', (code, signal) =>
      done({ exitCode: code, bytes, stdout: Buffer.concat(kept).toString('utf8'), ...(code === null ? { error: `${argv[0]} was ended by ${signal ?? 'a signal'}` } : {}) }),
    );
    // A command that does not read its stdin must not fail the handler.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(json);
  });
}
