/**
 * The store interface's promises (run-storage.ts), one table of tests run
 * against both stores: the files under `.stategate/` and a real PostgreSQL
 * server (test/support/postgres-server.ts starts one when the suite has none,
 * or STATEGATE_TEST_PG_URL names one). Each PostgreSQL case gets a database of
 * its own. A case is skipped only when no server can be had, and says so
 * loudly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { FileRunStorage } from '../../src/engine/store/file-storage';
import { StoreError } from '../../src/engine/store/run-store';
import type { RunStorage } from '../../src/engine/store/run-storage';
import { PostgresRunStorage } from '../../src/engine/store/postgres/pg-storage';
import { FileLock } from '../../src/engine/util/lock';
import postgres from 'postgres';
import { createTestDatabase } from '../support/postgres-server';
import { tempDir } from './helpers/temp-dir';

interface Snap {
  readonly runId: string;
  readonly n: number;
  readonly status: string;
}

const checkRun = (v: unknown): string | undefined => (v && typeof (v as Snap).n === 'number' ? undefined : 'no counter');

type Owner = { after(fn: () => unknown): unknown };

interface Kind {
  readonly name: 'file' | 'postgres';
  /**
   * A new, empty store; `open` gives another handle on the same one (another
   * process, another machine); `impatient` one that waits for a held run only
   * briefly; `hold` holds the run's lock as a writer stuck mid-decision would
   * (the file lock; the run's row, FOR UPDATE in an open transaction) until
   * the returned function releases it.
   */
  make(t: Owner): Promise<{ store: RunStorage<Snap>; open: () => RunStorage<Snap>; impatient: () => RunStorage<Snap>; hold: () => Promise<() => Promise<void>> }>;
}

const KINDS: readonly Kind[] = [
  {
    name: 'file',
    async make(t) {
      const dir = path.join(tempDir('sg-storage-', t), '.stategate');
      const open = () => new FileRunStorage<Snap>(dir, { checkRun, lockTimeoutMs: 5000 });
      const impatient = () => new FileRunStorage<Snap>(dir, { checkRun, lockTimeoutMs: 50 });
      const hold = async () => {
        const lock = new FileLock(path.join(dir, 'lock'));
        lock.acquire({ timeoutMs: 100 });
        return async () => lock.release();
      };
      return { store: open(), open, impatient, hold };
    },
  },
  {
    name: 'postgres',
    async make(t) {
      const db = await createTestDatabase(t);
      const handles: RunStorage<Snap>[] = [];
      const handle = (url: string) => {
        const s = new PostgresRunStorage<Snap>({ url, project: 'example.com/team/repo', checkRun, client: 'test', timeoutMs: 10_000 });
        handles.push(s);
        return s;
      };
      const open = () => handle(db.url);
      const impatient = () => {
        const u = new URL(db.url);
        u.searchParams.set('lock_timeout', '300');
        return handle(u.toString());
      };
      const hold = async () => {
        const holder = postgres(db.url, { max: 1, onnotice: () => {} });
        const session = await holder.reserve();
        await session`BEGIN`;
        const held = await session`SELECT 1 FROM stategate_runs FOR UPDATE`;
        assert.ok(held.length > 0, 'a run row to hold');
        let released = false;
        const release = async () => {
          if (released) return;
          released = true;
          await session`ROLLBACK`;
          session.release();
          await holder.end({ timeout: 5 });
        };
        t.after(release);
        return release;
      };
      t.after(() => Promise.all(handles.map((h) => h.close())));
      return { store: open(), open, impatient, hold };
    },
  },
];

const bump = (store: RunStorage<Snap>, key?: string): Promise<number> =>
  store.updateActive((run) => ({ run: { ...run, n: run.n + 1 }, journal: [{ type: 'bump', to: run.n + 1 }], result: run.n + 1 }), key ? { key } : {});

const snap = (runId: string, n = 0): Snap => ({ runId, n, status: 'running' });

