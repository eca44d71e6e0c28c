/**
 * Is there a kernel sandbox on this machine? The hook is one process per tool
 * call, so this must stay cheap: a `stat` of bubblewrap's binary, and a probe
 * run (bwrap with the flags sandboxCommand uses, running /bin/true) only when
 * the binary is new or changed: its answer is kept in stategate's user state
 * folder, keyed by the binary's path, size and mtime. That folder is one of
 * the gate's protected paths (read-only inside the sandbox, denied to writes
 * by the analysis), so the agent cannot plant an answer there; and a stale
 * "works" only makes commands fail, never run unsandboxed.
 *
 * bwrap is looked for at fixed paths, not on PATH: the client's PATH may
 * name a folder the agent can write.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export type SandboxBackend = { readonly kind: 'bwrap'; readonly path: string } | { readonly kind: 'none'; readonly reason: string };

/** Where distributions install bubblewrap. */
export const BWRAP_PATHS = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'] as const;

export const PROBE_FILE = 'sandbox-probe.json';

interface ProbeRecord {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ok: boolean;
  readonly reason?: string;
}

export interface FindSandboxOptions {
  readonly platform?: NodeJS.Platform;
  /** Where the probe's answer is kept (userStateDir()). */
  readonly stateDir: string;
  /** Tests and packagers: this bwrap only (`STATEGATE_BWRAP`); default BWRAP_PATHS. */
  readonly candidates?: readonly string[];
}

/** The flags that could fail on a machine that has bwrap (user namespaces off, seccomp rules). */
const PROBE_ARGS = ['--unshare-user', '--disable-userns', '--cap-drop', 'ALL', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--proc', '/proc', '--tmpfs', '/tmp', '--', '/bin/true'];

function readProbe(file: string): ProbeRecord | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8')) as ProbeRecord;
    return typeof r.path === 'string' && typeof r.ok === 'boolean' ? r : undefined;
  } catch {
    return undefined;
  }
}

function writeProbe(file: string, record: ProbeRecord): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(record)}\n`);
    fs.renameSync(tmp, file);
  } catch {
    // Not kept: the next call probes again (slower, never wrong).
  }
}

export function findSandbox(opts: FindSandboxOptions): SandboxBackend {
  const platform = opts.platform ?? process.platform;
  if (platform !== 'linux') return { kind: 'none', reason: `no kernel sandbox on ${platform}: stategate's sandbox is bubblewrap, which runs on Linux only` };
  const candidates = opts.candidates ?? BWRAP_PATHS;
  let found: { path: string; stat: fs.Stats } | undefined;
  for (const p of candidates) {
    try {
      const stat = fs.statSync(p);
      if (stat.isFile()) {
        found = { path: p, stat };
        break;
      }
    } catch {
      // not there
    }
  }
  if (!found) return { kind: 'none', reason: `bubblewrap is not installed (no ${candidates.join(', ')}): install the bubblewrap package` };
  const file = path.join(opts.stateDir, PROBE_FILE);
  const known = readProbe(file);
  const key = { path: found.path, size: found.stat.size, mtimeMs: found.stat.mtimeMs };
  let record = known && known.path === key.path && known.size === key.size && known.mtimeMs === key.mtimeMs ? known : undefined;
  if (!record) {
    // Required here: the probe runs once per bwrap binary, and node:child_process (with net, dgram and
    // their bindings) costs every hook process a few ms of start-up that the answer kept above spares it.
    const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
    const r = spawnSync(found.path, PROBE_ARGS, { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'ignore', 'pipe'] });
    const ok = r.status === 0;
    const why = (r.error?.message ?? r.stderr ?? '').trim().split('\n')[0] || `exit ${r.status}`;
    record = { ...key, ok, ...(ok ? {} : { reason: why }) };
    writeProbe(file, record);
  }
  return record.ok ? { kind: 'bwrap', path: found.path } : { kind: 'none', reason: `${found.path} cannot make a sandbox here (${record.reason ?? 'probe failed'}): user namespaces may be off` };
}
