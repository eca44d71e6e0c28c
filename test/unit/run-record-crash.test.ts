/**
 * The run record survives writers killed mid-commit (issue 16 item 5): a kill
 * -9 during a write never leaves agent-state.json unreadable, and the next
 * commit brings a record a killed writer left behind up to the journal, with
 * each learning once in learnings.jsonl. Also the CLI paths of the record:
 * `run learn` and `run usage`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './helpers/temp-dir';
import { CLI, cli, requireBuiltCli } from './helpers/cli';
import { killableRunner } from './helpers/killable-runner';
import validateRecord from '../../src/engine/schema/agent-state-validator.generated.js';
import { LEARNINGS_FILE, RECORD_FILE } from '../../src/engine/record/record-file';
import type { AgentStateRecord } from '../../src/engine/record/types';

const WORKFLOW = {
  id: 'loop',
  initial: 'work',
  meta: { max_cost: '$2' },
  states: {
    work: { allowed_tools: ['Read'], on: { STEP: 'work', FINISH: 'done' } },
    done: { type: 'final' },
  },
};

function workspace(t: { after(fn: () => void): unknown }): string {
  const cwd = tempDir('sg-record-crash-', t);
  fs.writeFileSync(path.join(cwd, 'loop.workflow.json'), JSON.stringify(WORKFLOW));
  return cwd;
}

/** Reads the file named by argv[1] until stdin closes; prints how many reads and what failed to parse. */
const READER = `
const fs = require('node:fs');
const file = process.argv[1];
let reads = 0, done = false;
const problems = [];
process.stdin.on('end', () => (done = true)).resume();
function loop() {
  for (let i = 0; i < 200; i++) {
    try { JSON.parse(fs.readFileSync(file, 'utf8')); reads++; } catch (err) { if (problems.length < 20) problems.push(err.message); }
  }
  if (done) process.stdout.write(JSON.stringify({ reads, problems }));
  else setImmediate(loop);
}
loop();
`;

function readRecordFile(file: string): AgentStateRecord {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as AgentStateRecord;
}

test('a writer stopped after run.json (before the record) leaves the record one change behind, readable; the next commit catches it up', async (t) => {
  const cwd = workspace(t);
  const { runner, killAfter } = killableRunner(cwd);
  await runner.start(path.join(cwd, 'loop.workflow.json'));
  const runId = (await runner.requireActive()).runId;
  const file = path.join(runner.runDir(runId), RECORD_FILE);
  const before = readRecordFile(file);

  // Killed after the journal, before the record: a learning is committed, the record does not have it.
  killAfter('journal-appended');
  await assert.rejects(async () => await runner.recordLearning({ lesson: 'Missed by a killed writer' }), /killed after journal-appended/);
  assert.deepEqual(readRecordFile(file), before, 'the record is the previous one, whole');
  killAfter(undefined);

  await runner.send('STEP');
  const after = readRecordFile(file);
  assert.ok(validateRecord(after), JSON.stringify(validateRecord.errors));
  const journal = await runner.store.readJournal(runId);
  assert.equal(after.stategate.journal_seq, journal.at(-1)!.seq);
  assert.deepEqual(after.learnings.map((l) => l.lesson), ['Missed by a killed writer']);
  assert.deepEqual(after.completed_tasks.map((c) => c.task), ['work']);
  const lines = fs.readFileSync(path.join(runner.runDir(runId), LEARNINGS_FILE), 'utf8').trim().split('\n');
  assert.equal(lines.length, 1, 'the learning is in learnings.jsonl once');
});

