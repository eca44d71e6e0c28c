// Makes sure bubblewrap (bwrap) is installed for the sandbox tests
// (test/unit/sandbox*.test.ts, which FAIL under CI=true without it): run by
// `pretest:unit`, so the README's `npm ci && npm test` on a fresh Debian or
// Ubuntu machine as root installs it. Idempotent: with bwrap in place (or not
// on Linux) it does nothing; without root or apt-get it says what to install
// and leaves the decision to the tests.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { aptGet } from './apt-get.mjs';

const PATHS = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];
const say = (text) => process.stderr.write(`[ensure-bubblewrap] ${text}\n`);

if (process.platform !== 'linux' || PATHS.some((p) => existsSync(p))) process.exit(0);
const root = typeof process.getuid === 'function' && process.getuid() === 0;
const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
if (!root || !apt) {
  say(`bubblewrap is missing and cannot be installed here (${root ? 'no apt-get' : 'not root'}): install the bubblewrap package; the sandbox tests skip without it (and fail under CI=true).`);
  process.exit(0);
}
say('installing bubblewrap (apt-get install bubblewrap)');
for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'bubblewrap']]) {
  if (aptGet(args, say) !== 0) {
    say('bubblewrap was not installed; the sandbox tests will say why they cannot run.');
    process.exit(0);
  }
}
