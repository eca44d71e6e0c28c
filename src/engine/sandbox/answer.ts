/**
 * What the gate adds to an allowed shell call: whether the kernel boundary is
 * on for it (`sandbox`), and the tool input the client should run instead
 * (`updated_input`: the same input, its command wrapped by bwrap). The
 * analysis decided first; this never turns a denial into an allow, and when
 * the boundary is off the reason says why (no bubblewrap, not Linux, a client
 * that cannot rewrite without approving).
 */
import * as os from 'node:os';
import type { StateRules } from '../model/index.js';
import { sandboxCommand } from './bwrap-argv.js';
import type { SandboxBackend } from './bwrap-probe.js';
import { CLIENT_REWRITE, clientCannotRewrite } from './clients.js';
import { sandboxPlan } from './plan.js';

export interface SandboxStatus {
  readonly enforced: boolean;
  readonly reason?: string;
  /** `run state` and the panel: the clients whose calls run without it even where it is on, and why. */
  readonly off_for?: Readonly<Record<string, string>>;
}

export interface SandboxAnswer {
  readonly sandbox: SandboxStatus;
  readonly updated_input?: unknown;
}

/** What the Runner needs to put a boundary under a command. */
export interface SandboxProvider {
  /** Called once per shell call that is allowed (cheap: see bwrap-probe.ts). */
  readonly backend: () => SandboxBackend;
  /** stategate's installed files: read-only inside (the CLI bundle's folder, the extension's). */
  readonly installDirs: readonly string[];
}

export interface SandboxCall {
  readonly provider: SandboxProvider;
  readonly rules: StateRules;
  readonly input: unknown;
  /** The command to wrap: the agent's, or its environment rewrite (blocked variables unset, overrides set). */
  readonly command: string;
  readonly client?: string;
  readonly workspaceRoot: string;
  readonly storeDir: string;
  readonly stateDir: string;
}

/**
 * Whether this machine can put the boundary under shell commands (`run state`, the panel):
 * bubblewrap found and working. Per call a client that cannot take the rewrite still turns it off.
 */
export function sandboxStatusHere(backend: SandboxBackend): SandboxStatus {
  if (backend.kind === 'none') return { enforced: false, reason: `${backend.reason}; the command analysis alone decides` };
  const off = Object.entries(CLIENT_REWRITE).filter((e): e is [string, string] => e[1] !== undefined);
  return { enforced: true, off_for: Object.fromEntries(off.map(([client, why]) => [client, `${why}; the command analysis alone decides its calls`])) };
}

const off = (reason: string): SandboxAnswer => ({ sandbox: { enforced: false, reason } });

type Rewritable = { readonly input: { readonly command: string }; readonly backend: Extract<SandboxBackend, { kind: 'bwrap' }> };

/** The call's input and the backend when the client can take the rewrite, else why the boundary is off. */
function rewritable(provider: SandboxProvider, client: string | undefined, input: unknown): Rewritable | string {
  const cannot = clientCannotRewrite(client);
  if (cannot) return cannot;
  const i = input as { command?: unknown } | null;
  if (!i || typeof i !== 'object' || Array.isArray(i) || typeof i.command !== 'string') return 'the call carries its command in no `command` field that stategate could rewrite';
  const backend = provider.backend();
  return backend.kind === 'none' ? backend.reason : { input: i as { command: string }, backend };
}

/** Whether an allowed call would run inside the sandbox: the policy leaves git's whole-tree writes to it (decide.ts `sandboxed`). */
export function sandboxWillHold(provider: SandboxProvider, client: string | undefined, input: unknown): boolean {
  return typeof rewritable(provider, client, input) !== 'string';
}

export function sandboxAnswer(c: SandboxCall): SandboxAnswer {
  const r = rewritable(c.provider, c.client, c.input);
  if (typeof r === 'string') return off(r);
  const { input, backend } = r;
  const plan = sandboxPlan({
    workspaceRoot: c.workspaceRoot,
    storeDir: c.storeDir,
    stateDir: c.stateDir,
    home: os.homedir(),
    installDirs: c.provider.installDirs,
    ...(c.rules.allowedPaths ? { allowedPaths: c.rules.allowedPaths } : {}),
    network: c.rules.network !== false,
    platform: process.platform,
    // An empty variable counts as unset (XDG_CONFIG_HOME='' is not the current folder).
    env: Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')),
  });
  return { sandbox: { enforced: true }, updated_input: { ...(input as object), command: sandboxCommand(backend.path, plan, c.command, c.rules.blockedEnv) } };
}
