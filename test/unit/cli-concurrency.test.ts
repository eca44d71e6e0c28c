/**
 * Eight processes drive one run at once through the CLI. The lock must
 * serialise them: no transition lost or doubled, the journal complete, and the
 * journal alone must rebuild what run.json says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, cliAsync } from './helpers/cli';
import { replay } from '../../src/engine/store/replay';
import type { JournalEntry } from '../../src/engine/machine/run';
import { tempDir } from './helpers/temp-dir';

const TOGGLE = {
  id: 'toggle',
  initial: 'a',
  states: {
    a: { on: { TOGGLE: 'b', FINISH: 'done' } },
    b: { on: { TOGGLE: 'a', FINISH: 'done' } },
    done: { type: 'final' },
  },
};

const PROCESSES = 8;
const EVENTS_EACH = 50;

/**
 * A "busy" answer (the lock not taken within the CLI's wait) is the store's
 * documented answer under contention, and it commits nothing: the sender does
 * what the message says and tries again. On a loaded machine eight writers can
 * starve one past the wait (seen in CI at a load of 9), so a busy answer is
 * retried; every other failure fails the test, and the counts below prove that
 * a busy answer neither lost nor doubled a transition.
 */
const BUSY_RETRIES = 40;

async function sender(cwd: string, worker: number): Promise<{ acknowledged: number; busy: number }> {
  let acknowledged = 0;
  let busy = 0;
  for (let i = 0; i < EVENTS_EACH; i++) {
    for (let attempt = 0; ; attempt++) {
      const r = await cliAsync(['run', 'send', 'TOGGLE', '--data', JSON.stringify({ [`w${worker}`]: i, last: `${worker}:${i}` })], { cwd });
      if (r.code !== 0 && r.json?.error?.code === 'busy' && attempt < BUSY_RETRIES) {
        busy++;
        continue;
      }
      assert.equal(r.code, 0, `worker ${worker} event ${i}: ${r.stderr}`);
      if (r.json?.transitioned === true) acknowledged++;
      break;
    }
  }
  return { acknowledged, busy };
}

test(`${PROCESSES} processes × ${EVENTS_EACH} events through the CLI: every transition counted once and replayable`, { timeout: 300_000 }, async () => {
  const cwd = tempDir('sg-concurrency-');
  fs.writeFileSync(path.join(cwd, 'toggle.workflow.json'), JSON.stringify(TOGGLE, null, 2));
  const started = cli(['run', 'start', 'toggle.workflow.json'], { cwd });
  assert.equal(started.code, 0, started.stderr);

  const results = await Promise.all(Array.from({ length: PROCESSES }, (_, w) => sender(cwd, w)));
  assert.equal(results.reduce((a, r) => a + r.acknowledged, 0), PROCESSES * EVENTS_EACH, 'every send was acknowledged as a transition');
  const busy = results.reduce((a, r) => a + r.busy, 0);
  if (busy > 0) process.stdout.write(`# ${busy} busy answers retried (loaded machine)\n`);

  const runDir = path.join(cwd, '.stategate', 'runs', started.json.run_id);
  const envelope = JSON.parse(fs.readFileSync(path.join(runDir, 'run.json'), 'utf8'));
  assert.equal(envelope.run.counters.transitions, PROCESSES * EVENTS_EACH);

  const journal = fs
    .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as JournalEntry & { seq: number });
  assert.equal(journal.filter((e) => e.kind === 'transition').length, PROCESSES * EVENTS_EACH);
  assert.deepEqual(
    journal.map((e) => e.seq),
    journal.map((_, i) => i + 1),
    'journal sequence numbers are gapless',
  );

  const rebuilt = replay(journal);
  assert.equal(rebuilt.state, envelope.run.state);
  assert.deepEqual(rebuilt.context, envelope.run.context);
  assert.equal(rebuilt.transitions, envelope.run.counters.transitions);
  // 400 toggles from `a` end in `a`.
  assert.equal(envelope.run.state, 'a');
  assert.equal(fs.existsSync(path.join(cwd, '.stategate', 'lock')), false, 'no lock left behind');
});
