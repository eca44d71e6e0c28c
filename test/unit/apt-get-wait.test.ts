/**
 * scripts/apt-get.mjs, the apt-get that `npm start`'s and `npm test`'s setup use (ensure-bubblewrap.mjs,
 * test/e2e/setup.sh): it waits while another process holds apt's lock (a machine just booted) and
 * fails with a hint otherwise. A fake apt-get on PATH answers from a script of outcomes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { tempDir } from './helpers/temp-dir';

const SCRIPT = path.resolve(__dirname, '..', '..', 'scripts', 'apt-get.mjs');
const LOCK_MESSAGE = 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)';

/** A fake apt-get that fails with `outcomes[i]` on its i-th call ('lock', 'broken') and succeeds after them. */
function fakeApt(outcomes: readonly string[]): { dir: string; calls: () => string[] } {
  const dir = tempDir('sg-apt-');
  const log = path.join(dir, 'calls');
  const script = `#!/bin/sh
echo "$*" >> ${JSON.stringify(log)}
n=$(wc -l < ${JSON.stringify(log)})
case "$n" in
${outcomes.map((o, i) => `  ${i + 1}) ${o === 'lock' ? `echo ${JSON.stringify(LOCK_MESSAGE)} >&2; exit 100` : 'echo "E: Unable to locate package nosuch" >&2; exit 100'};;`).join('\n')}
esac
echo installed
`;
  fs.writeFileSync(path.join(dir, 'apt-get'), script, { mode: 0o755 });
  return { dir, calls: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []) };
}

function run(fake: { dir: string }, waitS: string) {
  return spawnSync(process.execPath, [SCRIPT, 'install', '-y', 'bubblewrap'], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${fake.dir}:${process.env.PATH}`, APT_LOCK_WAIT_S: waitS, APT_LOCK_RETRY_S: '0.05' },
  });
}

const cases = [
  { name: 'a lock held for two tries: waits, says who holds it once, then installs', outcomes: ['lock', 'lock'], waitS: '30', status: 0, calls: 3, says: /waiting for the package manager: process 4242 \(unattended-upgr\)/ },
  { name: 'a lock still held when the wait is over: fails with a hint naming what to do', outcomes: ['lock', 'lock', 'lock', 'lock', 'lock', 'lock', 'lock', 'lock'], waitS: '0.12', status: 100, says: /still held after .* run this again/ },
  { name: 'another failure: no waiting, apt\'s error and a hint', outcomes: ['broken'], waitS: '30', status: 100, calls: 1, says: /Unable to locate package nosuch[\s\S]*failed \(exit 100\)/ },
  { name: 'no failure: one call, apt-get sees the lock timeout option and the arguments', outcomes: [], waitS: '30', status: 0, calls: 1, says: /^$/ },
];

for (const c of cases) {
  test(c.name, () => {
    const fake = fakeApt(c.outcomes);
    const r = run(fake, c.waitS);
    assert.equal(r.status, c.status, r.stderr);
    assert.match(r.stderr.replace(/\n$/, ''), c.says);
    if (c.calls !== undefined) assert.equal(fake.calls().length, c.calls);
    assert.match(fake.calls()[0]!, /^-o DPkg::Lock::Timeout=\d+ install -y bubblewrap$/);
    if (c.status === 0 && c.outcomes.length) assert.equal(r.stderr.match(/waiting for the package manager/g)?.length, 1);
    fs.rmSync(fake.dir, { recursive: true, force: true });
  });
}
