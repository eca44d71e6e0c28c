/**
 * The suite's PostgreSQL launcher (scripts/with-postgres.mjs): a server given
 * from outside is used as it is (nothing started), a server left by a killed run
 * is stopped and removed by the next start, and a server started for a command
 * is gone when the command ends.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { alive, eventually } from './helpers/processes';

const LAUNCHER = path.resolve(__dirname, '..', '..', 'scripts', 'with-postgres.mjs');

function serverFolders(): string[] {
  return fs.readdirSync(os.tmpdir()).filter((n) => /^stategate-pg-(?!bin-)/.test(n));
}

/** Poll until `check` holds (a bound, not a timing assertion). */
async function until(what: string, check: () => boolean): Promise<void> {
  if (!(await eventually(check, 3000))) throw new Error(`gave up waiting for ${what}`);
}

test('a server given in STATEGATE_TEST_PG_URL is passed on as it is and nothing is started', () => {
  const before = serverFolders();
  const given = 'postgres://someone:secret@127.0.0.1:1/elsewhere';
  const r = spawnSync(process.execPath, [LAUNCHER, '--', process.execPath, '-e', 'process.stdout.write(process.env.STATEGATE_TEST_PG_URL); process.exit(7)'], {
    env: { ...process.env, STATEGATE_TEST_PG_URL: given },
    encoding: 'utf8',
  });
  assert.equal(r.stdout, given);
  assert.equal(r.status, 7, 'the command exit code is passed on');
  assert.doesNotMatch(r.stderr, /PostgreSQL on/);
  assert.deepEqual(serverFolders().filter((f) => !before.includes(f)), []);
});

test('a run killed with its server up leaves it running; the next start stops it by postmaster.pid and removes its folder', async (t) => {
  const env = { ...process.env };
  delete env.STATEGATE_TEST_PG_URL;
  const launcher = spawn(process.execPath, [LAUNCHER, '--', process.execPath, '-e', 'process.stdout.write(process.env.STATEGATE_TEST_PG_URL + "\\n"); const p = process.ppid; setInterval(() => { try { process.kill(p, 0) } catch { process.exit() } }, 100)'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => launcher.kill('SIGKILL'));
  let out = '';
  launcher.stdout.on('data', (d) => (out += d));
  await until('the server to be up', () => out.includes('\n'));
  const folder = serverFolders().find((f) => fs.readFileSync(path.join(os.tmpdir(), f, 'owner.pid'), 'utf8').trim() === String(launcher.pid));
  assert.ok(folder, 'the server folder names its owner');
  const dir = path.join(os.tmpdir(), folder);
  const postmaster = Number.parseInt(fs.readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]!, 10);
  assert.ok(alive(postmaster));
  // kill -9 the launcher: no clean-up runs, the server stays up (its command ends itself once the launcher is gone).
  launcher.kill('SIGKILL');
  launcher.stdout.destroy();
  launcher.stderr.destroy();
  await until('the launcher to die', () => launcher.exitCode !== null || launcher.signalCode !== null);
  assert.ok(alive(postmaster), 'the server outlives a killed launcher');
  const { reapStaleServers } = (await import(pathToFileURL(LAUNCHER).href)) as { reapStaleServers(): Promise<void> };
  await reapStaleServers();
  assert.ok(!alive(postmaster), 'the stale server was stopped');
  assert.ok(!fs.existsSync(dir), 'its folder (data and password file) was removed');
});

test('a server started for a command is stopped and removed when the command ends', () => {
  const env = { ...process.env };
  delete env.STATEGATE_TEST_PG_URL;
  const r = spawnSync(process.execPath, [LAUNCHER, '--', process.execPath, '-e', 'const fs=require("fs");process.stdout.write(JSON.stringify(fs.readdirSync(require("os").tmpdir()).filter(n=>/^stategate-pg-(?!bin-)/.test(n))))'], { env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const during = JSON.parse(r.stdout) as string[];
  assert.ok(during.length >= 1);
  const after = serverFolders();
  const own = during.filter((f) => !after.includes(f));
  assert.ok(own.length >= 1, 'the command’s server folder is gone afterwards');
});

test('a stage of binaries whose checkout is gone (its links dangle) is removed; a live one is kept', async () => {
  const gone = path.join(os.tmpdir(), `stategate-pg-bin-0.0.0-test-${process.pid}-gone`);
  const live = path.join(os.tmpdir(), `stategate-pg-bin-0.0.0-test-${process.pid}-live`);
  for (const [dir, target] of [[gone, path.join(os.tmpdir(), `no-such-checkout-${process.pid}`)], [live, __dirname]] as const) {
    fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    fs.symlinkSync(target, path.join(dir, 'node_modules', 'pg'));
  }
  try {
    const { reapStaleServers } = (await import(pathToFileURL(LAUNCHER).href)) as { reapStaleServers(): Promise<void> };
    await reapStaleServers();
    assert.ok(!fs.existsSync(gone), 'the dangling stage was removed');
    assert.ok(fs.existsSync(live), 'a stage whose checkout exists is kept');
  } finally {
    fs.rmSync(gone, { recursive: true, force: true });
    fs.rmSync(live, { recursive: true, force: true });
  }
});
