/**
 * A sandbox plan (plan.ts) as a bubblewrap command line, and the shell
 * command a client runs instead of the agent's: `bwrap ARGS -- /bin/bash -c
 * '<command>'`, every word single-quoted, so nothing the agent wrote (quotes,
 * newlines, `$(...)`, heredocs) is read by the outer shell: it reaches the
 * inner bash byte for byte.
 *
 * Why bubblewrap itself rather than @anthropic-ai/sandbox-runtime: the
 * runtime is a library for a process that launches the command (it spawns
 * and proxies the network), while the hook only rewrites a command line for
 * the client to run; bwrap is one static argv, packaged by every Linux
 * distribution (Debian's `bubblewrap`), needs no daemon and no root.
 *
 * Order matters to bwrap (later mounts cover earlier ones): the read-only
 * root, fresh /dev, /proc and a private /tmp, then the writable folders, then
 * the protected paths read-only again, then the sealed (missing) folders.
 */
import type { SandboxPlan } from './plan.js';

/** Single-quote a string for a POSIX shell: `'` becomes `'\''`. */
function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Set to `1` inside the sandbox: the run's files are read-only there, so
 * stategate's own commands that change the run (`run send`) say so and name
 * the way that works (the statewright_transition tool) instead of failing
 * on a read-only file (src/cli/run-command.ts).
 */
export const SANDBOXED_ENV = 'STATEGATE_SANDBOXED';

/** The shell that runs the agent's command inside (clients run Bash commands with bash). */
export const INNER_SHELL = '/bin/bash';

export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = [
    '--die-with-parent',
    // A command inside cannot push keystrokes into the client's terminal (TIOCSTI).
    '--new-session',
    // Without its own user namespace and with every capability dropped, a command inside cannot
    // undo the mounts: bwrap started by root otherwise keeps root's capabilities, and
    // `mount -o remount,rw,bind .stategate` succeeded (seen here). --disable-userns: it cannot make
    // a nested namespace either (mounts stay locked there, but there is no need to offer it).
    '--unshare-user',
    '--disable-userns',
    '--cap-drop',
    'ALL',
    // It sees and signals only its own processes, not the client or the hook.
    '--unshare-pid',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--setenv',
    SANDBOXED_ENV,
    '1',
  ];
  for (const v of plan.visible) args.push('--ro-bind', v, v);
  if (!plan.network) args.push('--unshare-net');
  for (const w of plan.writable) args.push('--bind', w, w);
  for (const r of plan.readOnly) args.push('--ro-bind', r, r);
  for (const s of plan.sealed) args.push('--tmpfs', s, '--remount-ro', s);
  return args;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The argv that runs `command` inside the plan's sandbox. Blocked variables are unset before bwrap
 * starts (`env -u NAME bwrap ...`), not only inside: bwrap's own process is PID 1 in the sandbox, and
 * `/proc/1/environ` shows the environment it was started with (unsetting a variable in a running
 * process does not change that), so a variable bwrap held would be readable from inside.
 */
export function sandboxArgv(bwrap: string, plan: SandboxPlan, command: string, unset: readonly string[] = []): string[] {
  const names = [...new Set(unset.filter((n) => NAME.test(n)))];
  const env = names.length ? ['env', ...names.flatMap((n) => ['-u', n])] : [];
  return [...env, bwrap, ...bwrapArgs(plan), '--', INNER_SHELL, '-c', command];
}

/** The same as one POSIX command line, for a client's Bash tool. */
export function sandboxCommand(bwrap: string, plan: SandboxPlan, command: string, unset: readonly string[] = []): string {
  return sandboxArgv(bwrap, plan, command, unset).map(quote).join(' ');
}
