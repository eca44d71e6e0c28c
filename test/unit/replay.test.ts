/**
 * The journal alone rebuilds a run. Two layers:
 *
 * - the machine's own journal (Driver, no store): long random sequences and
 *   scripted runs, replayed to the snapshot the machine returned;
 * - the same runs driven through the Runner into each store (the files under
 *   `.stategate/` and a real PostgreSQL server, one table, run-storage.test.ts's
 *   way): the journal read back through the store interface (readJournal)
 *   has its seq without gaps and replays to the snapshot the store keeps.
 *   The random sequences there are fewer (every step is a committed change, on
 *   PostgreSQL a transaction); the machine-level property above keeps its 300.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { Driver, FIXTURES } from './machine-helpers.js';
import { replay } from '../../src/engine/store/replay.js';
import { Runner, RunnerError } from '../../src/engine/runs/runner.js';
import { StoreError } from '../../src/engine/store/run-store.js';
import { PostgresRunStorage } from '../../src/engine/store/postgres/pg-storage.js';
import type { JournalEntry, RunSnapshot } from '../../src/engine/machine/run.js';
import type { JsonObject, JsonValue } from '../../src/engine/model/index.js';
import { createTestDatabase } from '../support/postgres-server.js';
import { tempDir } from './helpers/temp-dir.js';

type Step =
  | { op: 'send'; event: string; data?: Record<string, number | string> }
  | { op: 'file'; path: string }
  | { op: 'approve' | 'reject' | 'pause' | 'resume' }
  | { op: 'force'; state: string; patch?: Record<string, number> };

const EVENTS = ['FLIP', 'STAY', 'GUARDED', 'ASK', 'CHECKED', 'INTERRUPT:docs', 'FINISH', 'DEBUG', 'SPLIT', 'WORK', 'DONE', 'FAIL', 'FOUND', 'FIXED', 'GIVE_UP', 'BRANCH_DONE:x', 'BRANCH_DONE:y', 'NOPE'];

const data = fc.option(fc.record({ n: fc.integer({ min: 0, max: 6 }), k: fc.constantFrom('a', 'b', 'c') }, { requiredKeys: [] }), { nil: undefined });

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ op: fc.constant('send' as const), event: fc.constantFrom(...EVENTS), data }).map((s) => (s.data === undefined ? { op: s.op, event: s.event } : { op: s.op, event: s.event, data: s.data })) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('file' as const), path: fc.constantFrom('docs/a.md', 'src/x.ts') }) },
  { weight: 2, arbitrary: fc.constantFrom<Step>({ op: 'approve' }, { op: 'reject' }, { op: 'pause' }, { op: 'resume' }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('force' as const), state: fc.constantFrom('a', 'b', 'h'), patch: fc.option(fc.record({ forced: fc.nat(9) }), { nil: undefined }) }).map((s) => (s.patch === undefined ? { op: s.op, state: s.state } : s)) },
);

function apply(d: Driver, s: Step): void {
  switch (s.op) {
    case 'send':
      d.send(s.event, s.data);
      return;
    case 'file':
      d.file(s.path);
      return;
    case 'force':
      d.force(s.state, s.patch);
      return;
    default:
      d[s.op]();
  }
}

test('replay of the journal reproduces state, context, status and transition count after long random sequences', () => {
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 120 }), (steps) => {
      const d = new Driver('toggle.workflow.json');
      for (const s of steps) apply(d, s);
      const r = replay(d.journal);
      assert.equal(r.state, d.run.state);
      assert.deepEqual(r.context, d.run.context);
      assert.equal(r.status, d.run.status);
      assert.equal(r.transitions, d.run.counters.transitions);
    }),
    { numRuns: 300, seed: 20261122 },
  );
});

test('replay: a scripted run through fork, invoke, interrupt and force', () => {
  const d = new Driver('toggle.workflow.json');
  d.go('SPLIT', 'bx', { s: 1 });
  d.go('WORK', 'bx', { x: 1 });
  d.go('DONE', 'bx_done');
  d.go('BRANCH_DONE:x', 'bx');
  d.go('DONE', 'bx_done', { y: 2 });
  d.go('BRANCH_DONE:y', 'b');
  d.go('FLIP', 'a');
  d.go('DEBUG', 'reproducing');
  d.go('FOUND', 'fixing');
  d.go('FIXED', 'b');
  d.file('docs/readme.md');
  d.go('CHECKED', 'b');
  d.force('a', { forced: 1 });
  const r = replay(d.journal);
  assert.deepEqual(r, { state: d.run.state, context: d.run.context, status: d.run.status, transitions: d.run.counters.transitions });
  assert.deepEqual(d.run.context, { n: 0, s: 1, x: 1, y: 2, scope: 'toggle', forced: 1 });
});

test('replay of a run that failed for want of a failed state ends failed', () => {
  const d = new Driver('invoke-parent-nofailed.workflow.json');
  d.go('DEBUG', 'reproducing');
  d.send('GIVE_UP');
  assert.equal(replay(d.journal).status, 'failed');
});

test('replay of pause, resume and stop follows the status', () => {
  const d = new Driver('toggle.workflow.json');
  d.pause();
  assert.equal(replay(d.journal).status, 'paused');
  d.resume();
  assert.equal(replay(d.journal).status, 'running');
  d.stop();
  assert.equal(replay(d.journal).status, 'stopped');
});

test('replay of a run whose initial state is final is completed', () => {
  const d = new Driver('debug-machine.workflow.json');
  d.go('STUCK', 'failed');
  assert.equal(replay(d.journal).status, 'completed');
});

// ---------------------------------------------------------------------------
// The same runs through the Runner, on both stores.

type Owner = { after(fn: () => unknown): unknown };

/** The fixtures these runs use, copied into the workspace (invokes resolve beside the file that names them). */
const WORKFLOWS = ['toggle.workflow.json', 'debug-machine.workflow.json', 'invoke-parent-nofailed.workflow.json'];

