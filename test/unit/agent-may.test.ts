/**
 * Issue 29, "nothing the agent calls loosens the run": pausing, loading another
 * workflow over an enforced run and forcing a state are a person's acts unless
 * the run's workflow grants them (`meta.agent_may`). Refused, the run is
 * byte-for-byte unchanged and the answer says how a person does it. Checked on
 * the loader, on the one engine function every shell uses (invokeAgentTool:
 * MCP, VS Code's language-model tools, the @stategate participant), through
 * the real `stategate mcp` stdio server, and through `stategate hook` for
 * another MCP server's look-alikes of stategate's tools.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Runner } from '../../src/engine/runs/runner';
import { invokeAgentTool, type AgentSession } from '../../src/engine/runs/agent-tools';
import { checkWorkflowFile } from '../../src/engine/check/check-file';
import { isOwnTool } from '../../src/engine/agent/tools';
import type { HookClientName } from '../../src/engine/clients/hook-install';
import { ownToolSpelling } from '../../src/cli/hook-dialects';
import { analyseForPolicy, rewriteForPolicy } from '../../src/engine/shell/gate';
import { CLI, cli, requireBuiltCli, type CliResult } from './helpers/cli';
import { STATE_ENV } from './helpers/state-dir';
import { tempDir } from './helpers/temp-dir';

type Act = 'pause' | 'stop' | 'load_workflow' | 'force';

function gated(agentMay?: readonly Act[], debug = true): object {
  return {
    id: 'gated',
    initial: 'working',
    meta: { debug, ...(agentMay ? { agent_may: agentMay } : {}) },
    states: {
      working: { allowed_tools: ['Read'], on: { SHIP: { target: 'done', requires_approval: true }, FINISH: 'done' } },
      done: { type: 'final' },
    },
  };
}

/** A workflow the agent wrote itself: every tool allowed. */
const LOOSE = { id: 'loose', initial: 'free', states: { free: { on: { END: 'over' } }, over: { type: 'final' } } };

// ---------------------------------------------------------------------------
// The field: read, and checked like every meta key.

