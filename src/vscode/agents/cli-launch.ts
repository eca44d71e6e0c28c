/**
 * How other programs start the CLI bundled in the extension (dist/cli.js):
 * with the extension host's own runtime (`process.execPath`, Electron or
 * Node) and ELECTRON_RUN_AS_NODE=1, so the user needs no Node install.
 * One place for the hook installer and the MCP server definition.
 * vscode-free, so it is unit-tested.
 */
import * as path from 'node:path';

export interface HostRuntime {
  /** `process.execPath` of the extension host. */
  readonly execPath: string;
  /** The extension's install folder (`context.extensionPath`). */
  readonly extensionPath: string;
  /** `process.platform`: decides how paths are quoted in a command line. */
  readonly platform: NodeJS.Platform;
}

/** Electron binaries act as plain Node only with this variable set; Node ignores it. */
export const RUNTIME_ENV: Readonly<Record<string, string>> = { ELECTRON_RUN_AS_NODE: '1' };

export function cliPath(rt: HostRuntime): string {
  const join = rt.platform === 'win32' ? path.win32.join : path.posix.join;
  return join(rt.extensionPath, 'dist', 'cli.js');
}

/**
 * Quote one word for the shell the client runs hook commands with: POSIX
 * single quotes (nothing inside is special; a `'` becomes `'\''`), or double
 * quotes on Windows, where a path cannot contain `"`.
 */
export function quoteWord(word: string, platform: NodeJS.Platform): string {
  if (platform === 'win32') return `"${word}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The program and arguments that run `stategate <args>` with the host's runtime. */
export function cliInvocation(rt: HostRuntime, args: readonly string[]): { command: string; args: string[]; env: Record<string, string> } {
  return { command: rt.execPath, args: [cliPath(rt), ...args], env: { ...RUNTIME_ENV } };
}

/**
 * The same as one command line. `inlineEnv` puts the variable in front
 * (`ELECTRON_RUN_AS_NODE=1 '…' '…' hook`) for clients whose hook entries have
 * no `env` property (Claude Code); POSIX shells only.
 */
export function cliCommandLine(rt: HostRuntime, args: readonly string[], opts: { inlineEnv?: boolean } = {}): string {
  const inv = cliInvocation(rt, args);
  const words = [quoteWord(inv.command, rt.platform), ...inv.args.map((a, i) => (i === 0 ? quoteWord(a, rt.platform) : a))];
  const env = opts.inlineEnv ? Object.entries(inv.env).map(([k, v]) => `${k}=${v} `).join('') : '';
  return env + words.join(' ');
}