interface Kind {
  readonly name: 'file' | 'postgres';
  /** A Runner on a new, empty store, in a workspace holding WORKFLOWS. */
  make(t: Owner): Promise<{ runner: Runner; root: string }>;
}

function workspace(t: Owner): string {
  const root = tempDir('sg-replay-', t);
  for (const f of WORKFLOWS) fs.copyFileSync(path.join(FIXTURES, f), path.join(root, f));
  return root;
}

/** A clock that ticks one second per call, as the machine tests' env does. */
function ticking(): () => string {
  let tick = 0;
  return () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)).toISOString();
}

const KINDS: readonly Kind[] = [
  {
    name: 'file',
    async make(t) {
      const root = workspace(t);
      return { runner: new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root, now: ticking() }), root };
    },
  },
  {
    name: 'postgres',
    async make(t) {
      const root = workspace(t);
      const db = await createTestDatabase(t);
      const runner = new Runner({
        dir: path.join(root, '.stategate'),
        workspaceRoot: root,
        now: ticking(),
        storage: (checkRun, hooks = {}) =>
          new PostgresRunStorage<RunSnapshot>({ url: db.url, project: 'example.com/team/replay', checkRun, client: 'test', timeoutMs: 10_000, ...(hooks.afterCommit ? { afterCommit: hooks.afterCommit } : {}) }),
      });
      t.after(() => runner.store.close());
      return { runner, root };
    },
  },
];

/** One step through the Runner. A refused step (no active run, not paused) changes nothing, as in the machine. */
async function applyThrough(runner: Runner, root: string, s: Step): Promise<void> {
  try {
    switch (s.op) {
      case 'send':
        await runner.send(s.event, s.data);
        return;
      case 'file':
        await runner.fileChanged(path.join(root, s.path));
        return;
      case 'force':
        await runner.force(s.state, s.patch);
        return;
      case 'resume': {
        // Runner.resume starts the workflow afresh when nothing is paused: only a paused run is resumed here.
        const active = await runner.active();
        if (active.kind === 'ok' && active.run.status === 'paused') await runner.resume(path.join(root, 'toggle.workflow.json'));
        return;
      }
      default:
        await runner[s.op]();
    }
  } catch (err) {
    if (err instanceof RunnerError || err instanceof StoreError) return;
    throw err;
  }
}