const fieldRows: readonly (readonly [name: string, agentMay: unknown, error: RegExp | undefined, read: readonly string[] | undefined])[] = [
  ['absent: none granted', undefined, undefined, undefined],
  ['every act', ['pause', 'stop', 'load_workflow', 'force'], undefined, ['pause', 'stop', 'load_workflow', 'force']],
  ['an empty list', [], undefined, []],
  ['an unknown act, with a suggestion', ['pasue'], /Each item of `agent_may` must be one of "pause", "stop", "load_workflow", "force"; found "pasue"\..*Did you mean `pause`/, []],
  ['approve is never the agent\'s', ['approve'], /found "approve"\. Approving is always a person's act/, []],
  ['not a list', 'pause', /`agent_may` must be an array of strings; found a string/, undefined],
  ['a non-string item', [true], /Each item of `agent_may` must be a string/, []],
];

for (const [name, agentMay, error, read] of fieldRows) {
  test(`meta.agent_may: ${name}`, () => {
    const meta = agentMay === undefined ? {} : { agent_may: agentMay };
    const doc = { id: 'w', initial: 'a', meta, states: { a: { on: { GO: 'b' } }, b: { type: 'final' } } };
    const result = checkWorkflowFile(JSON.stringify(doc), '/tmp/w.workflow.json', { resolveInvoke: false });
    const errors = result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
    if (error) assert.ok(errors.some((m) => error.test(m)), `no error matching ${error}: ${JSON.stringify(errors)}`);
    else assert.deepEqual(errors, []);
    assert.deepEqual(result.workflow?.meta.agentMay, read);
  });
}

test('meta.agent_may on a statechart is read the same way', () => {
  const text = ['statechart:', '  id: c', '  initial: a', '  meta:', '    agent_may: [pause, stpo]', '  states:', '    a:', '      on: { GO: b }', '    b:', '      type: final'].join('\n');
  const result = checkWorkflowFile(text, '/tmp/c.statechart.yaml', { resolveSrc: false });
  assert.deepEqual(result.workflow?.meta.agentMay, ['pause']);
  assert.ok(result.diagnostics.some((d) => d.severity === 'error' && /found "stpo"\..*Did you mean `stop`/.test(d.message)));
});

// ---------------------------------------------------------------------------
// The engine function every shell calls.

/** Every file under `dir`, by relative path, as bytes: a refused act changes none of them. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), fs.readFileSync(p).toString('base64'));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

type Before = 'running' | 'awaiting approval' | 'paused' | 'finished' | 'none';

async function workspace(workflow: object, before: Before): Promise<{ runner: Runner; root: string }> {
  const root = tempDir('sg-agent-may-');
  fs.writeFileSync(path.join(root, 'gated.workflow.json'), JSON.stringify(workflow));
  fs.writeFileSync(path.join(root, 'loose.workflow.json'), JSON.stringify(LOOSE));
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root, analyseShell: analyseForPolicy, rewriteShell: rewriteForPolicy });
  if (before === 'none') return { runner, root };
  await runner.start(path.join(root, 'gated.workflow.json'));
  if (before === 'awaiting approval') assert.ok((await runner.send('SHIP')).pending_approval);
  if (before === 'paused') assert.equal((await runner.pause()).error, undefined);
  if (before === 'finished') assert.equal((await runner.send('FINISH')).error, undefined);
  return { runner, root };
}

interface Row {
  readonly name: string;
  readonly grant?: readonly Act[];
  readonly debug?: boolean;
  readonly before: Before;
  readonly tool: string;
  readonly args: object;
  /** A refusal (the reason must match) or what holds after the call went ahead. */
  readonly refused?: RegExp;
  /** The refusal comes from the machine after the grant check, which may record the attempt. */
  readonly recorded?: true;
  readonly after?: (runner: Runner, text: string) => Promise<void>;
}

const PAUSE_HOW = /statewright_pause is a person's act here: pausing the run turns its enforcement off, and the workflow's meta.agent_may does not grant "pause" to the agent\. How: a person pauses the run with "stategate: Pause Run" in VS Code .* or `stategate run pause` in their own terminal\. Nothing changed\. The agent moves the run on with statewright_transition/;
const LOAD_HOW = /statewright_load_workflow is a person's act here: starting or resuming another workflow stops the enforced run.*"load_workflow".*`stategate run start FILE` \/ `stategate run resume FILE` in their own terminal.*Binding this session to a branch of a fork \(`branch`\) stays allowed/;
const FORCE_HOW = /statewright_force_state is a person's act here.*"force".*`stategate run force STATE` in their own terminal/;

const activeIs = (workflowId: string, status: string) => async (runner: Runner): Promise<void> => {
  const active = await runner.active();
  assert.equal(active.kind, 'ok');
  if (active.kind === 'ok') {
    assert.equal(active.run.workflow.id, workflowId);
    assert.equal(active.run.status, status);
  }
};

