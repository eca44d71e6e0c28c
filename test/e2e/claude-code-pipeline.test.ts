// The real Claude Code CLI advances a two-stage pipeline (issue 16, "Done
// when") through stategate's MCP server: the active stage's completion tool
// is offered under its own name (`submit_plan`, then `submit_review` after
// tools/list_changed), a payload that fails the stage's schema comes back as
// an error result naming the property and the stage stays, a valid one moves
// the run on. The model is the scripted fake of the Anthropic API
// (fake-anthropic.ts, claude-session.ts); the hook is the one "Enable Agent
// Enforcement" writes, so the completion calls also pass the stage's envelope.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { assertRan, claudeSession } from './claude-session';

const WORKFLOW = {
  id: 'two-stage',
  initial: 'plan',
  states: {
    plan: {
      prompt: 'Plan this task: {{ input.task }}',
      allowed_tools: ['Read'],
      completion_tool: 'submit_plan',
      completion_schema: { type: 'object', properties: { steps: { type: 'array', items: { type: 'string' }, minItems: 1 } }, required: ['steps'] },
      on: { submit_plan: 'review' },
    },
    review: {
      prompt: 'Review the plan: {{ upstream.plan.steps }}',
      allowed_tools: [],
      completion_tool: 'submit_review',
      completion_schema: { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] },
      on: { submit_review: 'done' },
    },
    done: { type: 'final' },
  },
};

test('Claude Code advances a two-stage pipeline through the MCP completion tools', { timeout: 600_000 }, async (t: TestContext) => {
  const s = await claudeSession(t, WORKFLOW);
  if (!s) return;
  // Replaces the plain run claudeSession started, on purpose.
  s.cli(['run', 'start', 'x.workflow.json', '--replace', '--input', JSON.stringify({ task: 'rename foo' })]);
  const plan = 'mcp__stategate__submit_plan';
  const review = 'mcp__stategate__submit_review';
  s.model.turns = [
    { type: 'tool_use', name: plan, input: { steps: [] } },
    { type: 'tool_use', name: plan, input: { steps: ['rename foo in a.ts'] } },
    { type: 'tool_use', name: review, input: { approved: true } },
  ];
  const run = await s.run('do the task', ['--mcp-config', s.mcpConfig, '--strict-mcp-config', '--allowedTools', plan, review], { ENABLE_TOOL_SEARCH: 'false' });
  const results = s.model.results(0);

  await t.test('claude -p ran the three calls', () => {
    assertRan(run);
    assert.equal(results.length, 3, JSON.stringify(results));
  });

  await t.test('the first stage was briefed and its completion tool offered with its schema', () => {
    const first = s.model.main[0]!;
    const tool = (first.tools ?? []).find((x) => x.name === plan) as { input_schema?: { required?: string[] } } | undefined;
    assert.ok(tool, `offered: ${(first.tools ?? []).map((x) => x.name).join(', ')}`);
    assert.deepEqual(tool.input_schema?.required, ['steps']);
    assert.match(JSON.stringify(first.messages ?? []), /\[STAGE plan\] Plan this task: rename foo/);
  });

  await t.test('the invalid payload was an error result naming the property; the valid one moved the run', () => {
    assert.equal(results[0]!.is_error, true, results[0]!.text);
    assert.match(results[0]!.text, /`steps` must NOT have fewer than 1 items/);
    assert.equal(results[1]!.is_error, false, results[1]!.text);
    assert.match(results[1]!.text, /submit_plan accepted/);
    assert.match(results[1]!.text, /\[STAGE review\] Review the plan: \[\s*\\?"rename foo in a\.ts\\?"/);
  });

  await t.test('the second stage\'s tool, listed after the change, ended the run', () => {
    assert.equal(results[2]!.is_error, false, results[2]!.text);
    const offered = (s.model.main[2]?.tools ?? []).map((x) => x.name);
    assert.ok(offered.includes(review), `after the change Claude Code offered: ${offered.join(', ')}`);
    const view = s.cli(['run', 'state']) as { state: string; status: string };
    assert.deepEqual([view.state, view.status], ['done', 'completed']);
    const kinds = s.journal().map((e) => e.kind).filter((k) => ['stage_setup', 'completion_checked', 'stage_exit', 'next_stage'].includes(k));
    assert.deepEqual(kinds, ['stage_setup', 'completion_checked', 'completion_checked', 'stage_exit', 'next_stage', 'stage_setup', 'completion_checked', 'stage_exit', 'next_stage']);
  });
});
