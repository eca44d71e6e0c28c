/** The MCP server speaks the protocol over stdio: tools/list and tools/call for every tool. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, requireBuiltCli } from './helpers/cli';
import { STATE_ENV } from './helpers/state-dir';
import { tempDir } from './helpers/temp-dir';

const WORKFLOW = {
  id: 'review',
  initial: 'reading',
  // These tests are about the tools working: the workflow grants the agent the acts that are a person's otherwise
  // (test/unit/agent-may.test.ts has the refusals).
  meta: { debug: true, agent_may: ['pause', 'load_workflow', 'force'] },
  states: {
    reading: { allowed_tools: ['Read'], instructions: 'Read first.', on: { READY: 'editing' } },
    editing: { allowed_tools: ['Read', 'Edit'], on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};

let client: Client;
let cwd: string;

function text(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text: string }> }).content;
  return content.map((c) => c.text).join('');
}

before(async () => {
  requireBuiltCli();
  cwd = tempDir('sg-mcp-');
  fs.writeFileSync(path.join(cwd, 'review.workflow.json'), JSON.stringify(WORKFLOW));
  client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...STATE_ENV } }));
});

after(async () => {
  await client.close();
});

test('tools/call statewright_get_state with no run says nothing is enforced', async () => {
  const r = await client.callTool({ name: 'statewright_get_state', arguments: {} });
  assert.match(text(r), /no workflow is active/);
});

test('tools/call statewright_list_workflows lists the workspace workflows', async () => {
  const r = await client.callTool({ name: 'statewright_list_workflows', arguments: {} });
  assert.match(text(r), /^- review \(review\.workflow\.json, 3 states\)$/m);
});

test('tools/call statewright_load_workflow starts it and tells the agent the state', async () => {
  const r = await client.callTool({ name: 'statewright_load_workflow', arguments: { name: 'review' } });
  assert.equal(r.isError, false);
  assert.match(text(r), /state "reading"/);
  assert.match(text(r), /Instructions: Read first\./);
  assert.match(text(r), /- READY → editing/);
});

test('tools/list has every agent tool, force_state included for a debug workflow', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name).sort(),
    ['stategate_invocation_done', 'stategate_invocation_fail', 'statewright_force_state', 'statewright_get_state', 'statewright_list_workflows', 'statewright_load_workflow', 'statewright_pause', 'statewright_record_learning', 'statewright_transition'],
  );
  assert.equal(tools.find((t) => t.name === 'statewright_get_state')?.annotations?.readOnlyHint, true);
});

test('tools/call statewright_transition moves the run and reports from → to', async () => {
  const r = await client.callTool({ name: 'statewright_transition', arguments: { event: 'READY' } });
  assert.match(text(r), /Transition READY: reading → editing/);
});

test('tools/call statewright_transition with an unknown event is an error the agent can read', async () => {
  const r = await client.callTool({ name: 'statewright_transition', arguments: { event: 'NOPE' } });
  assert.equal(r.isError, true);
  assert.match(text(r), /NOPE.*available: DONE/s);
});

test('tools/call statewright_transition with data nested past 256 levels is refused, the run stays, the server answers on', async () => {
  const deep: unknown = JSON.parse(`${'{"a": '.repeat(3000)}1${'}'.repeat(3000)}`);
  const r = await client.callTool({ name: 'statewright_transition', arguments: { event: 'DONE', data: deep } });
  assert.equal(r.isError, true);
  assert.match(text(r), /more than 256 levels deep.*nothing was changed/);
  assert.match(text((await client.callTool({ name: 'statewright_get_state', arguments: {} }))), /state "editing"/);
});

test('tools/call statewright_transition without an event is refused, not crashed', async () => {
  const r = await client.callTool({ name: 'statewright_transition', arguments: {} });
  assert.equal(r.isError, true);
  assert.match(text(r), /`event` must be a non-empty string/);
});

test('tools/call statewright_force_state jumps in a debug workflow', async () => {
  const r = await client.callTool({ name: 'statewright_force_state', arguments: { state: 'reading', context: { note: 'x' } } });
  assert.equal(r.isError, false, text(r));
  assert.match(text(r), /Forced editing → reading/);
});

test('tools/call statewright_record_learning writes the run record and learnings.jsonl; a learning without a lesson is an error the agent can read', async () => {
  const r = await client.callTool({ name: 'statewright_record_learning', arguments: { lesson: 'Tests live beside the code', type: 'pattern', context: 'layout' } });
  assert.equal(r.isError, false, text(r));
  const runId = fs.readFileSync(path.join(cwd, '.stategate', 'active'), 'utf8').trim();
  const record = JSON.parse(fs.readFileSync(path.join(cwd, '.stategate', 'runs', runId, 'agent-state.json'), 'utf8'));
  assert.equal(record.learnings.at(-1).lesson, 'Tests live beside the code');
  const lines = fs.readFileSync(path.join(cwd, '.stategate', 'runs', runId, 'learnings.jsonl'), 'utf8').trim().split('\n');
  assert.equal(JSON.parse(lines.at(-1)!).type, 'pattern');
  const bad = await client.callTool({ name: 'statewright_record_learning', arguments: { type: 'pattern' } });
  assert.equal(bad.isError, true);
  assert.match(text(bad), /`lesson` must be a non-empty string/);
});

test('tools/call statewright_pause pauses the run', async () => {
  const r = await client.callTool({ name: 'statewright_pause', arguments: {} });
  assert.match(text(r), /Paused in state "reading"/);
  const state = await client.callTool({ name: 'statewright_get_state', arguments: {} });
  assert.match(text(state), /status paused/);
});