const rows: readonly Row[] = [
  { name: 'pause without the grant', before: 'running', tool: 'statewright_pause', args: {}, refused: PAUSE_HOW },
  { name: 'pause while a transition waits for approval', before: 'awaiting approval', tool: 'statewright_pause', args: {}, refused: PAUSE_HOW },
  { name: 'pause granted other acts only', grant: ['stop', 'load_workflow', 'force'], before: 'running', tool: 'statewright_pause', args: {}, refused: PAUSE_HOW },
  { name: 'pause with the grant', grant: ['pause'], before: 'running', tool: 'statewright_pause', args: {}, after: activeIs('gated', 'paused') },
  { name: 'loading a workflow the agent wrote, without the grant', before: 'running', tool: 'statewright_load_workflow', args: { name: 'loose' }, refused: LOAD_HOW },
  { name: 'reloading its own workflow (a fresh run), without the grant', before: 'running', tool: 'statewright_load_workflow', args: { name: 'gated' }, refused: LOAD_HOW },
  { name: 'resume: true, without the grant', before: 'running', tool: 'statewright_load_workflow', args: { name: 'loose', resume: true }, refused: LOAD_HOW },
  { name: 'loading while a transition waits for approval', before: 'awaiting approval', tool: 'statewright_load_workflow', args: { name: 'loose' }, refused: LOAD_HOW },
  { name: 'loading with the grant', grant: ['load_workflow'], before: 'running', tool: 'statewright_load_workflow', args: { name: 'loose' }, after: activeIs('loose', 'running') },
  { name: 'loading with no run active', before: 'none', tool: 'statewright_load_workflow', args: { name: 'loose' }, after: activeIs('loose', 'running') },
  { name: 'loading after the run finished', before: 'finished', tool: 'statewright_load_workflow', args: { name: 'loose' }, after: activeIs('loose', 'running') },
  { name: 'loading while a person paused the run (not enforced)', before: 'paused', tool: 'statewright_load_workflow', args: { name: 'loose' }, after: activeIs('loose', 'running') },
  { name: 'force_state without the grant', before: 'running', tool: 'statewright_force_state', args: { state: 'done' }, refused: FORCE_HOW },
  { name: 'force_state on a paused run without the grant', before: 'paused', tool: 'statewright_force_state', args: { state: 'done' }, refused: FORCE_HOW },
  { name: 'force_state with the grant', grant: ['force'], before: 'running', tool: 'statewright_force_state', args: { state: 'done' }, after: async (r, text) => assert.match(text, /Forced working → done/) },
  { name: 'force_state with the grant outside a debug workflow (still debug only)', grant: ['force'], debug: false, before: 'running', tool: 'statewright_force_state', args: { state: 'done' }, refused: /only available where the workflow sets meta.debug: true/, recorded: true },
];

for (const row of rows) {
  test(`invokeAgentTool: ${row.name} ${row.refused ? 'is refused and changes nothing' : 'goes ahead'}`, async () => {
    const { runner, root } = await workspace(gated(row.grant, row.debug ?? true), row.before);
    const files = snapshot(path.join(root, '.stategate'));
    const result = await invokeAgentTool(runner, row.tool, row.args, {});
    if (row.refused) {
      assert.equal(result.isError, true, result.text);
      assert.match(result.text, row.refused);
      if (!row.recorded) assert.deepEqual(snapshot(path.join(root, '.stategate')), files, 'the run\'s files changed');
      await activeIs('gated', row.before === 'paused' ? 'paused' : 'running')(runner);
    } else {
      assert.equal(result.isError, false, result.text);
      await row.after?.(runner, result.text);
    }
  });
}

test('invokeAgentTool: the grant is the run\'s own copy of the workflow: adding agent_may to the file afterwards grants nothing', async () => {
  const { runner, root } = await workspace(gated(), 'running');
  fs.writeFileSync(path.join(root, 'gated.workflow.json'), JSON.stringify(gated(['pause', 'load_workflow', 'force'])));
  const files = snapshot(path.join(root, '.stategate'));
  for (const [tool, args] of [['statewright_pause', {}], ['statewright_load_workflow', { name: 'loose' }], ['statewright_force_state', { state: 'done' }]] as const) {
    const result = await invokeAgentTool(runner, tool, args, {});
    assert.equal(result.isError, true, `${tool}: ${result.text}`);
    assert.match(result.text, /is a person's act here/);
  }
  assert.deepEqual(snapshot(path.join(root, '.stategate')), files);
});

test('invokeAgentTool: binding a session to a fork branch is not loosening: allowed without the grant', async () => {
  const fork = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'workflows', 'fork.workflow.json'), 'utf8')) as object;
  const { runner } = await workspace(fork, 'none');
  const root = runner.workspaceRoot;
  fs.writeFileSync(path.join(root, 'ci.workflow.json'), JSON.stringify(fork));
  await runner.start(path.join(root, 'ci.workflow.json'));
  assert.equal((await runner.send('BUILD_PARALLEL')).error, undefined);
  const session: AgentSession = {};
  const result = await invokeAgentTool(runner, 'statewright_load_workflow', { name: 'ci-pipeline', branch: 'types' }, session);
  assert.equal(result.isError, false, result.text);
  // Changed on purpose (issue 30): the binding is stored in the run under this connection's own session id.
  assert.equal(session.branch, 'types');
  assert.match(session.id ?? '', /^mcp-/);
});

