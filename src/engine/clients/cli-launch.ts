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

/**
 * What a person does when the hook cannot run: enable again (which writes the
 * current paths) or take the hooks out.
 */
function repairText(hookFile: string): string {
  return `To repair: open this folder in VS Code with stategate installed and run 'stategate: Enable Agent Enforcement' again, or remove stategate's hooks from ${hookFile} ('stategate: Disable Agent Enforcement').`;
}

/** Why the hook cannot run, one message per missing file (no double quotes or percent signs: cmd.exe echoes it too). */
function missingMessages(rt: HostRuntime, hookFile: string): { cli: string; runtime: string } {
  const repair = repairText(hookFile);
  return {
    cli: `stategate: the agent hook cannot run, so this tool call is denied: its CLI ${cliPath(rt)} is missing (the stategate extension was uninstalled, or updated or moved to another folder). ${repair}`,
    runtime: `stategate: the agent hook cannot run, so this tool call is denied: the runtime ${rt.execPath} that runs its CLI is missing (VS Code was moved, updated or uninstalled). ${repair}`,
  };
}

/**
 * The command line a hook entry runs: the CLI with the host's runtime, behind
 * a check that both files are there. Clients run hook commands through a
 * shell, and a command that cannot start (exit 126/127) or exits 1 is only a
 * warning to them: Claude Code and VS Code then run the tool anyway. So when
 * the CLI (an uninstalled or updated extension) or the runtime (a moved VS
 * Code) is gone, the line itself exits 2, which blocks the call in both, with
 * stderr saying what is missing and how to repair. The extension re-points
 * its entries at the current paths on activation (hook-install.ts).
 *
 * `shell`: `posix` for `sh -c` (Linux, macOS, and Claude Code's Git Bash on
 * Windows); `cmd` for cmd.exe, which VS Code uses for hook commands on
 * Windows (`spawn` with `shell: true`).
 */
export function guardedCommandLine(rt: HostRuntime, args: readonly string[], opts: { shell: 'posix' | 'cmd'; hookFile: string; inlineEnv?: boolean }): string {
  const run = cliCommandLine(rt, args, opts.inlineEnv ? { inlineEnv: true } : {});
  const msg = missingMessages(rt, opts.hookFile);
  const cli = quoteWord(cliPath(rt), rt.platform);
  const runtime = quoteWord(rt.execPath, rt.platform);
  if (opts.shell === 'cmd') {
    const deny = (text: string) => `(echo "${text}" 1>&2 & exit /b 2)`;
    // Each `if` in parentheses, so what follows it runs whatever the condition (not run on Windows here: docs/agents.md).
    return `(if not exist ${cli} ${deny(msg.cli)}) & (if not exist ${runtime} ${deny(msg.runtime)}) & ${run}`;
  }
  const deny = (text: string) => `{ printf '%s\\n' ${quoteWord(text, 'linux')} >&2; exit 2; }`;
  return `[ -f ${cli} ] || ${deny(msg.cli)}; [ -x ${runtime} ] || ${deny(msg.runtime)}; ${run}`;
}

