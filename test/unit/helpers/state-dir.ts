/**
 * Tests never write the user's real state directory (~/.local/state/stategate):
 * every Runner keeps the record of its active run there (src/engine/active-record.ts).
 * Importing this module (helpers/cli.ts does; so do `npm run test:unit` and the
 * e2e harness) points STATEGATE_STATE_DIR at a fresh temporary folder, which the
 * process that made it removes when it exits. Child processes (the CLI, VS Code's
 * extension host, hook processes) inherit the variable.
 */
import { tempDir } from './temp-dir';

if (!process.env.STATEGATE_STATE_DIR) {
  const dir = tempDir('sg-state-');
  process.env.STATEGATE_STATE_DIR = dir;
}

/** The state directory tests use (a temporary folder). */
export const TEST_STATE_DIR: string = process.env.STATEGATE_STATE_DIR;

/**
 * For child processes started with an environment of their own (the MCP SDK's
 * StdioClientTransport passes only HOME, PATH and a few others by default).
 */
export const STATE_ENV: Readonly<Record<string, string>> = { STATEGATE_STATE_DIR: TEST_STATE_DIR };