// ---------------------------------------------------------------------------
// The same refusal through the real MCP server.

let client: Client;
let mcpRoot: string;

before(async () => {
  requireBuiltCli();
  mcpRoot = tempDir('sg-agent-may-mcp-');
  fs.writeFileSync(path.join(mcpRoot, 'gated.workflow.json'), JSON.stringify(gated()));
  fs.writeFileSync(path.join(mcpRoot, 'loose.workflow.json'), JSON.stringify(LOOSE));
  assert.equal(cli(['run', 'start', 'gated.workflow.json'], { cwd: mcpRoot }).code, 0);
  client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: mcpRoot, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...STATE_ENV } }));
});

after(async () => {
  await client?.close();
});

const text = (result: unknown): string => (result as { content: Array<{ text: string }> }).content.map((c) => c.text).join('');

const mcpRows: readonly (readonly [tool: string, args: Record<string, unknown>, reason: RegExp])[] = [
  ['statewright_pause', {}, PAUSE_HOW],
  ['statewright_load_workflow', { name: 'loose' }, LOAD_HOW],
  ['statewright_load_workflow', { name: 'loose', resume: true }, LOAD_HOW],
  ['statewright_force_state', { state: 'done' }, FORCE_HOW],
];

for (const [tool, args, reason] of mcpRows) {
  test(`stategate mcp: ${tool} ${JSON.stringify(args)} without the grant is a tool error and the run is unchanged`, async () => {
    const files = snapshot(path.join(mcpRoot, '.stategate'));
    const r = await client.callTool({ name: tool, arguments: args });
    assert.equal(r.isError, true);
    assert.match(text(r), reason);
    assert.deepEqual(snapshot(path.join(mcpRoot, '.stategate')), files, 'the run\'s files changed');
    const state = cli(['run', 'state'], { cwd: mcpRoot });
    assert.match(state.stdout, /gated/);
    assert.match(state.stdout, /working/);
  });
}

