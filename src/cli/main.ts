/**
 * `stategate`: the command line. A thin shell over the engine: it parses
 * arguments, calls the engine, prints the answer. Every command answers
 * --help; every failure is a one-line message and a non-zero exit.
 */
import { COMMANDS, type Command } from './commands.js';
import { CliError, processOutput, reportError, type ExitCode, type Output } from './io.js';

import { VERSION } from './version.js';

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'stategate: run agent workflows as state machines and enforce them',
    '',
    'Usage: stategate <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
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
  const command: Command | undefined = COMMANDS.find((c) => c.name === name);
  if (!command) {
    return reportError(out, new CliError('usage', `unknown command '${name}'; run \`stategate --help\``), false);
  }
  try {
    return await command.run(rest, out);
  } catch (err) {
    const cliError =
      err instanceof CliError ? err : new CliError('internal', `internal error in '${name}': ${(err as Error)?.message ?? String(err)}`, 2);
    return reportError(out, cliError, command.answersInJson(rest));
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      // Exit at once: a lazily loaded WASM parser must not keep the process alive.
      process.exitCode = code;
      flushAndExit(code);
    },
    (err: unknown) => {
      process.stderr.write(`stategate: ${(err as Error)?.message ?? String(err)}\n`);
      flushAndExit(2);
    },
  );
}

function flushAndExit(code: number): void {
  // Wait for stdout to drain (a pipe may be slow), then exit without waiting for timers.
  if (process.stdout.writableLength === 0) process.exit(code);
  process.stdout.once('drain', () => process.exit(code));
}
