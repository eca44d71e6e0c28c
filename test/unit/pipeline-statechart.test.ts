/**
 * Statechart stages (issue 16, left item 4): stage fields on atomic statechart
 * nodes run like Statewright stages. The completion tool's valid payload is
 * sent as the event named like the tool, with the payload as the event's data
 * (guards read `event.data.<field>`); a nested node's result is
 * `upstream.<its key>`; a guard that takes no transition keeps the stage; a
 * transition back to the same node is the stage's next attempt; stages in
 * parallel regions are told apart by their completion tools; turn caps fail
 * the stage. Through the Runner, and once through the participant's loop.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import './helpers/state-dir';
import { Runner } from '../../src/engine/runs/runner';
import { auditTimeline } from '../../src/engine/pipeline/index';
import type { JournalEntry } from '../../src/engine/machine/run';
import { runPipeline } from '../../src/vscode/agents/pipeline-loop';
import { tempDir } from './helpers/temp-dir';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';

const SEQUENTIAL = `statechart:
  id: chart-review
  initial: plan
  states:
    plan:
      prompt: "Plan: {{ input.task }}"
      allowed_tools: [Read]
      completion_tool: submit_plan
      completion_schema:
        type: object
        properties: {steps: {type: array, items: {type: string}, minItems: 1}}
        required: [steps]
      turn_cap: 2
      on:
        submit_plan: work
    work:
      initial: review
      states:
        review:
          prompt: "Review the plan: {{ upstream.plan.steps[0] }}"
          allowed_tools: []
          completion_tool: submit_review
          completion_schema: {type: object, properties: {approved: {type: boolean}, retry: {type: boolean}}, required: [approved]}
          on:
            submit_review:
              - target: done
                guard: "event.data.approved"
              - target: review
                guard: "event.data.retry"
    done:
      type: final
`;

const PARALLEL = `statechart:
  id: chart-par
  initial: checks
  states:
    checks:
      type: parallel
      onDone: done
      states:
        lint:
          initial: run
          states:
            run:
              completion_tool: submit_lint
              completion_schema: {type: object, properties: {ok: {type: boolean}}, required: [ok]}
              on: {submit_lint: finished}
            finished: {type: final}
        test:
          initial: run
          states:
            run:
              completion_tool: submit_test
              completion_schema: {type: object, properties: {passed: {type: integer}}, required: [passed]}
              on: {submit_test: finished}
            finished: {type: final}
    done:
      type: final
`;

function setup(t: { after(fn: () => void): unknown }, text: string, name = 'x.statechart.yaml'): { runner: Runner; file: string; journal: () => Promise<JournalEntry[]> } {
  const root = tempDir('sg-chart-pipe-', t);
  const file = path.join(root, name);
  fs.writeFileSync(file, text);
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  return { runner, file, journal: async () => (await runner.store.readJournal((await runner.requireActive()).runId)) as unknown as JournalEntry[] };
}

test('a statechart pipeline: a stage per atomic node, upstream by key, the payload as event data for guards', async (t) => {
  const { runner, file, journal } = setup(t, SEQUENTIAL);
  await runner.start(file, undefined, { task: 'rename foo' });
  const first = await runner.stages();
  assert.deepEqual(first.map((s) => [s.state, s.completion_tool, s.prompt]), [['plan', 'submit_plan', 'Plan: rename foo']]);
  assert.equal((await runner.completeStage('submit_plan', { steps: [] })).accepted, false);
  const ok = await runner.completeStage('submit_plan', { steps: ['rename foo in a.ts'] });
  assert.equal(ok.accepted, true, ok.text);
  const review = await runner.stages();
  assert.deepEqual(review.map((s) => [s.state, s.completion_tool, s.prompt]), [['work.review', 'submit_review', 'Review the plan: rename foo in a.ts']]);
  // No guard passes: no transition, the stage goes on (a statechart answers with no transition, not an error).
  const stuck = await runner.completeStage('submit_review', { approved: false });
  assert.deepEqual([stuck.accepted, stuck.error?.code], [false, 'transition_refused']);
  assert.match(stuck.text, /the payload is valid, but its transition submit_review was refused \(no transition on submit_review was taken/);
  assert.equal((await runner.stages())[0]!.stage_exec_id, review[0]!.stage_exec_id, 'the same execution goes on');
  // A transition back to the node: the stage's next attempt.
  assert.equal((await runner.completeStage('submit_review', { approved: false, retry: true })).accepted, true);
  const again = (await runner.stages())[0]!;
  assert.deepEqual([again.state, again.attempt], ['work.review', 2]);
  assert.notEqual(again.stage_exec_id, review[0]!.stage_exec_id);
  assert.equal((await runner.completeStage('submit_review', { approved: true })).accepted, true);
  assert.deepEqual([(await runner.requireActive()).status, (await runner.stages()).length], ['completed', 0]);
  const tl = auditTimeline(await journal());
  assert.deepEqual(tl.stages.map((s) => [s.state, s.attempt, s.outcome]), [['plan', 1, 'completed'], ['work.review', 1, 'completed'], ['work.review', 2, 'completed']]);
  assert.deepEqual((await runner.requireActive()).pipeline?.upstream, { plan: { steps: ['rename foo in a.ts'] }, review: { approved: true } });
});

test('a statechart stage\'s turn cap fails the stage and the run', async (t) => {
  const { runner, file } = setup(t, SEQUENTIAL);
  await runner.start(file, undefined, { task: 'x' });
  assert.equal((await runner.beginTurn()).allowed, true);
  assert.equal((await runner.beginTurn()).allowed, true);
  const third = await runner.beginTurn();
  assert.equal(third.allowed, false);
  assert.match(third.failed?.reason ?? '', /turn_cap reached: stage "plan" took its 2 turns/);
  assert.equal((await runner.requireActive()).status, 'failed');
});

test('parallel regions: both stages live; each completion tool ends its own; the chart finishes when both are done', async (t) => {
  const { runner, file, journal } = setup(t, PARALLEL);
  await runner.start(file, undefined, { task: 'x' });
  const live = await runner.stages();
  assert.deepEqual(live.map((s) => s.completion_tool).sort(), ['submit_lint', 'submit_test']);
  assert.equal(new Set(live.map((s) => s.stage_exec_id)).size, 2);
  // Without a tool to tell them apart, a turn cannot be placed.
  const turn = await runner.beginTurn();
  assert.equal(turn.allowed, false);
  assert.match(turn.error?.message ?? '', /several stages are active in parallel regions/);
  assert.equal((await runner.completeStage('submit_test', { passed: 3 })).accepted, true);
  assert.deepEqual((await runner.stages()).map((s) => s.completion_tool), ['submit_lint']);
  assert.equal((await runner.completeStage('submit_lint', { ok: true })).accepted, true);
  assert.equal((await runner.requireActive()).status, 'completed');
  const exits = (await journal()).filter((e) => e.kind === 'stage_exit').map((e) => (e as { state: string; outcome: string }).state + ':' + (e as { outcome: string }).outcome);
  assert.deepEqual(exits, ['checks.test.run:completed', 'checks.lint.run:completed']);
});

test('@stategate /run drives a statechart pipeline stage after stage', async (t) => {
  const { runner, file } = setup(t, SEQUENTIAL);
  const turns = [
    { text: '', calls: [{ callId: 'a', name: 'submit_plan', input: { steps: ['s1'] } }] },
    { text: '', calls: [{ callId: 'b', name: 'submit_review', input: { approved: true } }] },
  ];
  const firsts: string[] = [];
  const end = await runPipeline(file, 'rename foo', {
    runner,
    toolIds: () => ['Read'],
    ask: async ({ stage, transcript, tools }) => {
      if (transcript.length === 1 && transcript[0]!.kind === 'user') firsts.push(`${stage.state}|${tools.map((x) => x.name).join(',')}|${transcript[0]!.text.split('\n')[0]}`);
      return turns.shift() ?? { text: 'done', calls: [] };
    },
    invoke: async () => 'ok',
    report: () => undefined,
  });
  assert.deepEqual([end.status, end.state], ['completed', 'done']);
  assert.deepEqual(firsts, ['plan|Read,submit_plan|Plan: rename foo', 'work.review|submit_review|Review the plan: s1']);
});

test('a completion_tool on a statechart node with children is a validation error (stage-not-atomic): its stage could never start', async () => {
  const text = `statechart:
  id: bad
  initial: work
  states:
    work:
      completion_tool: submit_work
      on: {submit_work: done}
      initial: a
      states:
        a: {on: {NEXT: b}}
        b: {type: final}
    done: {type: final}
`;
  const found = checkWorkflowFile(text, '/x/bad.statechart.yaml', { resolveSrc: false }).diagnostics.filter((d) => d.code === 'stage-not-atomic');
  assert.equal(found.length, 1);
  assert.match(found[0]!.message, /State `work` has child states/);
  assert.equal(checkWorkflowFile(SEQUENTIAL, '/x/ok.statechart.yaml', { resolveSrc: false }).diagnostics.filter((d) => d.severity === 'error').length, 0);
});