test('stategate mcp: the tool descriptions say pause, load and force are a person\'s acts unless granted', async () => {
  const { tools } = await client.listTools();
  const description = (name: string): string => tools.find((t) => t.name === name)?.description ?? '';
  assert.match(description('statewright_pause'), /A person's act unless the workflow grants it to the agent \(meta.agent_may "pause"\)/);
  assert.match(description('statewright_load_workflow'), /person's act unless the workflow grants it \(meta.agent_may "load_workflow"\)/);
  assert.match(description('statewright_force_state'), /meta.agent_may "force"/);
});

// ---------------------------------------------------------------------------
// Another MCP server's look-alikes through `stategate hook` (Claude Code and VS Code input shapes).

const LOCKED = { id: 'locked', initial: 'reading', states: { reading: { allowed_tools: ['Read', 'mcp__friend__statewright_pause'], on: { DONE: 'done' } }, done: { type: 'final' } } };

function hookCall(client: 'claude' | 'vscode', cwd: string, tool: string, input: object = {}): CliResult {
  const common = client === 'vscode' ? { hookEventName: 'PreToolUse', sessionId: 'vs-1', timestamp: '2026-12-07T13:00:00.000Z', cwd, transcript_path: '/tmp/t.json', tool_use_id: `call-${tool}` } : { hook_event_name: 'PreToolUse', session_id: 'cc-1', cwd, transcript_path: '/tmp/t.jsonl' };
  return cli(['hook'], { cwd, input: JSON.stringify({ ...common, tool_name: tool, tool_input: input }) });
}

const lookalikeRows: readonly (readonly [client: 'claude' | 'vscode', tool: string, allowed: boolean])[] = [
  ['claude', 'mcp__stategate__statewright_pause', true],
  ['claude', 'mcp__stategate__statewright_transition', true],
  ['claude', 'mcp__evil__statewright_pause', false],
  ['claude', 'mcp__evil__statewright_transition', false],
  ['claude', 'mcp__friend__statewright_pause', true], // another server's tool the state lists: allowed by the rules, like any tool
  ['claude', 'statewright_pause', false], // Claude Code has no bare tool of stategate's
  ['vscode', 'statewright_transition', true], // the extension's own language-model tool
  ['vscode', 'mcp_stategate_statewright_transition', true], // stategate's MCP server as VS Code names its tools
  ['vscode', 'stategate/statewright_pause', true],
  ['vscode', 'mcp_evil_statewright_pause', false],
  ['vscode', 'mcp_evil_statewright_transition', false],
  ['vscode', 'mcp__stategate__statewright_pause', false], // VS Code's id for a server labelled `_stategate_`
];

for (const [client, tool, allowed] of lookalikeRows) {
  test(`stategate hook (${client}): ${tool} in a state whose allowed_tools are Read and mcp__friend__statewright_pause is ${allowed ? 'allowed' : 'denied by the state\'s rules'}`, () => {
    const cwd = tempDir('sg-agent-may-hook-');
    fs.writeFileSync(path.join(cwd, 'locked.workflow.json'), JSON.stringify(LOCKED));
    assert.equal(cli(['run', 'start', 'locked.workflow.json'], { cwd }).code, 0);
    const r = hookCall(client, cwd, tool, tool.endsWith('transition') ? { event: 'DONE' } : {});
    assert.equal(r.code, 0, r.stderr);
    const decision = r.json?.hookSpecificOutput?.permissionDecision;
    if (allowed) assert.notEqual(decision, 'deny', r.stdout);
    else {
      assert.equal(decision, 'deny', r.stdout);
      assert.match(r.json.hookSpecificOutput.permissionDecisionReason, /not allowed in state 'reading'/);
    }
  });
}

// ---------------------------------------------------------------------------
// The agent's own shell: `stategate run stop|pause|start|resume|force` passes the own-CLI check only when granted.

const SHELL = (agentMay?: readonly Act[]): object => ({
  id: 'shell',
  initial: 'working',
  meta: { debug: true, ...(agentMay ? { agent_may: agentMay } : {}) },
  states: { working: { allowed_tools: ['Read', 'Bash'], on: { FINISH: 'done' } }, done: { type: 'final' } },
});

const shellRows: readonly (readonly [command: string, grant: readonly Act[] | undefined, allowed: boolean])[] = [
  ['stategate run stop', undefined, false],
  ['stategate run stop', ['stop'], true],
  ['stategate run stop', ['pause'], false],
  ['npx stategate run pause', ['pause'], true],
  ['stategate run pause', ['stop', 'load_workflow', 'force'], false],
  ['stategate run start loose.workflow.json', ['load_workflow'], true],
  ['stategate run resume loose.workflow.json', undefined, false],
  ['stategate run force done', ['force'], true],
  ['stategate run approve', ['pause', 'stop', 'load_workflow', 'force'], false],
  ['stategate run send FINISH', undefined, true],
];

for (const [command, grant, allowed] of shellRows) {
  test(`Bash \`${command}\` with agent_may ${JSON.stringify(grant ?? null)} is ${allowed ? 'allowed' : 'denied, saying how a person does it'}`, async () => {
    const root = tempDir('sg-agent-may-shell-');
    fs.writeFileSync(path.join(root, 'shell.workflow.json'), JSON.stringify(SHELL(grant)));
    const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root, analyseShell: analyseForPolicy, rewriteShell: rewriteForPolicy });
    await runner.start(path.join(root, 'shell.workflow.json'));
    const answer = await runner.tool({ tool: 'Bash', input: { command } });
    assert.equal(answer.decision, allowed ? 'allow' : 'deny', answer.reason);
    if (!allowed) assert.match(answer.reason ?? '', /is a person's (act here|command)/);
  });
}

test('a stage pipeline takes meta.agent_may as any workflow: pause refused without it, granted with it', async () => {
  const example = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'code-review-pipeline.workflow.json'), 'utf8')) as Record<string, unknown>;
  for (const grant of [undefined, ['pause']] as const) {
    const root = tempDir('sg-agent-may-pipeline-');
    const file = path.join(root, 'pipeline.workflow.json');
    fs.writeFileSync(file, JSON.stringify({ ...example, meta: grant ? { agent_may: grant } : {} }));
    const checked = checkWorkflowFile(fs.readFileSync(file, 'utf8'), file, { resolveInvoke: false });
    assert.deepEqual(checked.diagnostics.filter((d) => d.severity === 'error'), []);
    const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root, analyseShell: analyseForPolicy, rewriteShell: rewriteForPolicy });
    await runner.start(file, undefined, { task: 'review the change' });
    assert.ok((await runner.stages()).length > 0, 'a stage is live');
    const result = await invokeAgentTool(runner, 'statewright_pause', {}, {});
    assert.equal(result.isError, grant === undefined, result.text);
    if (!grant) assert.match(result.text, PAUSE_HOW);
  }
});

