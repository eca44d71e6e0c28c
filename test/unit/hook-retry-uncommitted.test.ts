/**
 * A hook killed between deciding a call and committing it, then retried with
 * the same tool-use id (as clients retry): the retry must be decided and
 * counted, not handed the uncommitted answer that recent-calls.json (the
 * per-machine note of answers, written while deciding) still holds. Found by the
 * two-machine soak (test/reliability/team-crash.test.ts), where such a retry was
 * allowed without ever being counted against max_iterations.
 *
 * The file store here; the store's step hook stops the commit before its
 * commit point (the rename of run.json), as a kill -9 there would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './helpers/temp-dir';
import { killableRunner } from './helpers/killable-runner';

const WORKFLOW = {
  id: 'capped',
  initial: 'work',
  states: {
    work: { allowed_tools: ['Read'], max_iterations: 2, on: { FINISH: 'done' } },
    done: { type: 'final' },
  },
};

test('a call whose commit never happened, asked again under its id, is counted: max_iterations holds', async (t) => {
  const cwd = tempDir('sg-retry-uncommitted-', t);
  fs.writeFileSync(path.join(cwd, 'capped.workflow.json'), JSON.stringify(WORKFLOW));
  fs.writeFileSync(path.join(cwd, 'a.txt'), 'a\n');
  const { runner, killAfter } = killableRunner(cwd);
  await runner.start(path.join(cwd, 'capped.workflow.json'));
  const read = { tool: 'Read', input: { file_path: path.join(cwd, 'a.txt') } };
  const opts = (id: string) => ({ callId: id, client: 'claude' });

  // Stopped before the commit point: the decision was made (and noted), nothing was committed.
  killAfter('record-written');
  const killed = await runner.tool(read, opts('toolu_1'));
  assert.notEqual(killed.counted, true, `the stopped commit counted nothing: ${JSON.stringify(killed)}`);
  killAfter(undefined);
  assert.equal((await runner.requireActive()).counters.iterations, 0, 'nothing committed');

  // The retry is decided and counted, and so is the next call: the cap of 2 is reached, the third is denied.
  const retried = await runner.tool(read, opts('toolu_1'));
  assert.equal(retried.decision, 'allow');
  assert.equal((await runner.requireActive()).counters.iterations, 1, 'the retry was counted');
  assert.equal((await runner.tool(read, opts('toolu_2'))).decision, 'allow');
  const third = await runner.tool(read, opts('toolu_3'));
  assert.equal(third.decision, 'deny', `max_iterations 2 holds: ${third.reason}`);
  // A retry of a committed call is still answered once (the store's key), not counted again.
  assert.equal((await runner.tool(read, opts('toolu_2'))).decision, 'allow');
  assert.equal((await runner.requireActive()).counters.iterations, 2);
});
