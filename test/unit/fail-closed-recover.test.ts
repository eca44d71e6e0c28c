/**
 * scripts/recover-run.mjs, the by-hand recovery of docs/reliability.md: a run
 * whose run.json is destroyed is rebuilt from its journal (a torn last line
 * included) and goes on where it was; what replay cannot restore is refused.
 * The script runs as a process; the run commands around it run through the
 * CLI's main in this process (helpers/cli-in-process.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './helpers/cli';
import { cliInProcess } from './helpers/cli-in-process';
import { tempDir } from './helpers/temp-dir';

const SCRIPT = path.join(REPO_ROOT, 'scripts', 'recover-run.mjs');

const WORKFLOW = {
  id: 'recover',
  initial: 'work',
  states: {
    work: { allowed_tools: ['Read'], on: { STEP: 'work', NEXT: 'review' } },
    review: { on: { BACK: 'work', DONE: 'done' } },
    handling: { on: { FIXED: '$return' } },
    done: { type: 'final' },
  },
  interrupts: { touched: { trigger: { file_pattern: '*.env' }, target: 'handling' } },
};

function recover(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function setup(): Promise<{ cwd: string; runDir: string }> {
  const cwd = tempDir('sg-recover-');
  fs.writeFileSync(path.join(cwd, 'recover.workflow.json'), JSON.stringify(WORKFLOW, null, 2));
  const started = await cliInProcess(['run', 'start', 'recover.workflow.json'], { cwd });
  assert.equal(started.code, 0, started.stderr);
  return { cwd, runDir: path.join(cwd, '.stategate', 'runs', started.json.run_id) };
}

test('a destroyed run.json is rebuilt from the journal (torn last line and all) and the run goes on', async () => {
  const { cwd, runDir } = await setup();
  for (const [event, data] of [['STEP', { a: 1 }], ['NEXT', { b: 'two' }], ['BACK', { a: 3 }]] as const) {
    assert.equal((await cliInProcess(['run', 'send', event, '--data', JSON.stringify(data)], { cwd })).code, 0);
  }
  assert.equal((await cliInProcess(['run', 'file-changed', 'x.env'], { cwd })).json.interrupted, true);
  assert.equal((await cliInProcess(['run', 'send', 'FIXED', '--data', '{"c": true}'], { cwd })).code, 0);
  const before = (await cliInProcess(['run', 'state'], { cwd })).json;
  const original = JSON.parse(fs.readFileSync(path.join(runDir, 'run.json'), 'utf8'));

  fs.writeFileSync(path.join(runDir, 'run.json'), '{"format": "stategate-run", "ver');
  fs.appendFileSync(path.join(runDir, 'journal.jsonl'), '{"seq": 99, "kind": "transi');
  assert.equal((await cliInProcess(['run', 'state'], { cwd })).code, 3, 'unreadable before recovery');

  const dry = recover(cwd);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /dry run/);
  assert.ok(!fs.readdirSync(runDir).some((f) => f.startsWith('run.json.broken')), 'a dry run writes nothing');

  const r = recover(cwd, '--write');
  assert.equal(r.code, 0, r.stderr);
  const after = await cliInProcess(['run', 'state'], { cwd });
  assert.equal(after.code, 0, after.stderr);
  assert.equal(after.json.state, before.state);
  assert.deepEqual(after.json.context, before.context);
  assert.equal(after.json.status, before.status);
  const rebuilt = JSON.parse(fs.readFileSync(path.join(runDir, 'run.json'), 'utf8'));
  assert.equal(rebuilt.journalSeq, original.journalSeq);
  assert.equal(rebuilt.run.counters.transitions, original.run.counters.transitions);
  assert.ok(fs.readdirSync(runDir).some((f) => f.startsWith('run.json.broken')), 'the broken file is kept');

  // The run goes on, and the journal stays gapless.
  assert.equal((await cliInProcess(['run', 'send', 'NEXT'], { cwd })).json.to, 'review');
  const seqs = fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).seq as number);
  assert.deepEqual(seqs, seqs.map((_, i) => i + 1));
  // And it is enforced again.
  assert.equal((await cliInProcess(['run', 'send', 'BACK'], { cwd })).code, 0);
  assert.equal((await cliInProcess(['run', 'tool', 'Edit'], { cwd })).json.decision, 'deny');
});

test('recovery refuses what the journal cannot restore (an active interrupt), and a definition whose hash is not the journal\'s', async () => {
  const { cwd, runDir } = await setup();
  assert.equal((await cliInProcess(['run', 'file-changed', 'x.env'], { cwd })).json.interrupted, true);
  fs.writeFileSync(path.join(runDir, 'run.json'), '');
  const r = recover(cwd, '--write');
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /interrupt touched/);

  const { cwd: cwd2, runDir: runDir2 } = await setup();
  fs.writeFileSync(path.join(runDir2, 'run.json'), '');
  fs.writeFileSync(path.join(cwd2, 'recover.workflow.json'), JSON.stringify({ ...WORKFLOW, id: 'changed' }));
  const r2 = recover(cwd2, '--write');
  assert.notEqual(r2.code, 0);
  assert.match(r2.stderr, /no definition with sha256/);
});
