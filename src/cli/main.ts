/**
 * `stategate`: the command line. A thin shell over the engine: it parses
 * arguments, calls the engine, prints the answer. Every command answers
 * --help; every failure is a one-line message and a non-zero exit.
 */
import { afterCommand, loadCommand } from './commands.js';
import { COMMAND_SUMMARIES, isCommandName } from './command-table.js';
import { CliError, isCliError, processOutput, reportError, type ExitCode, type Output } from './io.js';
import { noteStdStreamUse, stdStreamMade, writeStd } from './std-output.js';

import { VERSION } from './version.js';
import * as path from 'node:path';
import { userStateDir } from '../engine/index.js';

function usage(): string {
  const names = Object.keys(COMMAND_SUMMARIES) as (keyof typeof COMMAND_SUMMARIES)[];
  const width = Math.max(...names.map((n) => n.length));
  return [
    'stategate: run agent workflows as state machines and enforce them',
    '',
    'Usage: stategate <command> [options]',
    '',
    'Commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${COMMAND_SUMMARIES[n]}`),
    '',
    'Run `stategate <command> --help` for a command\'s options.',
  ].join('\n');
}

export async function main(argv: readonly string[], out: Output = processOutput): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    out.stdout(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    out.stdout(`${VERSION}\n`);
    return 0;
  }
  if (!isCommandName(name)) {
    return reportError(out, new CliError('usage', `unknown command '${name}'; run \`stategate --help\``), false);
  }
  const command = await loadCommand(name);
  try {
    return await command.run(rest, out);
  } catch (err) {
    const cliError =
      isCliError(err) ? err : new CliError('internal', `internal error in '${name}': ${(err as Error)?.message ?? String(err)}`, 2);
    return reportError(out, cliError, command.answersInJson(rest));
  }
}

function flushAndExit(code: number): void {
  // Wait for stdout to drain (a pipe may be slow), then exit without waiting for timers. A process that
  // never made process.stdout wrote its answer to the descriptor (std-output.ts) and has nothing queued.
  if (!stdStreamMade('stdout') || process.stdout.writableLength === 0) process.exit(code);
  process.stdout.once('drain', () => process.exit(code));
}

// Last: the entry runs after every module-level binding above it is set (a `let` declared below it
// would be set again when the module body reaches it, after the entry had changed it).
if (require.main === module) {
  // Node 22+: cache compiled code on disk, so a hook process (one per tool call) starts fast. In stategate's
  // state folder, which the gate protects (an agent's writes denied, read-only in the sandbox): the default
  // folder is under os.tmpdir(), where any process of the user may plant a cache entry the hook would run.
  (require('node:module') as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache?.(path.join(userStateDir(), 'node-compile-cache'));
  noteStdStreamUse();
  main(process.argv.slice(2)).then(
    (code) => {
      // The answer is written: the first hook under this runtime now keeps its code cache (code-cache.ts).
      afterCommand();
      // Exit at once: a lazily loaded WASM parser must not keep the process alive.
      process.exitCode = code;
      flushAndExit(code);
    },
    (err: unknown) => {
      writeStd('stderr', `stategate: ${(err as Error)?.message ?? String(err)}\n`);
      flushAndExit(2);
    },
  );
}
