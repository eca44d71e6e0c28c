// apt-get that waits for the package manager instead of failing on its lock.
// On a machine just booted, apt is often busy (an unattended upgrade, cloud-init):
// apt-get then fails at once with "Could not get lock /var/lib/dpkg/lock-frontend"
// or ".../lists/lock". `DPkg::Lock::Timeout` makes apt wait for the dpkg lock, but
// apt 2.6's `update` does not apply it to the lists lock, so this also retries
// while apt's answer is a lock it could not get, saying who holds it, for up to
// APT_LOCK_WAIT_S seconds (default 600; APT_LOCK_RETRY_S between tries, default 5). Any
// other failure returns at once with a hint.
//   node scripts/apt-get.mjs <apt-get args...>     (as a command: exits with apt-get's status)
//   import { aptGet } from './apt-get.mjs'           (as a module: returns the status)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LOCKED = /Could not get lock|Unable to lock|Unable to acquire the dpkg frontend lock/;

/**
 * Runs `apt-get ...args` (stdout shown as it comes), waiting while another process holds apt's or
 * dpkg's lock. `say` prints one line of ours (prefixed by the caller). Returns apt-get's exit status.
 */
export function aptGet(args, say, env = process.env) {
  const waitS = Number(env.APT_LOCK_WAIT_S ?? 600);
  const retryS = Number(env.APT_LOCK_RETRY_S ?? 5);
  const span = waitS >= 120 ? `${Math.round(waitS / 60)} min` : `${waitS} s`;
  const started = Date.now();
  const full = ['-o', `DPkg::Lock::Timeout=${Math.max(0, Math.round(waitS))}`, ...args];
  let told = false;
  for (;;) {
    const r = spawnSync('apt-get', full, { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8', env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } });
    const err = r.stderr ?? '';
    const status = r.status ?? 1;
    if (status === 0) {
      if (err) process.stderr.write(err);
      return 0;
    }
    const waited = (Date.now() - started) / 1000;
    if (LOCKED.test(err) && waited < waitS) {
      if (!told) {
        const holder = /held by process (\d+ \([^)]*\))/.exec(err)?.[1];
        say(`waiting for the package manager: ${holder ? `process ${holder}` : 'another process'} holds apt's lock (often an update just after boot); trying again every ${retryS} s for up to ${span}`);
        told = true;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, retryS * 1000);
      continue;
    }
    process.stderr.write(err);
    say(
      LOCKED.test(err)
        ? `apt-get ${args.join(' ')} failed: apt's lock was still held after ${Math.round(waited)} s. Wait for the other install to finish (ps -C apt-get,apt,dpkg,unattended-upgr) and run this again.`
        : `apt-get ${args.join(' ')} failed (exit ${status}). Check the lines above; 'apt-get update' often mends a stale package list.`,
    );
    return status;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exit(aptGet(process.argv.slice(2), (line) => process.stderr.write(`[apt-get] ${line}\n`)));
}
