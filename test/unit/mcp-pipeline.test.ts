/**
 * A pipeline advanced by another agent (issue 16 item 3): `run start` on a
 * workflow with stages, then stategate's MCP server (through the real MCP SDK
 * client) lists the active stage's completion tool under its own name with
 * the completion_schema as its input schema; an invalid payload is an
 * ordinary tool result (isError) naming the failing property; a valid one
 * moves the run and the server says tools/list_changed. `stategate hook`
 * lets Claude Code's `mcp__stategate__submit_*` call through the stage's
 * envelope and briefs the agent with each stage's prompt once, at its start.
 * `stategate run audit` prints the timeline.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { cli, CLI, requireBuiltCli, type CliResult } from './helpers/cli';
import { STATE_ENV } from './helpers/state-dir';
import { tempDir } from './helpers/temp-dir';

const PLAN_SCHEMA = { type: 'object', properties: { steps: { type: 'array', items: { type: 'string' }, minItems: 1 } }, required: ['steps'], additionalProperties: false };
const REVIEW_SCHEMA = { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] };

const WORKFLOW = {
  id: 'two-stage',
  initial: 'plan',
  states: {
    plan: { prompt: 'Plan the task: {{ input.task }}', allowed_tools: ['Read'], completion_tool: 'submit_plan', completion_schema: PLAN_SCHEMA, on: { submit_plan: 'review' } },
    review: { prompt: 'Review this plan: {{ upstream.plan.steps }}', allowed_tools: [], completion_tool: 'submit_review', completion_schema: REVIEW_SCHEMA, on: { submit_review: 'done' } },
    done: { type: 'final' },
  },
};

let client: Client;
let cwd: string;
let listChanged = 0;

function text(result: unknown): string {
  return (result as { content: Array<{ text: string }> }).content.map((c) => c.text).join('');
}

function hook(stdin: object): CliResult {
  return cli(['hook', '--client', 'claude'], { cwd, input: JSON.stringify({ session_id: 'cc-1', cwd, transcript_path: '/tmp/t.jsonl', ...stdin }) });
}

function context(r: CliResult): string {
  return String(r.json?.hookSpecificOutput?.additionalContext ?? '');
}

before(async () => {
  requireBuiltCli();
  cwd = tempDir('sg-mcp-pipe-');
  fs.writeFileSync(path.join(cwd, 'two.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'two.workflow.json', '--input', '{"task":"rename foo"}'], { cwd }).code, 0);
  client = new Client({ name: 'test', version: '1.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged++;
  });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...STATE_ENV } }));
});

after(async () => {
  await client.close();
});

test('the hook briefs the first stage once: its prompt (input.task rendered) and how to end it', () => {
  const first = context(hook({ hook_event_name: 'SessionStart' }));
  assert.match(first, /\[STAGE plan\] Plan the task: rename foo/);
  assert.match(first, /End the stage by calling submit_plan/);
  const again = context(hook({ hook_event_name: 'UserPromptSubmit', prompt: 'go on' }));
  assert.doesNotMatch(again, /\[STAGE plan\]/, 'a stage is briefed once, at its start');
});

test('tools/list offers the active stage\'s completion tool with its schema', async () => {
  const { tools } = await client.listTools();
  const submit = tools.find((t) => t.name === 'submit_plan');
  assert.ok(submit, tools.map((t) => t.name).join(', '));
  assert.deepEqual(submit.inputSchema, PLAN_SCHEMA);
  // The later stage's tool is listed too (clients that do not re-list on tools/list_changed must reach it),
  // with its own schema, and refused until its stage is the current one.
  assert.deepEqual(tools.find((t) => t.name === 'submit_review')?.inputSchema, REVIEW_SCHEMA);
  const early = await client.callTool({ name: 'submit_review', arguments: { approved: true } });
  assert.equal(early.isError, true);
  assert.match(text(early), /submit_review completes the stage "review", which is not the current stage; the current stage: "plan" \(ends with submit_plan\)/);
  assert.equal(cli(['run', 'state'], { cwd }).json.state, 'plan', 'the early call changed nothing');
});

test('Claude Code\'s call of the completion tool passes the stage\'s envelope; other tools outside it go to the person (ask), never pass', () => {
  const ok = hook({ hook_event_name: 'PreToolUse', tool_name: 'mcp__stategate__submit_plan', tool_input: { steps: ['x'] } });
  assert.notEqual(ok.json?.hookSpecificOutput?.permissionDecision, 'deny', ok.stdout);
  assert.notEqual(ok.json?.hookSpecificOutput?.permissionDecision, 'ask', ok.stdout);
  // Another server's tool of the completion tool's name is an ordinary tool outside the stage: Claude Code asks the person.
  const other = hook({ hook_event_name: 'PreToolUse', tool_name: 'mcp__other__submit_plan', tool_input: {} });
  assert.equal(other.json?.hookSpecificOutput?.permissionDecision, 'ask');
  const edit = hook({ hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(cwd, 'a'), old_string: 'a', new_string: 'b' } });
  assert.equal(edit.json?.hookSpecificOutput?.permissionDecision, 'ask');
});

test('an invalid payload is an ordinary tool result naming the property; the run stays', async () => {
  const r = await client.callTool({ name: 'submit_plan', arguments: { steps: [] } });
  assert.equal(r.isError, true);
  assert.match(text(r), /`steps` must NOT have fewer than 1 items/);
  assert.equal(cli(['run', 'state'], { cwd }).json.state, 'plan');
});

test('a valid payload ends the stage; the list changes to the next stage\'s tool', async () => {
  const before = listChanged;
  const r = await client.callTool({ name: 'submit_plan', arguments: { steps: ['rename in a.ts'] } });
  assert.equal(r.isError, false, text(r));
  assert.match(text(r), /submit_plan accepted/);
  assert.match(text(r), /\[STAGE review\] Review this plan: \[\s*"rename in a\.ts"\s*\]/);
  assert.equal(cli(['run', 'state'], { cwd }).json.state, 'review');
  for (let i = 0; i < 50 && listChanged === before; i++) await new Promise((res) => setTimeout(res, 20));
  assert.ok(listChanged > before, 'tools/list_changed was sent');
  const { tools } = await client.listTools();
  assert.deepEqual(tools.find((t) => t.name === 'submit_review')?.inputSchema, REVIEW_SCHEMA);
  const again = await client.callTool({ name: 'submit_plan', arguments: { steps: ['x'] } });
  assert.equal(again.isError, true, 'the finished stage\'s tool is refused now');
  assert.match(text(again), /not the current stage; the current stage: "review" \(ends with submit_review\)/);
});

test('a stage started by another process is briefed by the hook at its start, once', (t) => {
  const dir = tempDir('sg-hook-pipe-', t);
  fs.writeFileSync(path.join(dir, 'two.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'two.workflow.json', '--input', '{"task":"t"}'], { cwd: dir }).code, 0);
  const bad = cli(['run', 'complete', 'submit_plan', '--payload', '{"steps":"one"}'], { cwd: dir });
  assert.equal(bad.code, 1);
  assert.match(bad.json.text, /`steps` must be array/);
  assert.equal(cli(['run', 'complete', 'submit_plan', '--payload', '{"steps":["one"]}'], { cwd: dir }).json.accepted, true);
  const at = (event: object) => cli(['hook', '--client', 'claude'], { cwd: dir, input: JSON.stringify({ session_id: 's', cwd: dir, ...event }) });
  const post = String(at({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(dir, 'x') }, tool_response: 'x' }).json?.hookSpecificOutput?.additionalContext ?? '');
  assert.match(post, /\[STAGE review\] Review this plan: \[\s*"one"\s*\]/);
  assert.match(post, /End the stage by calling submit_review/);
  const later = at({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(dir, 'x') }, tool_response: 'x' });
  assert.doesNotMatch(later.stdout, /\[STAGE review\]/);
});

test('the hook does not repeat a brief the completion result already gave', () => {
  const post = hook({ hook_event_name: 'PostToolUse', tool_name: 'mcp__stategate__submit_plan', tool_input: { steps: ['rename in a.ts'] }, tool_response: 'ok' });
  // The MCP call's own result already carried the brief to the model; the hook marks what it delivered once only.
  const brief = context(post) + context(hook({ hook_event_name: 'UserPromptSubmit', prompt: 'next' }));
  assert.doesNotMatch(brief, /\[STAGE (plan|review)\]/, 'the completion\'s result delivered the review brief (prompt_sent), so the hook does not repeat it');
});

test('the second stage completes through MCP and the run ends; run audit prints the timeline', async () => {
  const r = await client.callTool({ name: 'submit_review', arguments: { approved: true } });
  assert.equal(r.isError, false, text(r));
  const state = cli(['run', 'state'], { cwd }).json;
  assert.deepEqual([state.state, state.status], ['done', 'completed']);
  const audit = cli(['run', 'audit', '--json'], { cwd });
  assert.equal(audit.code, 0, audit.stderr);
  assert.deepEqual(audit.json.stages.map((s: { state: string; outcome: string }) => [s.state, s.outcome]), [['plan', 'completed'], ['review', 'completed']]);
  assert.deepEqual(audit.json.stages[0].completions.map((c: { valid: boolean }) => c.valid), [false, true]);
  const kinds = audit.json.events.map((e: { kind: string }) => e.kind);
  // Turns: in plan the hook's two calls outside stategate (mcp__other__submit_plan, Edit; its pass of
  // mcp__stategate__submit_plan is not one) and each MCP completion call; in review the one completion call.
  // Each call put to the person is journaled as a grant proposal (grant_asked).
  assert.deepEqual(kinds, ['stage_setup', 'prompt_sent', 'turn', 'grant_asked', 'turn', 'grant_asked', 'turn', 'completion_checked', 'turn', 'completion_checked', 'stage_exit', 'next_stage', 'stage_setup', 'prompt_sent', 'turn', 'completion_checked', 'stage_exit', 'next_stage']);
  const textForm = cli(['run', 'audit'], { cwd });
  assert.match(textForm.stdout, /^plan #1 \(se-1\): completed/m);
  assert.match(textForm.stdout, /^next: review -> \(none: run completed\)$/m);
});
