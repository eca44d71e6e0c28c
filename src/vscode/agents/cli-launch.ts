/** Moved to the engine (src/engine/clients/cli-launch.ts), so the CLI's `enable` builds the same command lines. */
export { cliCommandLine, cliInvocation, cliPath, guardedCommandLine, quoteWord, RUNTIME_ENV, type HostRuntime } from '../../engine/index.js';