/** The stored run's journal (through the store interface) replays to its stored snapshot; seq has no gaps. */
async function assertReplays(runner: Runner, runId: string): Promise<RunSnapshot> {
  const journal = await runner.store.readJournal(runId);
  assert.deepEqual(journal.map((e) => e.seq), journal.map((_, i) => i + 1), 'journal seq without gaps');
  const stored = await runner.store.readRun(runId);
  const r = replay(journal as unknown as JournalEntry[]);
  assert.deepEqual(r, { state: stored.state, context: stored.context, status: stored.status, transitions: stored.counters.transitions });
  return stored;
}

async function go(runner: Runner, event: string, expected: string, data?: JsonValue): Promise<void> {
  const o = await runner.send(event, data);
  assert.equal(o.error, undefined, `${event}: ${o.error?.message}`);
  assert.equal(o.to, expected, `${event} leads to ${expected}`);
}

for (const kind of KINDS) {
  const name = (what: string) => `${kind.name} store: ${what}`;

  test(name('the stored journal replays to the stored snapshot after long random sequences through the Runner'), { timeout: 300_000 }, async (t) => {
    const { runner, root } = await kind.make(t);
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 120, size: 'max' }), async (steps) => {
        const { run } = await runner.start(path.join(root, 'toggle.workflow.json'), undefined, undefined, { replace: true });
        for (const s of steps) await applyThrough(runner, root, s);
        await assertReplays(runner, run.runId);
      }),
      { numRuns: 25, seed: 20261122 },
    );
  });

  test(name('a scripted run through fork, invoke, interrupt and force replays to the stored snapshot'), async (t) => {
    const { runner, root } = await kind.make(t);
    const { run } = await runner.start(path.join(root, 'toggle.workflow.json'));
    await go(runner, 'SPLIT', 'bx', { s: 1 });
    await go(runner, 'WORK', 'bx', { x: 1 });
    await go(runner, 'DONE', 'bx_done');
    await go(runner, 'BRANCH_DONE:x', 'bx');
    await go(runner, 'DONE', 'bx_done', { y: 2 });
    await go(runner, 'BRANCH_DONE:y', 'b');
    await go(runner, 'FLIP', 'a');
    await go(runner, 'DEBUG', 'reproducing');
    await go(runner, 'FOUND', 'fixing');
    await go(runner, 'FIXED', 'b');
    await runner.fileChanged(path.join(root, 'docs', 'readme.md'));
    await go(runner, 'CHECKED', 'b');
    await runner.force('a', { forced: 1 });
    const stored = await assertReplays(runner, run.runId);
    assert.deepEqual(stored.context, { n: 0, s: 1, x: 1, y: 2, scope: 'toggle', forced: 1 } satisfies JsonObject);
  });

  test(name('a run that failed for want of a failed state replays to failed'), async (t) => {
    const { runner, root } = await kind.make(t);
    const { run } = await runner.start(path.join(root, 'invoke-parent-nofailed.workflow.json'));
    await go(runner, 'DEBUG', 'reproducing');
    await runner.send('GIVE_UP');
    assert.equal((await assertReplays(runner, run.runId)).status, 'failed');
  });

  test(name('pause, resume and stop: the stored journal follows the status'), async (t) => {
    const { runner, root } = await kind.make(t);
    const file = path.join(root, 'toggle.workflow.json');
    const { run } = await runner.start(file);
    await runner.pause();
    assert.equal((await assertReplays(runner, run.runId)).status, 'paused');
    const resumed = await runner.resume(file);
    assert.equal(resumed.resumed && resumed.run.runId, run.runId, 'the paused run is resumed, not a new one');
    assert.equal((await assertReplays(runner, run.runId)).status, 'running');
    await runner.stop();
    assert.equal((await assertReplays(runner, run.runId)).status, 'stopped');
  });

  test(name('a run that reaches a final state replays to completed'), async (t) => {
    const { runner, root } = await kind.make(t);
    const { run } = await runner.start(path.join(root, 'debug-machine.workflow.json'));
    await go(runner, 'STUCK', 'failed');
    assert.equal((await assertReplays(runner, run.runId)).status, 'completed');
  });
}