test('run learn and run usage: the record\'s CLI paths', (t) => {
  const cwd = workspace(t);
  assert.equal(cli(['run', 'start', 'loop.workflow.json'], { cwd }).code, 0);
  const learned = cli(['run', 'learn', 'Keep steps small', '--type', 'antipattern', '--pattern', 'one change a step'], { cwd });
  assert.equal(learned.code, 0, learned.stderr);
  assert.equal(learned.json.recorded, true);
  const bad = cli(['run', 'learn', 'x', '--type', 'rumour'], { cwd });
  assert.equal(bad.code, 1);
  assert.equal(bad.json.error.code, 'invalid_learning');
  const used = cli(['run', 'usage', '--cost', '1.6', '--model', 'scripted'], { cwd });
  assert.equal(used.code, 0, used.stderr);
  assert.deepEqual(used.json.notices, ['Cost at 75% of limit ($1.60 of $2)']);
  assert.equal(cli(['run', 'usage', '--cost', 'lots'], { cwd }).code, 2);
  const runId = fs.readFileSync(path.join(cwd, '.stategate', 'active'), 'utf8').trim();
  const rec = readRecordFile(path.join(cwd, '.stategate', 'runs', runId, RECORD_FILE));
  assert.ok(validateRecord(rec), JSON.stringify(validateRecord.errors));
  assert.equal(rec.learnings[0]!.type, 'antipattern');
  assert.equal(rec.safety_bounds.cost_so_far, '$1.60');
  assert.equal(cli(['run', 'usage', '--cost', '0.4'], { cwd }).code, 0);
  const denied = cli(['run', 'tool', 'Read', '--input', '{"file_path":"a"}'], { cwd });
  assert.equal(denied.json.decision, 'deny');
  assert.match(denied.json.reason, /cost bound/);
});

test('kill -9 during writes never leaves agent-state.json unreadable', async (t) => {
  requireBuiltCli();
  const cwd = workspace(t);
  assert.equal(cli(['run', 'start', 'loop.workflow.json'], { cwd }).code, 0);
  const runId = fs.readFileSync(path.join(cwd, '.stategate', 'active'), 'utf8').trim();
  const runDir = path.join(cwd, '.stategate', 'runs', runId);
  const file = path.join(runDir, RECORD_FILE);
  // A reader process reading the record in a tight loop the whole time (the way `jq` reads it, without the lock).
  const reader = spawn(process.execPath, ['-e', READER, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  let readerOut = '';
  reader.stdout.on('data', (d) => (readerOut += String(d)));
  const kinds = [
    ['run', 'send', 'STEP'],
    ['run', 'learn', 'a lesson'],
    ['run', 'tool', 'Read', '--input', '{"file_path":"a"}'],
  ];
  let killed = 0;
  try {
    for (let round = 0; round < 30; round++) {
      const children = [0, 1, 2].map((i) => spawn(process.execPath, [CLI, ...kinds[(round + i) % kinds.length]!], { cwd, stdio: 'ignore' }));
      // Node starts in about 0.1 s here: kills from 60 to 260 ms land before, during and after the commits.
      await new Promise((r) => setTimeout(r, 60 + Math.floor(Math.random() * 200)));
      for (const c of children) {
        if (c.exitCode === null && c.kill('SIGKILL')) killed++;
      }
      await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? undefined : new Promise((r) => c.once('exit', r)))));
    }
  } finally {
    reader.stdin.end();
  }
  await new Promise((r) => reader.once('exit', r));
  const { reads, problems } = JSON.parse(readerOut) as { reads: number; problems: string[] };
  assert.ok(reads > 100, `the reader read the record ${reads} times`);
  assert.deepEqual(problems, [], `every read of the record parsed (${reads} reads, ${killed} writers killed)`);
  // An unkilled writer (a lock left by a killed holder is broken) brings the record up to the journal.
  const last = cli(['run', 'send', 'STEP'], { cwd });
  assert.equal(last.code, 0, last.stderr);
  const rec = readRecordFile(file);
  assert.ok(validateRecord(rec), JSON.stringify(validateRecord.errors));
  const journal = fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { seq: number; kind: string });
  assert.equal(rec.stategate.journal_seq, journal.at(-1)!.seq);
  const learned = journal.filter((e) => e.kind === 'learning').map((e) => e.seq);
  const lines = fs.existsSync(path.join(runDir, LEARNINGS_FILE)) ? fs.readFileSync(path.join(runDir, LEARNINGS_FILE), 'utf8').split('\n').filter((l) => l !== '') : [];
  assert.deepEqual(lines.map((l) => (JSON.parse(l) as { seq: number }).seq), learned, 'learnings.jsonl has every journaled learning once, in order');
});
