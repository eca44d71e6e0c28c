import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Driver } from './machine-helpers.js';
import { replay } from '../../src/engine/store/replay.js';

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