// ---------------------------------------------------------------------------
// Each client's spelling of stategate's own server, and every other look-alike, as the hook dialects map them.

const spellingRows: readonly (readonly [client: HookClientName, name: string, own: boolean])[] = [
  ['claude', 'mcp__stategate__statewright_pause', true],
  ['claude', 'mcp__evil__statewright_pause', false],
  ['claude', 'statewright_pause', false],
  ['claude', 'mcp_stategate_statewright_pause', false],
  ['codex', 'mcp__stategate__statewright_transition', true],
  ['codex', 'stategate/statewright_transition', false],
  ['vscode', 'statewright_pause', true],
  ['vscode', 'mcp_stategate_statewright_pause', true],
  ['vscode', 'stategate/statewright_pause', true],
  ['vscode', 'mcp_stategate2_statewright_pause', false],
  ['vscode', 'mcp__stategate__statewright_pause', false],
  ['gemini', 'mcp__stategate__statewright_pause', true],
  ['gemini', 'mcp_stategate_statewright_pause', false], // without mcp_context: not an MCP tool
  ['gemini', 'statewright_pause', false],
  ['copilot', 'stategate-statewright_pause', true],
  ['copilot', 'evil-statewright_pause', false],
  ['copilot', 'statewright_pause', false],
  ['opencode', 'stategate_statewright_pause', true],
  ['opencode', 'evil_statewright_pause', false],
  ['opencode', 'statewright_pause', false],
  ['cursor', 'MCP:stategate:statewright_pause', true],
  ['cursor', 'MCP:evil:statewright_pause', false],
  ['cursor', 'MCP:statewright_pause', false],
  ['cursor', 'statewright_pause', false],
];

for (const [client, name, own] of spellingRows) {
  test(`ownToolSpelling(${client}, ${name}) is ${own ? "stategate's own" : 'an ordinary tool'}`, () => {
    const mapped = ownToolSpelling(client, name);
    assert.equal(isOwnTool(mapped), own, mapped);
    if (!own && isOwnTool(name)) assert.equal(mapped, `${client}:${name}`, 'a look-alike is renamed for the client');
  });
}
