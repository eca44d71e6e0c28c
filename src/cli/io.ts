/**
 * How the CLI talks: one JSON object on stdout for `run` commands, and for
 * errors a JSON `{"error": {"code", "message"}}` (where JSON is expected) plus
 * a one-line message on stderr and a non-zero exit. Never a stack trace.
 */
import { writeStd } from './std-output.js';

/**
 * 0 ok, 1 the command ran and said no, 2 usage or I/O, 3 enforcement could
 * not read its state; `flow run|resume|stop` exit with the flow's own exit
 * code (any 0-255: a failing state's code, 130 when stopped).
 */
export type ExitCode = number;

export class CliError extends Error {
  /** Each command is its own bundle with its own copy of this class, so the dispatcher recognises it by this mark, not instanceof. */
  readonly cliError = true;
  constructor(
    readonly code: string,
    message: string,
    /** 2: usage or I/O; 1: the command ran and said no; 3: enforcement could not read its state. */
    readonly exitCode: ExitCode = 2,
  ) {
    super(message);
  }
}

export function isCliError(err: unknown): err is CliError {
  return typeof err === 'object' && err !== null && (err as { cliError?: unknown }).cliError === true;
}

export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The process's own output (std-output.ts: straight to the descriptors while no stream has been made). */
export const processOutput: Output = {
  stdout: (text) => writeStd('stdout', text),
  stderr: (text) => writeStd('stderr', text),
};

export function printJson(out: Output, value: unknown): void {
  out.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** Report an error: JSON on stdout when the command answers in JSON, one line on stderr always. */
export function reportError(out: Output, err: CliError, json: boolean): ExitCode {
  if (json) printJson(out, { error: { code: err.code, message: err.message } });
  out.stderr(`stategate: ${err.message.replace(/\s*\n\s*/g, ' ')}\n`);
  return err.exitCode;
}

/** Parse a JSON option value, naming the option in the error. */
export function parseJsonOption(name: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError('invalid_json', `--${name} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Parse a JSON option that must be an object (event data, context). */
export function parseJsonObjectOption(name: string, text: string | undefined): Record<string, unknown> | undefined {
  const value = parseJsonOption(name, text);
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new CliError('invalid_json', `--${name} must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'null' : typeof value}`);
  }
  return value as Record<string, unknown>;
}
