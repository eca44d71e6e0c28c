/**
 * Stage pipelines in the engine (issue 16 items 2-4; docs/pipelines.md): the completion step (payload checked with
 * ajv, errors naming the failing property, the transition on the tool's name
 * with guards reading `payload.<field>`), stage executions with their audit
 * events (stage_exec_id, attempt), turn caps, one-shot grants, fan-out and
 * join with `upstream`, and the audit timeline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './helpers/temp-dir';
import { Runner } from '../../src/engine/runs/runner';
import { auditTimeline, auditText, checkPayload, argsDigest } from '../../src/engine/pipeline/index';
import type { JournalEntry } from '../../src/engine/machine/run';
import type { JsonObject } from '../../src/engine/model/index';

const PLAN_SCHEMA = { type: 'object', properties: { steps: { type: 'array', items: { type: 'string' }, minItems: 1 }, risk: { enum: ['low', 'high'] } }, required: ['steps'], additionalProperties: false };

const PIPELINE = {
  id: 'code-review',
  initial: 'plan',
  states: {
    plan: {
      prompt: 'Plan: {{ input.task }}',
      allowed_tools: ['Read', 'Grep'],
      completion_tool: 'submit_plan',
      completion_schema: PLAN_SCHEMA,
      turn_cap: 3,
      on: { submit_plan: 'execute' },
    },
    execute: {
      prompt: 'Do these steps: {{ upstream.plan.steps }}',
      allowed_tools: ['Read', 'Edit'],
      completion_tool: 'submit_diff',
      completion_schema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
      on: { submit_diff: 'review' },
    },
    review: {
      prompt: 'Review {{ upstream.execute.summary }}',
      allowed_tools: [],
      completion_tool: 'submit_review',
      completion_schema: { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] },
      turn_cap: 2,
      on: { submit_review: [{ target: 'done', guard: 'approved' }, { target: 'execute' }] },
    },
    done: { type: 'final' },
  },
  guards: { approved: { field: 'payload.approved', op: 'eq', value: true } },
};

function setup(t: { after(fn: () => void): unknown }, wf: object = PIPELINE) {
  const root = tempDir('sg-pipeline-', t);
  fs.writeFileSync(path.join(root, 'p.workflow.json'), JSON.stringify(wf));
  const clock = { ms: Date.parse('2026-11-28T10:00:00.000Z') };
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root, now: () => new Date((clock.ms += 1000)).toISOString() });
  const journal = async (): Promise<JournalEntry[]> => await runner.store.readJournal((await runner.requireActive()).runId) as unknown as JournalEntry[];
  const kinds = async (): Promise<string[]> => (await journal()).map((e) => e.kind);
  return { root, runner, journal, kinds, file: path.join(root, 'p.workflow.json') };
}

test('payload check: each failing property is named, as the model wrote it', () => {
  const cases: { payload: unknown; valid: boolean; mentions?: string[] }[] = [
    { payload: { steps: ['a'] }, valid: true },
    { payload: { steps: ['a'], risk: 'low' }, valid: true },
    { payload: {}, valid: false, mentions: ['`steps` is required'] },
    { payload: { steps: [] }, valid: false, mentions: ['`steps` must NOT have fewer than 1 items'] },
    { payload: { steps: ['a', 2] }, valid: false, mentions: ['`steps[1]` must be string'] },
    { payload: { steps: ['a'], extra: 1 }, valid: false, mentions: ['`extra` is not allowed'] },
    { payload: { steps: ['a'], risk: 'mid' }, valid: false, mentions: ['`risk` must be equal to one of the allowed values: "low", "high"'] },
    { payload: 'plan', valid: false, mentions: ['`(payload)` must be object'] },
    { payload: { steps: 'a', extra: 1 }, valid: false, mentions: ['`steps` must be array', '`extra` is not allowed'] },
  ];
  for (const c of cases) {
    const r = checkPayload(PLAN_SCHEMA, c.payload as never);
    assert.equal(r.valid, c.valid, JSON.stringify(c.payload));
    if (!r.valid) for (const m of c.mentions ?? []) assert.ok(r.errors.some((e) => e.startsWith(m)), `${JSON.stringify(c.payload)}: ${r.errors.join(' | ')} lacks ${m}`);
  }
  const broken = checkPayload({ type: 'object', properties: { a: { type: 'nonsense' } } }, { a: 1 });
  assert.equal(broken.valid, false);
  assert.match(!broken.valid ? broken.errors[0]! : '', /does not compile/);
});

test('a started pipeline sets up its first stage; its prompt renders input.task', async (t) => {
  const { runner, kinds, journal, file } = setup(t);
  await runner.start(file, undefined, { task: 'refactor auth' });
  assert.deepEqual(await kinds(), ['start', 'stage_setup']);
  const setupEntry = (await journal())[1] as Extract<JournalEntry, { kind: 'stage_setup' }>;
  assert.deepEqual([setupEntry.state, setupEntry.attempt, setupEntry.completion_tool, setupEntry.allowed_tools, setupEntry.turn_cap], ['plan', 1, 'submit_plan', ['Read', 'Grep'], 3]);
  const stage = await runner.stage();
  assert.ok(typeof stage !== 'string');
  assert.equal(stage.prompt, 'Plan: refactor auth');
  assert.equal(stage.prompted, false);
  const sent = await runner.promptSent();
  assert.ok(!('error' in sent));
  assert.equal(sent.prompted, true);
  assert.equal((await journal()).at(-1)?.kind, 'prompt_sent');
  assert.equal(((await journal()).at(-1) as { stage_exec_id: string }).stage_exec_id, setupEntry.stage_exec_id);
});

test('completion: invalid payloads keep the stage; a valid one ends it, and the next stage reads upstream', async (t) => {
  const { runner, kinds, journal, file } = setup(t);
  await runner.start(file, undefined, { task: 'x' });
  const bad = await runner.completeStage('submit_plan', { steps: [] });
  assert.equal(bad.accepted, false);
  assert.equal(bad.error?.code, 'invalid_payload');
  assert.match(bad.text, /`steps` must NOT have fewer than 1 items/);
  assert.equal((await runner.requireActive()).state, 'plan');
  const wrong = await runner.completeStage('submit_diff', { summary: 's' });
  assert.equal(wrong.error?.code, 'wrong_completion_tool');
  const good = await runner.completeStage('submit_plan', { steps: ['edit a.ts'] });
  assert.equal(good.accepted, true, good.text);
  assert.equal((await runner.requireActive()).state, 'execute');
  assert.deepEqual(await kinds(), ['start', 'stage_setup', 'completion_checked', 'completion_checked', 'transition', 'stage_exit', 'next_stage', 'stage_setup']);
  const entries = await journal();
  const exit = entries[5] as Extract<JournalEntry, { kind: 'stage_exit' }>;
  assert.deepEqual([exit.state, exit.outcome, exit.stage_exec_id], ['plan', 'completed', (entries[1] as { stage_exec_id: string }).stage_exec_id]);
  const next = entries[6] as Extract<JournalEntry, { kind: 'next_stage' }>;
  assert.deepEqual([next.from, next.to], [['plan'], ['execute']]);
  const stage = await runner.stage();
  assert.ok(typeof stage !== 'string');
  assert.equal(stage.completion_tool, 'submit_diff');
  assert.match(stage.prompt, /edit a\.ts/);
  assert.notEqual(stage.stage_exec_id, exit.stage_exec_id);
});

test('guards on the completion transition read payload.<field>; re-entering a stage is its next attempt', async (t) => {
  const { runner, journal, file } = setup(t);
  await runner.start(file);
  const table: [string, JsonObject, string][] = [
    ['submit_plan', { steps: ['a'] }, 'execute'],
    ['submit_diff', { summary: 'first' }, 'review'],
    ['submit_review', { approved: false }, 'execute'],
    ['submit_diff', { summary: 'second' }, 'review'],
    ['submit_review', { approved: true }, 'done'],
  ];
  for (const [tool, payload, to] of table) {
    const o = await runner.completeStage(tool, payload);
    assert.equal(o.accepted, true, o.text);
    assert.equal((await runner.requireActive()).state, to, `${tool} ${JSON.stringify(payload)}`);
  }
  assert.equal((await runner.requireActive()).status, 'completed');
  assert.equal((await runner.requireActive()).context.payload, undefined, 'the payload is not merged into the context');
  const setups = (await journal()).filter((e) => e.kind === 'stage_setup') as Extract<JournalEntry, { kind: 'stage_setup' }>[];
  assert.deepEqual(setups.map((e) => `${e.state}#${e.attempt}`), ['plan#1', 'execute#1', 'review#1', 'execute#2', 'review#2']);
  assert.equal(new Set(setups.map((e) => e.stage_exec_id)).size, 5);
  const last = (await journal()).at(-1) as Extract<JournalEntry, { kind: 'next_stage' }>;
  assert.deepEqual([last.kind, last.to, last.status], ['next_stage', [], 'completed']);
});

test('turn cap: the cap-th turn is allowed, one more fails the stage (no on_fail: the run fails)', async (t) => {
  const { runner, journal, file } = setup(t);
  await runner.start(file);
  for (let i = 1; i <= 3; i++) {
    const o = await runner.beginTurn();
    assert.deepEqual([o.allowed, o.turn, o.turn_cap], [true, i, 3]);
  }
  const over = await runner.beginTurn();
  assert.equal(over.allowed, false);
  assert.match(over.failed?.reason ?? '', /turn_cap reached/);
  assert.equal((await runner.requireActive()).status, 'failed');
  const exit = (await journal()).find((e) => e.kind === 'stage_exit') as Extract<JournalEntry, { kind: 'stage_exit' }>;
  assert.deepEqual([exit.outcome, exit.turns], ['failed', 3]);
  assert.equal((await runner.completeStage('submit_plan', { steps: ['a'] })).error?.code, 'not_running');
});

test('turn cap with an on_fail transition: the stage fails there and the run goes on', async (t) => {
  const wf = structuredClone(PIPELINE) as typeof PIPELINE & { states: Record<string, unknown> };
  (wf.states.plan as { on: Record<string, string> }).on = { submit_plan: 'execute', on_fail: 'replan' };
  wf.states.replan = { on: { RETRY: 'plan' } };
  const { runner, file } = setup(t, wf);
  await runner.start(file);
  for (let i = 0; i < 3; i++) await runner.beginTurn();
  const over = await runner.beginTurn();
  assert.deepEqual([over.allowed, over.failed?.to], [false, 'replan']);
  assert.equal((await runner.requireActive()).status, 'running');
  await runner.send('RETRY');
  const again = await runner.stage();
  assert.ok(typeof again !== 'string');
  assert.deepEqual([again.attempt, again.turns], [2, 0], 'a new attempt starts with fresh turns');
});

test('one-shot grants: approved once for that tool and arguments; other arguments ask again', async (t) => {
  const { runner, journal, file } = setup(t);
  await runner.start(file);
  const call = { tool: 'Edit', input: { file_path: 'a.ts', old_string: 'a', new_string: 'b' } };
  assert.equal((await runner.tool(call)).decision, 'deny', 'Edit is outside plan');
  const asked = await runner.askGrant(call.tool, call.input);
  assert.ok(asked.proposal);
  assert.equal(asked.proposal.argsDigest, argsDigest({ new_string: 'b', old_string: 'a', file_path: 'a.ts' }), 'the digest ignores key order');
  const answered = await runner.answerGrant(asked.proposal.id, true);
  assert.equal(answered.approved, true);
  const other = await runner.tool({ tool: 'Edit', input: { ...call.input, new_string: 'c' } });
  assert.equal(other.decision, 'deny', 'other arguments are not covered');
  const first = await runner.tool(call);
  assert.equal(first.decision, 'allow', first.reason);
  const second = await runner.tool(call);
  assert.equal(second.decision, 'deny', 'the grant was used up');
  const kinds = (await journal()).map((e) => e.kind).filter((k) => k.startsWith('grant_'));
  assert.deepEqual(kinds, ['grant_asked', 'grant_answered', 'grant_consumed']);
  // Deny and headless: typed denials, nothing granted.
  for (const by of ['person', 'headless'] as const) {
    const p = (await runner.askGrant('Bash', { command: 'ls' })).proposal!;
    const no = await runner.answerGrant(p.id, by === 'headless', by);
    assert.equal(no.approved, false);
    assert.deepEqual([no.denial?.type, no.denial?.reason, no.denial?.tool], ['denied_tool_call', by === 'headless' ? 'headless' : 'denied', 'Bash']);
    assert.equal((await runner.tool({ tool: 'Bash', input: { command: 'ls' } })).decision, 'deny');
  }
});

test('grants end with their stage execution', async (t) => {
  const { runner, file } = setup(t);
  await runner.start(file);
  const call = { tool: 'Write', input: { file_path: 'n.ts', content: '' } };
  const p = (await runner.askGrant(call.tool, call.input)).proposal!;
  await runner.answerGrant(p.id, true);
  await runner.completeStage('submit_plan', { steps: ['a'] });
  assert.equal((await runner.requireActive()).pipeline?.grants.length, 0);
  assert.equal((await runner.tool(call)).decision, 'deny', 'Write is outside execute, and the plan stage\'s grant is gone');
});

const FAN_OUT = {
  id: 'fan',
  initial: 'plan',
  states: {
    plan: { completion_tool: 'submit_plan', completion_schema: { type: 'object' }, on: { submit_plan: { fork: { branches: { lint: { initial: 'lint', terminal: 'lint_done' }, test: { initial: 'tests', terminal: 'test_done' } }, join: 'all', mode: 'parallel', on_complete: 'review', on_fail: 'failed' } } } },
    lint: { completion_tool: 'submit_lint', completion_schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }, on: { submit_lint: [{ target: 'lint_done', guard: 'ok' }, { target: 'failed' }] } },
    tests: { completion_tool: 'submit_tests', completion_schema: { type: 'object', properties: { passed: { type: 'integer' } }, required: ['passed'] }, on: { submit_tests: 'test_done' } },
    lint_done: { type: 'final' },
    test_done: { type: 'final' },
    review: { prompt: 'lint: {{ upstream.lint.ok }}, tests: {{ upstream.tests.passed }}', completion_tool: 'submit_review', completion_schema: { type: 'object' }, on: { submit_review: 'done' } },
    done: { type: 'final' },
    failed: { type: 'final' },
  },
  guards: { ok: { field: 'payload.ok', op: 'eq', value: true } },
};

test('fan-out: both branch stages run at once, and the join stage reads both results in upstream', async (t) => {
  const { runner, journal, file } = setup(t, FAN_OUT);
  await runner.start(file);
  await runner.completeStage('submit_plan', {});
  const live = await runner.stages();
  assert.deepEqual(live.map((s) => [s.branch, s.state]), [['lint', 'lint'], ['test', 'tests']]);
  assert.match(String(await runner.stage()), /name the branch/);
  assert.equal((await runner.completeStage('submit_tests', { passed: 'x' }, 'test')).error?.code, 'invalid_payload');
  assert.equal((await runner.completeStage('submit_tests', { passed: 12 }, 'test')).accepted, true);
  assert.deepEqual((await runner.stages()).map((s) => s.state), ['lint']);
  assert.equal((await runner.completeStage('submit_lint', { ok: true }, 'lint')).accepted, true);
  const review = await runner.stage();
  assert.ok(typeof review !== 'string', String(review));
  assert.equal(review.state, 'review');
  assert.equal(review.prompt, 'lint: true, tests: 12');
  const scopes = (await journal()).filter((e) => e.kind === 'stage_setup').map((e) => e.scope ?? '');
  assert.deepEqual(scopes, ['', 'branch:lint', 'branch:test', '']);
});

test('fan-out: a failing branch cancels the other and fails the fork', async (t) => {
  const { runner, journal, file } = setup(t, FAN_OUT);
  await runner.start(file);
  await runner.completeStage('submit_plan', {});
  assert.equal((await runner.completeStage('submit_lint', { ok: false }, 'lint')).accepted, true);
  assert.equal((await runner.requireActive()).state, 'failed');
  assert.deepEqual(await runner.stages(), []);
  const exits = (await journal()).filter((e) => e.kind === 'stage_exit') as Extract<JournalEntry, { kind: 'stage_exit' }>[];
  assert.deepEqual(exits.map((e) => [e.state, e.outcome]), [['plan', 'completed'], ['lint', 'completed'], ['tests', 'cancelled']]);
});

test('audit timeline: stages, attempts, turns, grants, completions, decisions', async (t) => {
  const { runner, journal, file } = setup(t);
  await runner.start(file, undefined, { task: 't' });
  await runner.promptSent();
  await runner.beginTurn();
  const p = (await runner.askGrant('Edit', { file_path: 'a' })).proposal!;
  await runner.answerGrant(p.id, false);
  await runner.completeStage('submit_plan', { steps: 3 });
  await runner.beginTurn();
  await runner.completeStage('submit_plan', { steps: ['a'] });
  const tl = auditTimeline(await journal());
  assert.equal(tl.stages.length, 2);
  const plan = tl.stages[0]!;
  assert.deepEqual([plan.state, plan.attempt, plan.turns, plan.outcome, plan.prompt], ['plan', 1, 2, 'completed', 'Plan: t']);
  assert.deepEqual(plan.completions.map((c) => c.valid), [false, true]);
  assert.deepEqual(plan.grants.map((g) => [g.tool, g.approved, g.by]), [['Edit', false, 'person']]);
  assert.ok(plan.duration_ms !== undefined && plan.duration_ms > 0);
  assert.deepEqual(tl.decisions.map((d) => [d.from, d.to]), [[['plan'], ['execute']]]);
  assert.match(auditText(tl), /^plan #1 \(se-1\): completed, 2\/3 turns/);
});

test('a run without stage fields gets no pipeline state and no stage events', async (t) => {
  const { runner, kinds, file } = setup(t, { id: 'plain', initial: 'a', states: { a: { on: { GO: 'b' } }, b: { type: 'final' } } });
  await runner.start(file);
  await runner.send('GO');
  assert.deepEqual(await kinds(), ['start', 'transition']);
  assert.equal((await runner.requireActive()).pipeline, undefined);
  assert.equal((await runner.completeStage('submit_plan', {})).error?.code, 'not_running');
});

test('examples/code-review-pipeline.workflow.json runs Plan -> Execute -> Review, a rejected review going back to Execute', async (t) => {
  const root = tempDir('sg-pipeline-example-', t);
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  await runner.start(path.join(__dirname, '..', '..', 'examples', 'code-review-pipeline.workflow.json'), undefined, { task: 'rename foo' });
  const plan = await runner.stage();
  assert.ok(typeof plan !== 'string');
  assert.match(plan.prompt, /^Plan how to do this task: rename foo/);
  const steps: [string, JsonObject, string][] = [
    ['submit_plan', { steps: ['rename foo to bar in a.ts'] }, 'execute'],
    ['submit_diff', { summary: 'renamed' }, 'review'],
    ['submit_review', { approved: false, comments: ['missed b.ts'] }, 'execute'],
    ['submit_diff', { summary: 'renamed in a.ts and b.ts' }, 'review'],
    ['submit_review', { approved: true }, 'done'],
  ];
  for (const [tool, payload, to] of steps) {
    assert.equal((await runner.completeStage(tool, payload)).accepted, true, tool);
    assert.equal((await runner.requireActive()).state, to);
  }
  assert.equal((await runner.completeStage('submit_plan', { steps: [''] })).error?.code, 'not_running');
});

test('the active stage\'s completion tool passes the envelope in every client spelling; other servers\' tools of that name do not', async (t) => {
  const { runner, file } = setup(t);
  await runner.start(file);
  const table: [string, 'allow' | 'deny'][] = [
    ['submit_plan', 'allow'],
    ['mcp__stategate__submit_plan', 'allow'],
    ['stategate/submit_plan', 'allow'],
    ['mcp__other__submit_plan', 'deny'],
    ['other/submit_plan', 'deny'],
    ['submit_diff', 'deny'], // another stage's tool
    ['mcp__stategate__submit_review', 'deny'],
  ];
  for (const [tool, want] of table) {
    const answer = await runner.tool({ tool, input: { steps: ['a'] } });
    assert.equal(answer.decision, want, tool);
    if (want === 'allow') assert.equal(answer.counted, false, `${tool} is not counted`);
  }
});
