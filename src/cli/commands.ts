/**
 * Loading a command's module. Bundled, each command is its own file
 * (dist/cli/<name>.js) so a process loads only the code it runs; from source
 * (tests under tsx) the modules are imported directly.
 */
import * as path from 'node:path';
import type { ExitCode, Output } from './io.js';
import type { CommandName } from './command-table.js';

export interface Command {
  readonly name: string;
  run(args: readonly string[], out: Output): Promise<ExitCode>;
  /** Whether an error should also be printed as a JSON object on stdout. */
  answersInJson(args: readonly string[]): boolean;
}

/** The code-cache module, once the hook was loaded through it (afterCommand writes its caches). */
let codeCache: typeof import('./code-cache.js') | undefined;

export async function loadCommand(name: CommandName): Promise<Command> {
  // Computed paths, so the bundler leaves them to run time. The bundler defines
  // STATEGATE_BUNDLED as "1"; from source (tsx), the command modules load directly.
  const file = process.env.STATEGATE_BUNDLED === '1' ? path.join(__dirname, 'cli', `${name}.js`) : path.join(__dirname, `${name}-command`);
  // The hook, from V8's code cache made where it runs (code-cache.ts), on a Node without a compile cache of its own.
  if (name === 'hook' && process.env.STATEGATE_BUNDLED === '1') {
    codeCache = require('./code-cache.js') as typeof import('./code-cache.js');
    return (codeCache.requireWithCodeCache(file).exports as { command: Command }).command;
  }
  return (require(file) as { command: Command }).command;
}

/** After a command has answered: the code caches of the bundles it compiled without one (only the hook's). */
export function afterCommand(): void {
  codeCache?.writeCodeCaches();
}
