/**
 * `@stategate /run` without VS Code (src/vscode/agents/pipeline-loop.ts): a
 * scripted model drives examples/code-review-pipeline.workflow.json through a
 * real Runner. Each stage starts a fresh transcript with its prompt, the task
 * and upstream; the offer is the stage's tools plus its completion tool; an
 * out-of-envelope call asks the person (deny: typed denial; approve: that call
 * once; headless: denied); an invalid payload returns the errors; the turn cap
 * fails the stage; a fan-out runs its branch stages and joins.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import './helpers/state-dir';
import { Runner } from '../../src/engine/runs/runner';
import { auditTimeline } from '../../src/engine/pipeline/index';
import type { JournalEntry } from '../../src/engine/machine/run';
import { parseRunPrompt, runPipeline, type GrantQuestion, type PipelineDeps, type PipelineEvent } from '../../src/vscode/agents/pipeline-loop';
import type { ModelTurn, TranscriptEntry } from '../../src/vscode/agents/participant-loop';
import { tempDir } from './helpers/temp-dir';
import { GrantWaiters } from '../../src/vscode/agents/grant-buttons';

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'code-review-pipeline.workflow.json');

let n = 0;
const call = (name: string, input: unknown): ModelTurn => ({ text: '', calls: [{ callId: `c${++n}`, name, input }] });

interface Seen {
  stage: string;
  tools: string[];
  first: string;
  last: TranscriptEntry | undefined;
  length: number;
}

function harness(t: { after(fn: () => void): unknown }, turns: ModelTurn[], grants: (boolean | undefined)[] = [], extra: Partial<PipelineDeps> = {}) {
  const root = tempDir('sg-pipeloop-', t);
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  const seen: Seen[] = [];
  const events: PipelineEvent[] = [];
  const questions: GrantQuestion[] = [];
  const invoked: { name: string; input: unknown }[] = [];
  const deps: PipelineDeps = {
    runner,
    toolIds: () => ['Read', 'Grep', 'Glob', 'Edit', 'Write', 'Bash'],
    ask: async ({ stage, transcript, tools }) => {
      const first = transcript[0];
      seen.push({ stage: stage.state, tools: tools.map((x) => x.name), first: first?.kind === 'user' ? first.text : '', last: transcript[transcript.length - 1], length: transcript.length });
      return turns.shift() ?? { text: 'nothing more', calls: [] };
    },
    invoke: async (name, input) => {
      invoked.push({ name, input });
      if (name === 'Edit') fs.writeFileSync(path.join(root, 'a.ts'), 'bar');
      return `${name} ok`;
    },
    report: (e) => events.push(e),
    askGrant: async (q) => {
      questions.push(q);
      return grants.shift();
    },
    ...extra,
  };
  const journal = async (): Promise<JournalEntry[]> => await runner.store.readJournal((await runner.requireActive()).runId) as unknown as JournalEntry[];
  return { root, runner, deps, seen, events, questions, invoked, journal };
}

const lastResult = (s: Seen | undefined): string => (s?.last?.kind === 'results' ? s.last.results.map((r) => r.text).join('\n') : '');

test('Plan -> Execute -> Review: a denied grant, an invalid plan, a valid one; an edit; a review with no tools', async (t) => {
  const editInput = { file_path: 'a.ts', old_string: 'foo', new_string: 'bar' };
  const h = harness(t, [
    call('Edit', editInput), // out of Plan's envelope: asked, denied
    call('submit_plan', { steps: [] }), // invalid
    call('submit_plan', { steps: ['rename foo in a.ts'] }),
    call('Edit', editInput),
    call('submit_diff', { summary: 'renamed foo' }),
    call('submit_review', { approved: true }),
  ], [false]);
  const end = await runPipeline(EXAMPLE, 'rename foo', h.deps);
  assert.deepEqual([end.status, end.state], ['completed', 'done']);
  // Fresh transcripts: each stage's first request has one message, its prompt with the task (and upstream after the first).
  const firsts = h.seen.filter((s) => s.length === 1);
  assert.deepEqual(firsts.map((s) => s.stage), ['plan', 'execute', 'review']);
  assert.match(firsts[0]!.first, /^Plan how to do this task: rename foo/);
  assert.match(firsts[1]!.first, /rename foo in a\.ts/);
  assert.match(firsts[2]!.first, /What was done: renamed foo/);
  assert.deepEqual(firsts.map((s) => s.tools), [['Read', 'Grep', 'Glob', 'submit_plan'], ['Read', 'Grep', 'Glob', 'Edit', 'Write', 'submit_diff'], ['submit_review']]);
  // The denial is typed, and the stage went on.
  assert.deepEqual(h.questions.map((q) => [q.state, q.tool]), [['plan', 'Edit']]);
  const denial = JSON.parse(lastResult(h.seen[1]));
  assert.deepEqual([denial.type, denial.reason, denial.tool], ['denied_tool_call', 'denied', 'Edit']);
  assert.match(lastResult(h.seen[2]), /`steps` must NOT have fewer than 1 items/);
  assert.deepEqual(h.invoked.map((i) => i.name), ['Edit'], 'only the in-envelope Edit of Execute ran');
  assert.equal(fs.readFileSync(path.join(h.root, 'a.ts'), 'utf8'), 'bar');
  const tl = auditTimeline((await h.journal()));
  assert.deepEqual(tl.stages.map((s) => [s.state, s.outcome, s.turns]), [['plan', 'completed', 3], ['execute', 'completed', 2], ['review', 'completed', 1]]);
  assert.deepEqual(tl.stages[0]!.grants.map((g) => [g.tool, g.approved]), [['Edit', false]]);
  assert.deepEqual(h.events.filter((e) => e.kind === 'stage').map((e) => (e as { state: string }).state), ['plan', 'execute', 'review']);
});

test('an approved grant covers that call once; the same tool with other arguments asks again; headless denies', async (t) => {
  const a = { file_path: 'a.ts', old_string: 'x', new_string: 'y' };
  const h = harness(t, [
    call('Edit', a), // approved: runs
    call('Edit', { ...a, new_string: 'z' }), // other arguments: asks again (no one answers: headless)
    call('Edit', a), // the grant was used: asks again
    call('submit_plan', { steps: ['s'] }),
    call('submit_diff', { summary: 's' }),
    call('submit_review', { approved: true }),
  ], [true, undefined, false]);
  await runPipeline(EXAMPLE, 'task', h.deps);
  assert.deepEqual(h.questions.map((q) => q.tool), ['Edit', 'Edit', 'Edit']);
  assert.deepEqual(h.invoked.map((i) => i.input), [a]);
  const headless = JSON.parse(lastResult(h.seen[2]));
  assert.equal(headless.reason, 'headless');
  const kinds = (await h.journal()).map((e) => e.kind).filter((k) => k.startsWith('grant_'));
  assert.deepEqual(kinds, ['grant_asked', 'grant_answered', 'grant_consumed', 'grant_asked', 'grant_answered', 'grant_asked', 'grant_answered']);
});

test('the turn cap fails the stage and the run', async (t) => {
  const wf = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8'));
  wf.states.plan.turn_cap = 2;
  const h = harness(t, [{ text: 'thinking', calls: [] }, call('Read', { file_path: 'a.ts' })]);
  const file = path.join(h.root, 'p.workflow.json');
  fs.writeFileSync(file, JSON.stringify(wf));
  const end = await runPipeline(file, 'task', h.deps);
  assert.equal(end.status, 'failed');
  assert.equal(h.seen.length, 2, 'the model was asked exactly turn_cap times');
  assert.match(String((h.events.find((e) => e.kind === 'stage_failed') as { reason?: string })?.reason), /turn_cap reached/);
});

const FAN = {
  id: 'fan',
  initial: 'plan',
  states: {
    plan: { prompt: 'plan {{ input.task }}', allowed_tools: [], completion_tool: 'submit_plan', completion_schema: { type: 'object' }, on: { submit_plan: { fork: { branches: { lint: { initial: 'lint', terminal: 'lint_done' }, test: { initial: 'tests', terminal: 'test_done' } }, join: 'all', mode: 'parallel', on_complete: 'review', on_fail: 'failed' } } } },
    lint: { prompt: 'lint', allowed_tools: [], completion_tool: 'submit_lint', completion_schema: { type: 'object', required: ['ok'] }, turn_cap: 2, on: { submit_lint: 'lint_done' } },
    tests: { prompt: 'test', allowed_tools: [], completion_tool: 'submit_tests', completion_schema: { type: 'object', required: ['passed'] }, turn_cap: 2, on: { submit_tests: 'test_done' } },
    lint_done: { type: 'final' },
    test_done: { type: 'final' },
    review: { prompt: 'lint {{ upstream.lint.ok }} tests {{ upstream.tests.passed }}', allowed_tools: [], completion_tool: 'submit_review', completion_schema: { type: 'object' }, on: { submit_review: 'done' } },
    done: { type: 'final' },
    failed: { type: 'final' },
  },
};

test('fan-out: both branch stages run (at most two at once) and the join reads both results', async (t) => {
  let inFlight = 0;
  let most = 0;
  const h = harness(t, []);
  h.deps.ask = async ({ stage, transcript }) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setImmediate(r));
    inFlight--;
    const first = transcript[0]?.kind === 'user' ? transcript[0].text : '';
    h.seen.push({ stage: stage.state, tools: [], first, last: undefined, length: transcript.length });
    const payloads: Record<string, object> = { plan: {}, lint: { ok: true }, tests: { passed: 3 }, review: {} };
    return call(stage.completion_tool, payloads[stage.state]);
  };
  const file = path.join(h.root, 'fan.workflow.json');
  fs.writeFileSync(file, JSON.stringify(FAN));
  const end = await runPipeline(file, 'go', h.deps);
  assert.deepEqual([end.status, end.state], ['completed', 'done']);
  assert.equal(most, 2, 'the two branch stages ran at the same time');
  assert.match(h.seen.find((s) => s.stage === 'review')!.first, /^lint true tests 3/);
});

test('fan-out: a branch that fails its turn cap fails the run, and the other branch stops', async (t) => {
  const h = harness(t, []);
  let testTurns = 0;
  h.deps.ask = async ({ stage }) => {
    await new Promise((r) => setImmediate(r));
    if (stage.state === 'plan') return call('submit_plan', {});
    if (stage.state === 'tests') testTurns++;
    return { text: 'not yet', calls: [] };
  };
  const file = path.join(h.root, 'fan.workflow.json');
  fs.writeFileSync(file, JSON.stringify(FAN));
  const end = await runPipeline(file, 'go', h.deps);
  assert.equal(end.status, 'failed');
  assert.ok(testTurns <= 2);
  const exits = (await h.journal()).filter((e) => e.kind === 'stage_exit').map((e) => (e as { outcome: string }).outcome);
  assert.ok(exits.includes('failed'));
});

test('/run [--replace] <workflow> <task>: the first word names the workflow, the rest is the task', async () => {
  const table: [string, { workflow: string; task: string; replace?: true } | undefined][] = [
    ['--replace fan go on', { workflow: 'fan', task: 'go on', replace: true }],
    ['fan --replace', { workflow: 'fan', task: '--replace' }],
    ['--replaced go', { workflow: '--replaced', task: 'go' }],
    ['code-review-pipeline rename foo to bar', { workflow: 'code-review-pipeline', task: 'rename foo to bar' }],
    ['  fan   multi\nline task ', { workflow: 'fan', task: 'multi\nline task' }],
    ['only', { workflow: 'only', task: '' }],
    ['   ', undefined],
  ];
  for (const [prompt, want] of table) assert.deepEqual(parseRunPrompt(prompt), want, JSON.stringify(prompt));
});

test('grant buttons: a click answers the waiting question once; cancellation is no answer', async () => {
  const waiters = new GrantWaiters();
  const listeners: (() => void)[] = [];
  const token = { isCancellationRequested: false, onCancellationRequested: (fn: () => void) => (listeners.push(fn), { dispose() {} }) } as never;
  const approved = waiters.wait('gp-1', token);
  assert.equal(waiters.answer('gp-2', true), false, 'another proposal');
  assert.equal(waiters.answer('gp-1', true), true);
  assert.equal(await approved, true);
  assert.equal(waiters.answer('gp-1', false), false, 'answered already');
  const cancelled = waiters.wait('gp-3', token);
  for (const fn of listeners) fn();
  assert.equal(await cancelled, undefined);
});

test('security mode yolo from the setting: journaled and shown; an out-of-envelope call still asks, headless still denies', async (t) => {
  const editInput = { file_path: 'a.ts', old_string: 'foo', new_string: 'bar' };
  const h = harness(t, [
    call('Edit', editInput), // outside Plan's tools: asked even in yolo; nobody answers
    call('submit_plan', { steps: ['s'] }),
    call('Edit', editInput), // inside Execute's tools: runs
    call('submit_diff', { summary: 's' }),
    call('submit_review', { approved: true }),
  ], [undefined], { securityMode: 'yolo' });
  const end = await runPipeline(EXAMPLE, 'task', h.deps);
  assert.equal(end.status, 'completed');
  assert.deepEqual(h.questions.map((q) => q.tool), ['Edit'], 'yolo never grants an out-of-envelope call on its own');
  assert.equal(JSON.parse(lastResult(h.seen[1])).reason, 'headless');
  assert.deepEqual(h.invoked.map((i) => i.name), ['Edit']);
  const modes = (await h.journal()).filter((e) => e.kind === 'security_mode') as Array<JournalEntry & { mode: string; source: string }>;
  assert.deepEqual(modes.map((e) => [e.mode, e.source]), [['yolo', 'setting']]);
  assert.deepEqual(h.events.filter((e) => e.kind === 'stage').map((e) => (e as { securityMode: string }).securityMode), ['yolo', 'yolo', 'yolo']);
});

test('the workflow\'s meta.security_mode wins over the person\'s setting', async (t) => {
  const h = harness(t, [call('submit_plan', { steps: ['s'] })], [], { securityMode: 'yolo' });
  const file = path.join(h.root, 'ask.workflow.json');
  const wf = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8'));
  fs.writeFileSync(file, JSON.stringify({ ...wf, meta: { ...(wf.meta ?? {}), security_mode: 'ask' } }));
  await runPipeline(file, 'task', h.deps);
  const modes = (await h.journal()).filter((e) => e.kind === 'security_mode') as Array<JournalEntry & { mode: string; source: string; requested: string }>;
  assert.deepEqual(modes.map((e) => [e.mode, e.source, e.requested]), [['ask', 'workflow', 'yolo']]);
  assert.equal((h.events.find((e) => e.kind === 'stage') as { securityMode: string }).securityMode, 'ask');
});

test('model usage of each stage lands in the run record: cost so far, each stage\'s cost, the bound\'s warnings, then the bound denies', async (t) => {
  const usage = (cost: number) => ({ cost, inputTokens: 1000, outputTokens: 100, model: 'test/m' });
  const withUsage = (turn: ModelTurn, cost: number): ModelTurn => ({ ...turn, usage: usage(cost) });
  const h = harness(t, [
    withUsage(call('submit_plan', { steps: ['s'] }), 0.8), // plan: $0.80 (80% of $1: the 75% warning)
    withUsage(call('Edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b' }), 0.15), // execute: 95%: the 90% warning
    withUsage(call('Edit', { file_path: 'a.ts', old_string: 'b', new_string: 'c' }), 0.1), // $1.05: past the bound, the Edit is denied
    withUsage(call('submit_diff', { summary: 's' }), 0),
  ]);
  const file = path.join(h.root, 'bounded.workflow.json');
  const wf = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8'));
  fs.writeFileSync(file, JSON.stringify({ ...wf, meta: { ...(wf.meta ?? {}), max_cost: '$1' } }));
  await runPipeline(file, 'task', h.deps);
  const run = await h.runner.requireActive();
  const record = JSON.parse(fs.readFileSync(path.join(h.runner.runDir(run.runId), 'agent-state.json'), 'utf8'));
  assert.equal(record.safety_bounds.max_cost, '$1');
  assert.equal(record.safety_bounds.cost_so_far, '$1.05');
  assert.equal(record.safety_bounds.warnings.length, 2, JSON.stringify(record.safety_bounds.warnings));
  const plan = record.completed_tasks.find((x: { task: string }) => x.task === 'plan');
  assert.equal(plan.cost, '$0.80');
  assert.deepEqual(h.invoked.map((i) => (i.input as { new_string: string }).new_string), ['b'], 'the Edit past the bound never ran');
  const notices = h.events.filter((e) => e.kind === 'notice').map((e) => (e as { text: string }).text);
  assert.equal(notices.length, 4, notices.join('\n'));
  assert.match(notices[0]!, /75%/);
  assert.match(notices[1]!, /90%/);
  assert.match(notices[2]!, /reached its cost bound: \$1\.05 of \$1/);
  const usageEntries = (await h.journal()).filter((e) => e.kind === 'usage') as Array<JournalEntry & { inputTokens: number; model: string }>;
  assert.deepEqual(usageEntries.map((e) => [e.inputTokens, e.model]), Array(4).fill([1000, 'test/m']));
});
