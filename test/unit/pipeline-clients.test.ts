/**
 * A pipeline driven by an agent outside the participant (issue 16, left items
 * 1 and 2), through the built CLI as the agent's client runs it (the hook and
 * the MCP server as processes; the run commands through the CLI's main in this
 * process, helpers/cli-in-process.ts):
 * - security modes: `run start --security-mode`, the workflow's
 *   meta.security_mode; under yolo `stategate hook` tells Claude Code / VS Code
 *   a call inside the stage's tools is approved (permissionDecision "allow"),
 *   under ask it says nothing; a call outside the stage's tools is put to the
 *   person ("ask", a one-shot grant) and the workflow's hard denials are
 *   denied in both.
 * - turn caps: each tool call through the hook is a turn of the stage (one per
 *   call id, however many hooks ask), each completion call through the MCP
 *   server is one; past turn_cap the stage fails (on_fail, else the run).
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cli, CLI, requireBuiltCli, type CliResult } from './helpers/cli';
import { cliInProcess } from './helpers/cli-in-process';
import { STATE_ENV } from './helpers/state-dir';
import { tempDir } from './helpers/temp-dir';

const PLAN_SCHEMA = { type: 'object', properties: { steps: { type: 'array', items: { type: 'string' }, minItems: 1 } }, required: ['steps'] };

function workflow(extra: { meta?: object; turnCap?: number; onFail?: boolean } = {}): object {
  return {
    id: 'caps',
    ...(extra.meta ? { meta: extra.meta } : {}),
    initial: 'plan',
    states: {
      plan: {
        prompt: 'Plan: {{ input.task }}',
        allowed_tools: ['Read', 'Bash'],
        disallowed_tools: ['WebFetch'],
        allowed_commands: ['ls', 'cat'],
        completion_tool: 'submit_plan',
        completion_schema: PLAN_SCHEMA,
        ...(extra.turnCap ? { turn_cap: extra.turnCap } : {}),
        on: { submit_plan: 'done', ...(extra.onFail ? { on_fail: 'replan' } : {}) },
      },
      ...(extra.onFail ? { replan: { allowed_tools: ['Read'], on: { retry: 'plan' } } } : {}),
      done: { type: 'final' },
    },
  };
}

async function setup(t: { name: string }, wf: object, startArgs: string[] = []): Promise<{ cwd: string; start: CliResult }> {
  const cwd = tempDir('sg-pipe-clients-');
  fs.writeFileSync(path.join(cwd, 'caps.workflow.json'), JSON.stringify(wf));
  const start = await cliInProcess(['run', 'start', 'caps.workflow.json', '--input', JSON.stringify({ task: t.name }), ...startArgs], { cwd });
  return { cwd, start };
}

let callNo = 0;
function pre(cwd: string, tool_name: string, tool_input: object, opts: { client?: 'claude' | 'vscode'; id?: string } = {}): CliResult {
  const id = opts.id ?? `toolu_${++callNo}`;
  const body = opts.client === 'vscode'
    ? { hookEventName: 'PreToolUse', sessionId: 's-1', cwd, tool_name, tool_input, tool_use_id: id, timestamp: '2026-11-28T00:00:00Z' }
    : { hook_event_name: 'PreToolUse', session_id: 's-1', cwd, tool_name, tool_input, tool_use_id: id };
  return cli(['hook', '--client', opts.client ?? 'claude'], { cwd, input: JSON.stringify(body) });
}

function decision(r: CliResult): string | undefined {
  return r.json?.hookSpecificOutput?.permissionDecision;
}

async function state(cwd: string): Promise<any> {
  return (await cliInProcess(['run', 'state'], { cwd })).json;
}

function journal(cwd: string): any[] {
  const runs = path.join(cwd, '.stategate', 'runs');
  const [id] = fs.readdirSync(runs);
  return fs.readFileSync(path.join(runs, id!, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

before(() => requireBuiltCli());

test('security mode ask (the default): an in-envelope call is allowed without a word, so the client keeps its own confirmation', async (t) => {
  const { cwd, start } = await setup(t, workflow());
  assert.equal(start.code, 0, start.stderr);
  assert.equal((await cliInProcess(['run', 'stage'], { cwd })).json.security_mode, 'ask');
  const r = pre(cwd, 'Read', { file_path: 'a.ts' });
  assert.equal(r.code, 0);
  assert.equal(decision(r), undefined, r.stdout);
  assert.ok(!journal(cwd).some((e) => e.kind === 'security_mode'), 'the default is not a choice: nothing journaled');
});

test('security mode yolo (run start flag): in-envelope calls approved for Claude Code and VS Code; journaled', async (t) => {
  const { cwd, start } = await setup(t, workflow(), ['--security-mode', 'yolo']);
  assert.equal(start.code, 0, start.stderr);
  assert.equal(start.json.security_mode, 'yolo');
  assert.equal((await cliInProcess(['run', 'stage'], { cwd })).json.security_mode, 'yolo');
  const claude = pre(cwd, 'Read', { file_path: 'a.ts' });
  assert.equal(decision(claude), 'allow', claude.stdout);
  assert.match(claude.json.hookSpecificOutput.permissionDecisionReason, /security mode yolo/);
  const vscode = pre(cwd, 'read_file', { filePath: 'a.ts' }, { client: 'vscode' });
  assert.equal(decision(vscode), 'allow', vscode.stdout);
  const chosen = journal(cwd).filter((e) => e.kind === 'security_mode');
  assert.deepEqual(chosen.map((e) => [e.mode, e.source, e.requested_by]), [['yolo', 'run', 'run']]);
});

test('yolo approves nothing the stage does not allow: out-of-envelope calls go to the person (ask), commands outside allowed_commands stay denied', async (t) => {
  const { cwd } = await setup(t, workflow(), ['--security-mode', 'yolo']);
  // Outside the stage's tools: Claude Code's own prompt decides (a one-shot grant), never yolo.
  for (const [tool, input] of [['Write', { file_path: 'a.ts', content: 'x' }], ['WebFetch', { url: 'http://x' }]] as const) {
    const r = pre(cwd, tool, input);
    assert.equal(decision(r), 'ask', `${tool}: ${r.stdout}`);
    assert.match(r.json.hookSpecificOutput.permissionDecisionReason, new RegExp(`${tool} is outside the tools of stage "plan"`));
  }
  const rm = pre(cwd, 'Bash', { command: 'rm -rf /tmp/x' });
  assert.equal(decision(rm), 'deny', rm.stdout);
  const ok = pre(cwd, 'Bash', { command: 'ls' });
  assert.equal(decision(ok), 'allow', ok.stdout);
});

test('meta.security_mode sets the mode; the run start flag overrides it; a bad mode is a usage error', async (t) => {
  const fromMeta = await setup(t, workflow({ meta: { security_mode: 'yolo' } }));
  assert.equal((await cliInProcess(['run', 'stage'], { cwd: fromMeta.cwd })).json.security_mode, 'yolo');
  assert.equal(decision(pre(fromMeta.cwd, 'Read', { file_path: 'a.ts' })), 'allow');
  const overridden = await setup(t, workflow({ meta: { security_mode: 'yolo' } }), ['--security-mode', 'ask']);
  assert.equal((await cliInProcess(['run', 'stage'], { cwd: overridden.cwd })).json.security_mode, 'ask');
  assert.equal(decision(pre(overridden.cwd, 'Read', { file_path: 'a.ts' })), undefined);
  const bad = await setup(t, workflow(), ['--security-mode', 'always']);
  assert.equal(bad.start.code, 2);
  assert.match(bad.start.json.error.message, /--security-mode must be ask or yolo/);
  const invalid = cli(['validate', '--json', 'caps.workflow.json'], { cwd: (await setup(t, workflow({ meta: { security_mode: 'sometimes' } }))).cwd });
  assert.equal(invalid.code, 1, 'an unknown meta.security_mode is a validation error');
});

test('turn cap through the hook: each tool call is a turn; the call past turn_cap fails the stage and the run', async (t) => {
  const { cwd } = await setup(t, workflow({ turnCap: 2 }));
  assert.equal(decision(pre(cwd, 'Read', { file_path: 'a.ts' })), undefined);
  // A call put to the person (outside the stage's tools) is a turn too: the model spent it.
  assert.equal(decision(pre(cwd, 'Write', { file_path: 'a.ts', content: 'x' })), 'ask');
  assert.equal((await cliInProcess(['run', 'stage'], { cwd })).json.turns, 2);
  const third = pre(cwd, 'Read', { file_path: 'b.ts' });
  assert.equal(decision(third), 'deny');
  assert.match(third.json.hookSpecificOutput.permissionDecisionReason, /turn_cap reached: stage "plan" took its 2 turns.*the run is failed/);
  assert.equal((await state(cwd)).status, 'failed');
  const exit = journal(cwd).find((e) => e.kind === 'stage_exit');
  assert.deepEqual([exit.outcome, exit.turns], ['failed', 2]);
});

test('turn cap through the hook with on_fail: the stage fails into its on_fail state and the run goes on', async (t) => {
  const { cwd } = await setup(t, workflow({ turnCap: 1, onFail: true }));
  assert.equal(decision(pre(cwd, 'Read', { file_path: 'a.ts' })), undefined);
  const second = pre(cwd, 'Read', { file_path: 'b.ts' });
  assert.equal(decision(second), 'deny');
  assert.match(second.json.hookSpecificOutput.permissionDecisionReason, /moved to "replan"/);
  assert.deepEqual([(await state(cwd)).state, (await state(cwd)).status], ['replan', 'running']);
});

test('one call asked by two hooks (VS Code reads two hook files) is one turn; stategate\'s own tools and the completion tool are not counted by the hook', async (t) => {
  const { cwd } = await setup(t, workflow({ turnCap: 5 }));
  pre(cwd, 'Read', { file_path: 'a.ts' }, { id: 'same-call' });
  pre(cwd, 'Read', { file_path: 'a.ts' }, { id: 'same-call' });
  pre(cwd, 'mcp__stategate__statewright_get_state', {});
  pre(cwd, 'mcp__stategate__submit_plan', { steps: [] });
  assert.equal((await cliInProcess(['run', 'stage'], { cwd })).json.turns, 1);
  assert.deepEqual(journal(cwd).filter((e) => e.kind === 'turn').map((e) => e.turn), [1]);
});

test('turn cap through the MCP server: each completion call is a turn; the call past the cap fails the stage unchecked', async (t) => {
  const { cwd } = await setup(t, workflow({ turnCap: 2 }));
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...STATE_ENV } }));
  try {
    const text = (r: unknown): string => (r as { content: Array<{ text: string }> }).content.map((c) => c.text).join('');
    const first = await client.callTool({ name: 'submit_plan', arguments: { steps: [] } });
    assert.equal(first.isError, true);
    assert.match(text(first), /`steps` must NOT have fewer than 1 items/);
    // The hook's call in between counts too (a Read): the cap of 2 is reached.
    assert.equal(decision(pre(cwd, 'Read', { file_path: 'a.ts' })), undefined);
    const third = await client.callTool({ name: 'submit_plan', arguments: { steps: ['a'] } });
    assert.equal(third.isError, true);
    assert.match(text(third), /Stage "plan" failed: turn_cap reached.*The payload was not checked/s);
    assert.equal((await state(cwd)).status, 'failed');
    assert.deepEqual(journal(cwd).filter((e) => e.kind === 'completion_checked').map((e) => e.valid), [false], 'the payload past the cap was never checked');
  } finally {
    await client.close();
  }
});
