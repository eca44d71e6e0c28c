/**
 * The store's lock under the ways a holder can go away: dead, killed between
 * creating the file and writing its holder, or dead with its pid reused by
 * another (live) process. A live holder's lock is never broken; anything else
 * is broken by the next writer, so no lock stays stuck.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LockBusyError, processStart, withFileLock } from '../../src/engine/util/lock';
import { tempDir } from './helpers/temp-dir';

function lockDir(): string {
  const dir = tempDir('sg-lock-');
  return dir;
}

function writeLock(file: string, holder: Record<string, unknown>): void {
  fs.writeFileSync(file, JSON.stringify({ host: os.hostname(), token: 'someone-else', since: Date.now(), ...holder }));
}

async function liveProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
  await new Promise((r) => child.once('spawn', r));
  return child;
}

const took = (file: string) => withFileLock(file, { timeoutMs: 300 }, () => 'mine');

test('a lock whose holder has exited is broken by the next writer', () => {
  const file = path.join(lockDir(), 'lock');
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  writeLock(file, { pid: Number(dead.stdout) });
  assert.equal(took(file), 'mine');
  assert.equal(fs.existsSync(file), false, 'released after use');
});

test('a lock held by a live process is never broken: the writer gets a typed busy error in its budget', async () => {
  const file = path.join(lockDir(), 'lock');
  const holder = await liveProcess();
  try {
    const start = processStart(holder.pid!);
    writeLock(file, { pid: holder.pid, ...(start ? { start } : {}) });
    const t0 = Date.now();
    assert.throws(() => took(file), (err: unknown) => err instanceof LockBusyError && /busy/.test(err.message));
    assert.ok(Date.now() - t0 < 5000, 'bounded wait');
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).token, 'someone-else', 'the live holder keeps its lock');
  } finally {
    holder.kill('SIGKILL');
  }
});

test('a lock written before start times were recorded (pid only) and held by a live process is not broken', async () => {
  const file = path.join(lockDir(), 'lock');
  const holder = await liveProcess();
  try {
    writeLock(file, { pid: holder.pid });
    assert.throws(() => took(file), LockBusyError);
  } finally {
    holder.kill('SIGKILL');
  }
});

test('a dead holder whose pid now belongs to another live process (pid reuse) does not keep the lock forever', { skip: processStart(process.pid) === undefined ? 'no /proc here' : false }, async () => {
  const file = path.join(lockDir(), 'lock');
  const other = await liveProcess();
  try {
    const otherStart = processStart(other.pid!);
    assert.ok(otherStart);
    // The lock names `other`'s pid, but with the start time of an earlier process
    // that had that pid: exactly what a killed holder leaves once its pid is reused.
    writeLock(file, { pid: other.pid, start: String(Number(otherStart) - 12345), since: Date.now() - 60_000 });
    assert.equal(took(file), 'mine');
    assert.equal(fs.existsSync(file), false);
  } finally {
    other.kill('SIGKILL');
  }
});

test('a lock file left empty (its creator killed before writing the holder) is broken once it is old, not while fresh', () => {
  const file = path.join(lockDir(), 'lock');
  fs.writeFileSync(file, '');
  assert.throws(() => took(file), LockBusyError, 'a fresh empty lock may be a creator about to write: wait');
  const old = new Date(Date.now() - 10_000);
  fs.utimesSync(file, old, old);
  assert.equal(took(file), 'mine');
});

test('a breaker file left by a killed breaker does not stop the next writer', () => {
  const dir = lockDir();
  const file = path.join(dir, 'lock');
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  writeLock(file, { pid: Number(dead.stdout) });
  writeLock(`${file}.break`, { pid: Number(dead.stdout) });
  assert.equal(took(file), 'mine');
  assert.equal(fs.existsSync(`${file}.break`), false);
});
