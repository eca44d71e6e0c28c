/**
 * The @stategate participant's loop on a statechart run (scripted model, real
 * Runner): tools offered when one active region allows them, a call denied in
 * one region's state and allowed after the event that moves that region, the
 * configuration change reported, the `agent:` task offered with its input and
 * finished with stategate_invocation_done; the custom agent file offers the
 * union too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Runner } from '../../src/engine/runs/runner';
import { describeAgentCall } from '../../src/engine/runs/agent-tools';
import './helpers/state-dir';
import { customAgentMarkdown, taskAgentFile, taskAgentMarkdown, WRITTEN_MARKER } from '../../src/vscode/agents/custom-agent';
import { currentView, runLoop, type LoopDeps, type LoopEvent, type ModelTurn, type ToolCallRequest, type TranscriptEntry } from '../../src/vscode/agents/participant-loop';
import { offerRules, offeredTools } from '../../src/vscode/agents/tool-offer';
import { REPO_ROOT } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const CHART = path.join(REPO_ROOT, 'test', 'fixtures', 'hooks', 'statechart', 'review.statechart.yaml');
const CLIENT_TOOLS = ['read_file', 'grep_search', 'replace_string_in_file', 'fetch_webpage'];

async function setup(t: { after(fn: () => void): void }): Promise<{ runner: Runner; root: string }> {
  const root = tempDir('sg-agents-chart-', t);
  fs.copyFileSync(CHART, path.join(root, 'review.statechart.yaml'));
  fs.writeFileSync(path.join(root, 'a.ts'), 'a\n');
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  await runner.start(path.join(root, 'review.statechart.yaml'));
  return { runner, root };
}

let n = 0;
const call = (name: string, input: unknown = {}): ToolCallRequest => ({ callId: `c${++n}`, name, input });

test('a call denied in one region\'s state runs after the event that moves that region; the agent task is offered and finished', async (t) => {
  const { runner, root } = await setup(t);
  const edit = { filePath: path.join(root, 'a.ts'), oldString: 'a', newString: 'b' };
  const turns: ModelTurn[] = [
    { text: '', calls: [call('replace_string_in_file', edit)] },
    { text: '', calls: [call('statewright_transition', { event: 'CHANGES_REQUESTED' })] },
    { text: '', calls: [call('replace_string_in_file', edit)] },
    { text: '', calls: [call('stategate_invocation_done', { id: 'summary_task', data: { notes: 'ok' } })] },
  ];
  const seen: { system: string; tools: string[]; last: string[] }[] = [];
  const invoked: string[] = [];
  const events: LoopEvent[] = [];
  const deps: LoopDeps = {
    runner,
    session: {},
    toolIds: () => CLIENT_TOOLS,
    ask: async ({ system, transcript, tools }) => {
      const last = transcript[transcript.length - 1];
      seen.push({ system, tools: [...tools], last: last?.kind === 'results' ? last.results.map((r) => r.text) : [] });
      return turns.shift() ?? { text: 'done', calls: [] };
    },
    invoke: async (name) => {
      invoked.push(name);
      return `ok from ${name}`;
    },
    report: (e) => events.push(e),
  };
  const transcript: TranscriptEntry[] = [{ kind: 'user', text: 'review it' }];
  assert.equal(await runLoop(transcript, deps), 'done');

  // Read (code region) and Grep (notes region) are both offered; edits and WebFetch are not.
  assert.deepEqual(seen[0]!.tools.filter((x) => CLIENT_TOOLS.includes(x)), ['read_file', 'grep_search']);
  assert.ok(seen[0]!.tools.includes('stategate_invocation_done'));
  assert.match(seen[0]!.system, /configuration review\.code\.reading \| review\.notes\.searching/);
  assert.match(seen[1]!.last[0] ?? '', /^stategate denied replace_string_in_file: .*configuration: review\.code\.reading, review\.notes\.searching.*CHANGES_REQUESTED/s);
  assert.match(seen[2]!.last[0] ?? '', /Transition CHANGES_REQUESTED: now in review\.code\.editing \| review\.notes\.searching/);
  assert.ok(seen[2]!.tools.includes('replace_string_in_file'), seen[2]!.tools.join(', '));
  assert.equal(seen[3]!.last[0], 'ok from replace_string_in_file');
  assert.deepEqual(invoked, ['replace_string_in_file']);
  assert.match(seen[4]!.last[0] ?? '', /Invocation summary_task done/);
  assert.deepEqual((await currentView(runner, {}))?.configuration, ['review.code.editing', 'review.notes.summarised']);

  // What the chat showed: the task first, the denial, the configuration moving.
  assert.deepEqual(events[0], { kind: 'task', id: 'summary_task', agent: 'stategate', input: { topic: 'release notes' } });
  assert.ok(events.some((e) => e.kind === 'denied'));
  assert.ok(events.some((e) => e.kind === 'state' && e.from === 'review.code.reading | review.notes.searching' && e.to === 'review.code.editing | review.notes.searching'));
});

test('the tool offer and the custom agent file take the union of the active states', async (t) => {
  const { runner } = await setup(t);
  const view = await currentView(runner, {});
  const rules = offerRules(view, false);
  assert.deepEqual(offeredTools(CLIENT_TOOLS, rules), ['read_file', 'grep_search']);
  const md = customAgentMarkdown(view, rules, CLIENT_TOOLS.map((id) => ({ id })));
  assert.match(md, /^tools: \["read_file", "grep_search"\]$/m);
  assert.match(md, /In "review\.notes\.searching":/);
});

test('the language-model tool\'s confirmation names the configuration and the target', async (t) => {
  const { runner } = await setup(t);
  assert.equal(await describeAgentCall(runner, 'statewright_transition', { event: 'CHANGES_REQUESTED' }), 'Transition CHANGES_REQUESTED from review.code.reading | review.notes.searching → review.code.editing');
});

test('an agent: task for another agent gets a custom agent file of that name, with the task and the run\'s tools', async (t) => {
  const { runner } = await setup(t);
  const view = (await currentView(runner, {}))!;
  assert.equal(taskAgentFile('security'), '.github/agents/security.agent.md');
  assert.equal(taskAgentFile('stategate'), undefined, '@stategate takes its own tasks');
  assert.equal(taskAgentFile('../x'), undefined);
  const task = { id: 'scan', state: 'review.notes.searching', agent: 'security', input: { depth: 2 } };
  const md = taskAgentMarkdown(task, view, offerRules(view, false), [...CLIENT_TOOLS, 'stategate_invocation_done'].map((id) => ({ id })));
  assert.match(md, /^tools: \["read_file", "grep_search", "stategate_invocation_done"\]$/m);
  assert.match(md, /Your task \(invocation scan of state review\.notes\.searching\), input: \{"depth":2\}\. When it is done, call stategate_invocation_done with id "scan"/);
  assert.ok(md.includes(WRITTEN_MARKER));
});
