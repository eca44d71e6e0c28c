/**
 * The file store's own layer (RunStore, synchronous, the files under
 * `.stategate/`). Which of these run against both stores, and where:
 *
 * - The store interface's semantics (readActive with no run, create and its
 *   first journal entries, updateActive's numbered journal, no_active_run,
 *   listRuns oldest first, a busy writer that commits nothing) are the table in
 *   run-storage.test.ts, run for the file store (FileRunStorage over this
 *   RunStore) and the PostgreSQL store. The cases below that say the same stay
 *   here because they drive RunStore directly, the synchronous layer the file
 *   store is built on; they are not repeated for PostgreSQL here.
 * - File-only, because they are about the file layout and have no
 *   PostgreSQL equivalent: a torn journal line (a row is written in the same
 *   transaction as its snapshot, never half), run.json corrupt in its ways (the
 *   PostgreSQL counterpart, a snapshot row that fails the shape check, is in
 *   store-pg-machines.test.ts through `stategate hook`), an `active` file naming
 *   a path outside runs/ (PostgreSQL keeps the active run as a foreign key),
 *   and the lock file's own rules (a dead holder's lock broken, release never
 *   removing another holder's lock: PostgreSQL's row locks end with their
 *   session). The busy writer below is kept as the lock file's case; its
 *   interface counterpart for both stores is in run-storage.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { RunStore, StoreError } from '../../src/engine/store/run-store';
import { FileLock } from '../../src/engine/util/lock';
import { tempDir } from './helpers/temp-dir';

interface Snap {
  readonly runId: string;
  readonly n: number;
}

function tempStore(lockTimeoutMs = 2000): RunStore<Snap> {
  const dir = tempDir('sg-store-');
  return new RunStore<Snap>(path.join(dir, '.stategate'), {
    lockTimeoutMs,
    checkRun: (v) => (v && typeof (v as Snap).n === 'number' ? undefined : 'no counter'),
  });
}

function bump(store: RunStore<Snap>): number {
  return store.updateActive((run) => ({ run: { ...run, n: run.n + 1 }, journal: [{ type: 'bump', to: run.n + 1 }], result: run.n + 1 }));
}

test('readActive says none when there is no .stategate directory', () => {
  const store = tempStore();
  assert.equal(store.readActive().kind, 'none');
});

test('create makes the run active and journals its first entries', () => {
  const store = tempStore();
  store.create({ runId: 'r1', n: 0 }, [{ type: 'start' }]);
  const active = store.readActive();
  assert.deepEqual(active, { kind: 'ok', runId: 'r1', run: { runId: 'r1', n: 0 } });
  assert.deepEqual(store.readJournal('r1'), [{ seq: 1, type: 'start' }]);
});

test('updateActive commits the snapshot and appends numbered journal entries', () => {
  const store = tempStore();
  store.create({ runId: 'r1', n: 0 }, [{ type: 'start' }]);
  assert.equal(bump(store), 1);
  assert.equal(bump(store), 2);
  assert.deepEqual(
    store.readJournal('r1').map((e) => e.seq),
    [1, 2, 3],
  );
  const active = store.readActive();
  assert.equal(active.kind === 'ok' && active.run.n, 2);
});

test('updateActive without an active run throws no_active_run', () => {
  const store = tempStore();
  fs.mkdirSync(store.dir, { recursive: true });
  assert.throws(() => bump(store), (e: unknown) => e instanceof StoreError && e.code === 'no_active_run');
});

test('a torn journal line is cut and the committed entries are rolled forward', () => {
  const store = tempStore();
  store.create({ runId: 'r1', n: 0 }, [{ type: 'start' }]);
  bump(store);
  // Simulate a writer killed after the run.json rename, mid-way through its journal append.
  const file = store.journalFile('r1');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  fs.writeFileSync(file, `${lines[0]}\n{"seq":2,"ty`);
  bump(store);
  const seqs = store.readJournal('r1').map((e) => e.seq);
  assert.deepEqual(seqs, [1, 2, 3]);
  assert.equal(store.readJournal('r1')[1]!.type, 'bump');
});

const unreadable: Array<[string, (file: string) => void, RegExp]> = [
  ['missing run.json', (f) => fs.unlinkSync(f), /has no/],
  ['empty run.json', (f) => fs.writeFileSync(f, ''), /not valid JSON/],
  ['truncated run.json', (f) => fs.writeFileSync(f, fs.readFileSync(f, 'utf8').slice(0, 20)), /not valid JSON/],
  ['unknown version', (f) => fs.writeFileSync(f, JSON.stringify({ ...JSON.parse(fs.readFileSync(f, 'utf8')), version: 99 })), /version 99 is not supported/],
  ['not a run', (f) => fs.writeFileSync(f, '[1,2]'), /not a stategate run file/],
  ['bad snapshot', (f) => fs.writeFileSync(f, JSON.stringify({ ...JSON.parse(fs.readFileSync(f, 'utf8')), run: { runId: 'r1' } })), /no counter/],
];
for (const [name, corrupt, message] of unreadable) {
  test(`an active run with ${name} reads as unreadable with a way to recover`, () => {
    const store = tempStore();
    store.create({ runId: 'r1', n: 0 }, []);
    corrupt(store.runFile('r1'));
    const active = store.readActive();
    assert.equal(active.kind, 'unreadable');
    assert.match(active.kind === 'unreadable' ? active.reason : '', message);
    assert.match(active.kind === 'unreadable' ? active.reason : '', /stategate run stop/);
  });
}

test('an active file naming a path outside runs/ is refused', () => {
  const store = tempStore();
  store.create({ runId: 'r1', n: 0 }, []);
  fs.writeFileSync(store.activeFile, '../../etc\n');
  assert.equal(store.readActive().kind, 'unreadable');
});

test('a lock held by a live process makes writers give up with busy', () => {
  const store = tempStore(50);
  store.create({ runId: 'r1', n: 0 }, []);
  const held = new FileLock(store.lockFile);
  held.acquire({ timeoutMs: 100 });
  try {
    assert.throws(() => bump(store), (e: unknown) => e instanceof StoreError && e.code === 'busy' && /busy/.test(e.message));
  } finally {
    held.release();
  }
  assert.equal(bump(store), 1);
});

test('a lock left by a dead process is broken', () => {
  const store = tempStore(200);
  store.create({ runId: 'r1', n: 0 }, []);
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  fs.writeFileSync(store.lockFile, JSON.stringify({ pid: dead, host: os.hostname(), token: 'x', since: 0 }));
  assert.equal(bump(store), 1);
  assert.equal(fs.existsSync(store.lockFile), false);
});

test('release never removes a lock someone else holds', () => {
  const store = tempStore();
  fs.mkdirSync(store.dir, { recursive: true });
  const a = new FileLock(store.lockFile);
  a.acquire({ timeoutMs: 10 });
  fs.writeFileSync(store.lockFile, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'other', since: 0 }));
  a.release();
  assert.equal(fs.existsSync(store.lockFile), true);
});

test('listRuns returns readable runs oldest first', () => {
  const store = tempStore();
  store.create({ runId: '20260101T000000Z-aaaaaa', n: 0 }, []);
  store.create({ runId: '20260102T000000Z-bbbbbb', n: 5 }, []);
  assert.deepEqual(
    store.listRuns().map((r) => r.n),
    [0, 5],
  );
});
