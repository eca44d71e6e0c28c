/**
 * The journal's roll-forward (RunStore.repairJournal) with lines of every
 * size: a change whose journal line is longer than the 64 KB the repair used
 * to read, a torn line longer than that, a torn line after multi-byte text.
 * Every case: the journal stays gapless with each change exactly once, and
 * replays to run.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RunStore } from '../../src/engine/store/run-store';
import { replay } from '../../src/engine/store/replay';
import { cli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

interface Snap {
  readonly runId: string;
  readonly n: number;
}

function store(): RunStore<Snap> {
  const dir = tempDir('sg-journal-');
  return new RunStore<Snap>(path.join(dir, '.stategate'), { checkRun: (v) => (v && typeof v === 'object' ? undefined : 'not a run') });
}

function journalLines(s: RunStore<Snap>, runId: string): string[] {
  const text = fs.readFileSync(s.journalFile(runId), 'utf8');
  assert.ok(text.endsWith('\n'), 'the journal ends with a newline');
  return text.slice(0, -1).split('\n');
}

function assertExactlyOnce(s: RunStore<Snap>, runId: string, changes: number): void {
  const entries = journalLines(s, runId).map((l) => JSON.parse(l) as { seq: number; n: number });
  assert.deepEqual(
    entries.map((e) => e.seq),
    entries.map((_, i) => i + 1),
    'gapless seq',
  );
  assert.deepEqual(
    entries.map((e) => e.n),
    Array.from({ length: changes }, (_, i) => i),
    'each change once, in order',
  );
}

function change(s: RunStore<Snap>, payload: string): void {
  s.updateActive((r) => ({ run: { ...r, n: r.n + 1 }, journal: [{ n: r.n + 1, payload }], result: undefined }));
}

test('a journal line longer than 64 KB is not appended again by the next writer', () => {
  const s = store();
  s.create({ runId: 'r1', n: 0 }, [{ n: 0 }]);
  change(s, 'x'.repeat(70_000));
  change(s, 'small');
  change(s, 'é'.repeat(200_000));
  change(s, 'small again');
  assertExactlyOnce(s, 'r1', 5);
});

for (const tornBytes of [1, 2, 3, 5, 70_000]) {
  test(`a torn last line (${tornBytes} bytes) after multi-byte text is cut exactly, whatever the window's alignment`, () => {
    const s = store();
    s.create({ runId: 'r1', n: 0 }, [{ n: 0 }]);
    change(s, 'é'.repeat(40_000)); // 80 KB of two-byte characters: the repair's window starts inside them
    // A writer killed mid-append: part of its line, no newline.
    fs.appendFileSync(s.journalFile('r1'), Buffer.from(`{"seq":3,"n":2,"payload":"${'ü'.repeat(tornBytes)}`).subarray(0, 20 + tornBytes));
    change(s, 'next');
    assertExactlyOnce(s, 'r1', 3);
  });
}

test('a killed writer\'s change is rolled forward once even when its line is huge', () => {
  const s = store();
  s.create({ runId: 'r1', n: 0 }, [{ n: 0 }]);
  change(s, 'a');
  // Simulate the kill between the rename of run.json and the append: cut the last line off the journal.
  change(s, 'y'.repeat(100_000));
  const lines = journalLines(s, 'r1');
  fs.writeFileSync(s.journalFile('r1'), `${lines.slice(0, -1).join('\n')}\n`);
  change(s, 'b');
  assertExactlyOnce(s, 'r1', 4);
});

test('through the CLI: an event with 100 KB of data, then more events: journal gapless and replayable', () => {
  const cwd = tempDir('sg-journal-cli-');
  fs.writeFileSync(path.join(cwd, 't.workflow.json'), JSON.stringify({ id: 't', initial: 'a', states: { a: { on: { GO: 'a', END: 'done' } }, done: { type: 'final' } } }));
  const started = cli(['run', 'start', 't.workflow.json'], { cwd });
  assert.equal(started.code, 0, started.stderr);
  assert.equal(cli(['run', 'send', 'GO', '--data', JSON.stringify({ big: 'z'.repeat(100_000) })], { cwd }).code, 0);
  assert.equal(cli(['run', 'send', 'GO', '--data', '{"k": 1}'], { cwd }).code, 0);
  assert.equal(cli(['run', 'send', 'GO', '--data', '{"k": 2}'], { cwd }).code, 0);
  const runDir = path.join(cwd, '.stategate', 'runs', started.json.run_id);
  const journal = fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(
    journal.map((e: { seq: number }) => e.seq),
    [1, 2, 3, 4],
  );
  const envelope = JSON.parse(fs.readFileSync(path.join(runDir, 'run.json'), 'utf8'));
  const rebuilt = replay(journal);
  assert.equal(rebuilt.transitions, envelope.run.counters.transitions);
  assert.deepEqual(rebuilt.context, envelope.run.context);
});