for (const kind of KINDS) {
  const name = (what: string) => `${kind.name} store: ${what}`;

  test(name('no run: readActive says none, a change says no_active_run'), async (t) => {
    const { store } = await kind.make(t);
    assert.equal((await store.readActive()).kind, 'none');
    await assert.rejects(bump(store), (e: unknown) => e instanceof StoreError && e.code === 'no_active_run');
  });

  test(name('create makes the run active and journals its first entries'), async (t) => {
    const { store } = await kind.make(t);
    await store.create(snap('r1'), [{ type: 'start' }]);
    assert.deepEqual(await store.readActive(), { kind: 'ok', runId: 'r1', run: snap('r1') });
    assert.deepEqual(await store.readJournal('r1'), [{ seq: 1, type: 'start' }]);
  });

  test(name('updateActive commits the snapshot and appends numbered journal entries; readJournal reads from a seq'), async (t) => {
    const { store, open } = await kind.make(t);
    await store.create(snap('r1'), [{ type: 'start' }]);
    assert.equal(await bump(store), 1);
    assert.equal(await bump(store), 2);
    assert.deepEqual((await store.readJournal('r1')).map((e) => e.seq), [1, 2, 3]);
    assert.deepEqual(await store.readJournal('r1', 2), [{ seq: 3, type: 'bump', to: 2 }]);
    const again = await open().readActive();
    assert.equal(again.kind === 'ok' && again.run.n, 2, 'another handle reads the committed snapshot');
  });

  test(name('an idempotency key committed once returns the first answer and commits nothing'), async (t) => {
    const { store, open } = await kind.make(t);
    await store.create(snap('r1'), [{ type: 'start' }]);
    assert.equal(await bump(store, 'toolu_1'), 1);
    let called = 0;
    const again = await open().updateActive(
      (run) => {
        called++;
        return { run: { ...run, n: run.n + 100 }, journal: [{ type: 'bump', to: run.n + 100 }], result: run.n + 100 };
      },
      { key: 'toolu_1' },
    );
    assert.equal(again, 1, 'the first answer');
    assert.equal(called, 0, 'the change is not computed again');
    assert.deepEqual((await store.readJournal('r1')).map((e) => e.type), ['start', 'bump'], 'one journal row for the key');
    assert.equal(await bump(store, 'toolu_2'), 2, 'another key is another change');
    const active = await store.readActive();
    assert.equal(active.kind === 'ok' && active.run.n, 2);
  });

  test(name('a change that journals nothing and changes nothing keeps no key; one that only changes the run keeps it'), async (t) => {
    const { store } = await kind.make(t);
    await store.create(snap('r1'), []);
    const look = (answer: string) => store.updateActive((run) => ({ run, journal: [], result: answer }), { key: 'k' });
    assert.equal(await look('first'), 'first');
    assert.equal(await look('second'), 'second');
    // A change that journals nothing but changes the run (an allowed call's counter) keeps its key.
    const count = () => store.updateActive((run) => ({ run: { ...run, n: run.n + 1 }, journal: [], result: run.n + 1 }), { key: 'counted' });
    assert.equal(await count(), 1);
    assert.equal(await count(), 1, 'the first answer');
    const active = await store.readActive();
    assert.equal(active.kind === 'ok' && active.run.n, 1, 'counted once');
  });

  test(name('decisions from several handles at once: each counted once, seq without gaps, replays to the snapshot'), async (t) => {
    const { store, open } = await kind.make(t);
    await store.create(snap('r1'), [{ type: 'start' }]);
    const handles = [store, open(), open(), open()];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => bump(handles[i % handles.length]!)));
    assert.deepEqual([...results].sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i + 1), 'every answer once');
    const journal = await store.readJournal('r1');
    assert.deepEqual(journal.map((e) => e.seq), Array.from({ length: 41 }, (_, i) => i + 1));
    const replayed = journal.filter((e) => e.type === 'bump').reduce((n) => n + 1, 0);
    const active = await store.readActive();
    assert.equal(active.kind === 'ok' && active.run.n, replayed);
  });

  test(name('a writer that finds the run held past its wait gives up with busy and commits nothing; once released it goes on'), async (t) => {
    const { store, impatient, hold } = await kind.make(t);
    await store.create(snap('r1'), [{ type: 'start' }]);
    const release = await hold();
    try {
      await assert.rejects(bump(impatient()), (e: unknown) => e instanceof StoreError && e.code === 'busy' && /busy|held/.test(e.message));
    } finally {
      await release();
    }
    assert.deepEqual((await store.readJournal('r1')).map((e) => e.seq), [1], 'the busy attempt journaled nothing');
    assert.equal(await bump(impatient()), 1, 'counted once, from the snapshot as it was');
  });

  test(name('listRuns returns the runs oldest first; update changes a run that is not active'), async (t) => {
    const { store } = await kind.make(t);
    await store.create(snap('20260101T000000Z-a'), []);
    await store.create(snap('20260102T000000Z-b'), []);
    assert.deepEqual((await store.listRuns()).map((r) => r.runId), ['20260101T000000Z-a', '20260102T000000Z-b']);
    await store.update('20260101T000000Z-a', (r) => ({ run: { ...r, n: 7 }, journal: [{ type: 'set' }], result: null }));
    assert.equal((await store.readRun('20260101T000000Z-a')).n, 7);
    const active = await store.readActive();
    assert.equal(active.kind === 'ok' && active.runId, '20260102T000000Z-b', 'update does not change which run is active');
    await assert.rejects(store.readRun('nope'), (e: unknown) => e instanceof StoreError && e.code === 'unknown_run');
  });

  test(name('activate makes another run active in the same step; deactivate leaves no active run and keeps the run'), async (t) => {
    const { store } = await kind.make(t);
    await store.create(snap('20260101T000000Z-a'), []);
    await store.create(snap('20260102T000000Z-b'), []);
    await store.activate('20260101T000000Z-a', (r) => ({ run: { ...r, n: 1 }, journal: [{ type: 'resume' }], result: null }));
    const active = await store.readActive();
    assert.equal(active.kind === 'ok' && active.runId, '20260101T000000Z-a');
    await store.deactivate();
    assert.equal((await store.readActive()).kind, 'none');
    assert.equal((await store.readRun('20260101T000000Z-a')).n, 1);
  });

  test(name('watch tells a listener about a change made through another handle'), async (t) => {
    const { store, open } = await kind.make(t);
    await store.create(snap('r1'), []);
    const seen = new Promise<void>((resolve) => {
      const sub = store.watch((e) => {
        if (e.runId === 'r1') {
          sub.dispose();
          resolve();
        }
      });
      t.after(() => sub.dispose());
    });
    // Give LISTEN a moment to be in place before the change (a listener misses what came before it).
    await new Promise((r) => setTimeout(r, 700));
    await bump(open());
    await seen;
  });
}
