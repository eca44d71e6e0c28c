/**
 * `stategate mcp` on a statechart run: the briefing per active state,
 * statewright_transition listing (and only accepting) the events of the
 * configuration, the tool list announced again after a move, and an
 * `agent:` task finished with stategate_invocation_done.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, REPO_ROOT, requireBuiltCli } from './helpers/cli';
import { STATE_ENV } from './helpers/state-dir';
import { tempDir } from './helpers/temp-dir';

const CHART = path.join(REPO_ROOT, 'test', 'fixtures', 'hooks', 'statechart', 'review.statechart.yaml');

let client: Client;
let listChanged = 0;

function text(result: unknown): string {
  return (result as { content: Array<{ text: string }> }).content.map((c) => c.text).join('');
}

async function transitionTool(): Promise<{ description?: string; inputSchema: { properties?: Record<string, { enum?: string[] }> } }> {
  const { tools } = await client.listTools();
  return tools.find((t) => t.name === 'statewright_transition') as never;
}

before(async () => {
  requireBuiltCli();
  const cwd = tempDir('sg-mcp-chart-');
  fs.copyFileSync(CHART, path.join(cwd, 'review.statechart.yaml'));
  client = new Client({ name: 'test', version: '1.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged++;
  });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...STATE_ENV } }));
});

after(async () => {
  await client.close();
});

test('the invocation tools are listed; with no run, statewright_transition takes any event name', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  assert.ok(names.includes('stategate_invocation_done') && names.includes('stategate_invocation_fail'), names.join(', '));
  assert.equal((await transitionTool()).inputSchema.properties?.event?.enum, undefined);
});

test('statewright_load_workflow starts the statechart and briefs every active state', async () => {
  const r = await client.callTool({ name: 'statewright_load_workflow', arguments: { name: 'hook_review' } });
  assert.equal(r.isError, false, text(r));
  assert.match(text(r), /configuration review\.code\.reading \| review\.notes\.searching/);
  assert.match(text(r), /In "review\.code\.reading":\n {2}Instructions: Read the diff\./);
  assert.match(text(r), /summary_task for agent "stategate"/);
});

test('statewright_transition lists the events the configuration handles, and only those', async () => {
  const tool = await transitionTool();
  assert.deepEqual(tool.inputSchema.properties?.event?.enum, ['CHANGES_REQUESTED']);
  assert.match(tool.description ?? '', /configuration: review\.code\.reading \| review\.notes\.searching\)\. Events handled now: CHANGES_REQUESTED\./);
});

test('statewright_transition moves one region; the tool list is announced again and lists the new events', async () => {
  const seen = listChanged;
  const r = await client.callTool({ name: 'statewright_transition', arguments: { event: 'CHANGES_REQUESTED' } });
  assert.equal(r.isError, false, text(r));
  assert.match(text(r), /Transition CHANGES_REQUESTED: now in review\.code\.editing \| review\.notes\.searching\./);
  for (let i = 0; i < 50 && listChanged === seen; i++) await new Promise((res) => setTimeout(res, 20));
  assert.ok(listChanged > seen, 'notifications/tools/list_changed after a move');
  assert.deepEqual((await transitionTool()).inputSchema.properties?.event?.enum, ['DONE']);
});

test('an event no active state handles changes nothing and says so', async () => {
  const r = await client.callTool({ name: 'statewright_transition', arguments: { event: 'NOT_HANDLED' } });
  assert.equal(r.isError, false);
  assert.match(text(r), /Event NOT_HANDLED changed nothing: no active state handles it now\./);
});

test('stategate_invocation_done finishes the agent task: its onDone moves the region', async () => {
  const unknown = await client.callTool({ name: 'stategate_invocation_done', arguments: { id: 'nope' } });
  assert.equal(unknown.isError, true);
  assert.match(text(unknown), /Invocation nope could not be marked done/);
  const r = await client.callTool({ name: 'stategate_invocation_done', arguments: { id: 'summary_task', data: { notes: 'three fixes' } } });
  assert.equal(r.isError, false, text(r));
  assert.match(text(r), /Invocation summary_task done/);
  const state = text(await client.callTool({ name: 'statewright_get_state', arguments: {} }));
  assert.match(state, /configuration review\.code\.editing \| review\.notes\.summarised/);
  assert.doesNotMatch(state, /summary_task/);
});

test('stategate_invocation_fail without an id is refused, not crashed', async () => {
  const r = await client.callTool({ name: 'stategate_invocation_fail', arguments: {} });
  assert.equal(r.isError, true);
  assert.match(text(r), /`id` must be a non-empty string/);
});
