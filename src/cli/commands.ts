/** The table of CLI commands; each lives in its own module. */
import type { ExitCode, Output } from './io.js';
import { validateCommand } from './validate-command.js';
import { exportCommand } from './export-command.js';
import { runCommand } from './run-command.js';
import { mcpCommand } from './mcp-command.js';
import { hookCommand } from './hook-command.js';

export interface Command {
  readonly name: string;
  readonly summary: string;
  run(args: readonly string[], out: Output): Promise<ExitCode>;
  /** Whether an error should also be printed as a JSON object on stdout. */
  answersInJson(args: readonly string[]): boolean;
}

export const COMMANDS: readonly Command[] = [validateCommand, runCommand, hookCommand, mcpCommand, exportCommand];
