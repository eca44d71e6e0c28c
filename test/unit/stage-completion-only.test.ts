/**
 * A stage ends only through its completion tool (issue 30): the event named
 * like a live stage's completion tool, sent as a plain event by any path
 * (`run send`, statewright_transition over MCP / VS Code / the participant,
 * the VS Code command, an agent running the CLI from a shell), is refused
 * with `completion_required` and leaves the run's files as they were; views
 * never offer it; the camelCase stage fields of the stage-pipeline notation
 * read as ours (its own example pipeline validates and runs); a call outside
 * the stage's tools from a hook client goes to the person through the
 * client's own prompt where it has one; an MCP client meets a typed
 * denied_tool_call; the participant's parallel-stage cap is a setting.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cli, CLI, REPO_ROOT, requireBuiltCli, type CliResult } from './helpers/cli';
import { STATE_ENV } from './helpers/state-dir';
import { tempDir } from './helpers/temp-dir';
import { Runner } from '../../src/engine/runs/runner';
import { agentToolSpecs, invokeAgentTool } from '../../src/engine/runs/agent-tools';
import { briefing } from '../../src/engine/policy/briefing';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { analyseCommand } from '../../src/engine/shell/analyse';
import { DEFAULT_CONCURRENCY } from '../../src/vscode/agents/pipeline-loop';

/** The stage-pipeline notation's own example (Plan -> Execute -> Review, camelCase fields), as a fixture. */
const SEED_FILE = path.join(REPO_ROOT, 'test', 'fixtures', 'workflows', 'code-review-sm.workflow.json');
const SEED_TEXT = fs.readFileSync(SEED_FILE, 'utf8');

/** Every file under `.stategate/` with the sha256 of its bytes: a refused send must leave it as it was. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

function seedWorkspace(t: { after(fn: () => void): unknown }): string {
  const cwd = tempDir('sg-completion-only-', t);
  fs.writeFileSync(path.join(cwd, 'code-review.workflow.json'), SEED_TEXT);
  const start = cli(['run', 'start', 'code-review.workflow.json', '--input', JSON.stringify({ task: 'refactor auth module' })], { cwd });
  assert.equal(start.code, 0, start.stderr);
  return cwd;
}

before(() => requireBuiltCli());

// ---------------------------------------------------------------------------
// The bypass through the processes agents use.

test('`run send submit_plan` exits 1 with completion_required and the run\'s files unchanged; `run complete` with a payload moves it', (t) => {
  const cwd = seedWorkspace(t);
  const dir = path.join(cwd, '.stategate');
  const before = snapshot(dir);
  const r = cli(['run', 'send', 'submit_plan'], { cwd });
  assert.equal(r.code, 1, r.stdout);
  assert.equal(r.json.error.code, 'completion_required');
  assert.equal(r.json.transitioned, false);
  assert.match(r.json.error.message, /stategate run complete submit_plan --payload JSON/);
  assert.match(r.stderr, /^stategate: "submit_plan" ends the stage "Plan"/);
  // With data too: no payload sent as `--data` passes for one.
  assert.equal(cli(['run', 'send', 'submit_plan', '--data', '{"steps":["x"]}'], { cwd }).json.error.code, 'completion_required');
  assert.deepEqual(snapshot(dir), before, 'byte-identical .stategate files');
  const done = cli(['run', 'complete', 'submit_plan', '--payload', JSON.stringify({ steps: ['read auth.ts'] })], { cwd });
  assert.equal(done.code, 0, done.stderr);
  assert.equal(cli(['run', 'state'], { cwd }).json.state, 'Execute');
});

test('over MCP (`stategate mcp`): statewright_transition {event: submit_plan} is an error naming completion_required and the completion tool; the run is unmoved; the completion tool moves it; a later stage\'s tool is a typed denied_tool_call', async (t) => {
  const cwd = seedWorkspace(t);
  const dir = path.join(cwd, '.stategate');
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...STATE_ENV } }));
  try {
    const text = (r: unknown): string => (r as { content: Array<{ text: string }> }).content.map((c) => c.text).join('');
    const { tools } = await client.listTools();
    const transition = tools.find((x) => x.name === 'statewright_transition')!;
    assert.match(transition.description ?? '', /completion event is never sent here/);
    const before = snapshot(dir);
    const r = await client.callTool({ name: 'statewright_transition', arguments: { event: 'submit_plan' } });
    assert.equal(r.isError, true);
    assert.match(text(r), /^Transition submit_plan refused \(completion_required\): .*the MCP tool `submit_plan`.*`stategate run complete submit_plan --payload JSON`/);
    assert.doesNotMatch(text(r), /^- submit_plan/m, 'the briefing after it does not offer the event');
    assert.deepEqual(snapshot(dir), before, 'byte-identical .stategate files');

    // Review's tool, offered for clients that list tools once, is not the current stage's.
    const early = await client.callTool({ name: 'submit_review', arguments: { approved: true } });
    assert.equal(early.isError, true);
    assert.deepEqual(
      { ...(early.structuredContent as object), message: undefined, error: undefined },
      { type: 'denied_tool_call', tool: 'submit_review', reason: 'outside_stage', stage: 'Plan', message: undefined, error: undefined },
    );
    const ok = await client.callTool({ name: 'submit_plan', arguments: { steps: ['read auth.ts'] } });
    assert.equal(ok.isError, false, text(ok));
    assert.equal(cli(['run', 'state'], { cwd }).json.state, 'Execute');
  } finally {
    await client.close();
  }
});

test('the agent running the CLI from its shell: `stategate run complete TOOL --payload` is the agent\'s, `run send` stays allowed (and refused by the engine)', async () => {
  assert.deepEqual(await analyseCommand(`stategate run complete submit_plan --payload '{"steps":["a"]}'`, { blockedEnv: [], writeAllowed: true }), { ok: true });
  assert.deepEqual(await analyseCommand('npx stategate run send submit_plan', { blockedEnv: [], writeAllowed: true }), { ok: true });
});

// ---------------------------------------------------------------------------
// Engine rows: every path that sends goes through Runner.send.

const FAN_OUT = {
  id: 'fan',
  initial: 'plan',
  states: {
    plan: { completion_tool: 'submit_plan', completion_schema: { type: 'object', required: ['steps'] }, on: { submit_plan: { fork: { branches: { lint: { initial: 'lint', terminal: 'lint_done' }, test: { initial: 'tests', terminal: 'test_done' } }, join: 'all', mode: 'parallel', on_complete: 'done', on_fail: 'done' } }, abort: 'done' } },
    lint: { completion_tool: 'submit_lint', completion_schema: { type: 'object', required: ['ok'] }, on: { submit_lint: 'lint_done' } },
    tests: { completion_tool: 'submit_tests', completion_schema: { type: 'object' }, on: { submit_tests: 'test_done' } },
    lint_done: { type: 'final' },
    test_done: { type: 'final' },
    done: { type: 'final' },
  },
};

const CHART = `statechart:
  id: chart-stage
  initial: plan
  states:
    plan:
      allowed_tools: [Read]
      completion_tool: submit_plan
      completion_schema: {type: object, required: [steps]}
      on:
        submit_plan: done
    done:
      type: final
`;

/** A workflow that is no pipeline may name an event like a completion tool: it is an ordinary event there. */
const NOT_A_PIPELINE = { id: 'plain', initial: 'a', states: { a: { on: { submit_plan: 'b' } }, b: { type: 'final' } } };

interface EngineRow {
  readonly name: string;
  readonly file: string;
  readonly text: string;
  /** Moves the run to where the row sends (after start). */
  readonly prepare?: (runner: Runner) => Promise<unknown>;
  readonly send: (runner: Runner) => Promise<{ code?: string; text?: string }>;
  /** undefined: refused with completion_required. */
  readonly moves?: string;
}

const viaSend = (event: string, branch?: string) => async (runner: Runner) => ({ code: (await runner.send(event, undefined, branch)).error?.code });
const viaTool = (event: string, branch?: string) => async (runner: Runner) => {
  const r = await invokeAgentTool(runner, 'statewright_transition', { event }, branch ? { branch } : {});
  return { code: (r.data as { error?: { code?: string } }).error?.code, text: r.text };
};

const ENGINE_ROWS: readonly EngineRow[] = [
  // Runner.send: `run send`, the VS Code panel's and command's Send Event, an agent's shell `stategate run send`.
  { name: 'Runner.send (run send, VS Code Send Event)', file: 'seed.workflow.json', text: SEED_TEXT, send: viaSend('submit_plan') },
  // invokeAgentTool: the MCP server, VS Code's language-model tools and the @stategate participant.
  { name: 'statewright_transition (MCP, LM tools, participant)', file: 'seed.workflow.json', text: SEED_TEXT, send: viaTool('submit_plan') },
  { name: 'a later stage: Execute\'s completion event', file: 'seed.workflow.json', text: SEED_TEXT, prepare: (r) => r.completeStage('submit_plan', { steps: ['a'] }), send: viaSend('submit_diff') },
  { name: 'a fork branch\'s stage, branch named', file: 'fan.workflow.json', text: JSON.stringify(FAN_OUT), prepare: (r) => r.completeStage('submit_plan', { steps: [] }), send: viaSend('submit_lint', 'lint') },
  { name: 'a fork branch\'s stage, through the tool of a session bound to it', file: 'fan.workflow.json', text: JSON.stringify(FAN_OUT), prepare: (r) => r.completeStage('submit_plan', { steps: [] }), send: viaTool('submit_tests', 'test') },
  { name: 'a statechart stage node', file: 'c.statechart.yaml', text: CHART, send: viaSend('submit_plan') },
  // What stays an ordinary event.
  { name: 'another event of a stage state', file: 'fan.workflow.json', text: JSON.stringify(FAN_OUT), send: viaSend('abort'), moves: 'done' },
  { name: 'a workflow that is no pipeline', file: 'plain.workflow.json', text: JSON.stringify(NOT_A_PIPELINE), send: viaSend('submit_plan'), moves: 'b' },
];

for (const row of ENGINE_ROWS) {
  test(`engine: ${row.name} ${row.moves ? 'moves as an ordinary event' : 'is refused with completion_required, nothing written'}`, async (t) => {
    const root = tempDir('sg-completion-engine-', t);
    fs.writeFileSync(path.join(root, row.file), row.text);
    const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
    await runner.start(path.join(root, row.file));
    await row.prepare?.(runner);
    const before = snapshot(path.join(root, '.stategate'));
    const stateBefore = (await runner.requireActive()).state;
    const got = await row.send(runner);
    if (row.moves) {
      assert.equal(got.code, undefined);
      assert.equal((await runner.requireActive()).state, row.moves);
      return;
    }
    assert.equal(got.code, 'completion_required', JSON.stringify(got));
    if (got.text !== undefined) assert.match(got.text, /call the completion tool/);
    assert.equal((await runner.requireActive()).state, stateBefore);
    assert.deepEqual(snapshot(path.join(root, '.stategate')), before, 'byte-identical .stategate files');
  });
}

// ---------------------------------------------------------------------------
// What agents are told.

test('run state, the briefing and statewright_transition do not offer a live completion event; they name the completion tool', async (t) => {
  const root = tempDir('sg-completion-views-', t);
  fs.writeFileSync(path.join(root, 'fan.workflow.json'), JSON.stringify(FAN_OUT));
  fs.writeFileSync(path.join(root, 'c.statechart.yaml'), CHART);
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  await runner.start(path.join(root, 'fan.workflow.json'));
  const view = await runner.state();
  assert.deepEqual(view.transitions.map((x) => x.event), ['abort']);
  assert.deepEqual(view.completion_tools, [{ tool: 'submit_plan', state: 'plan' }]);
  const text = briefing(view);
  assert.doesNotMatch(text, /^- submit_plan/m);
  assert.match(text, /^- abort → done$/m);
  assert.match(text, /Stage "plan" ends only through its completion tool: call the completion tool submit_plan .*`stategate run complete submit_plan --payload JSON`/);
  const flat = (await agentToolSpecs(runner)).find((s) => s.name === 'statewright_transition')!;
  assert.match(flat.description, /completion event is never sent here/);
  // A statechart: the tool's offered events (its enum) leave the completion event out.
  await runner.start(path.join(root, 'c.statechart.yaml'), undefined, undefined, { replace: true });
  const chartView = await runner.state();
  assert.ok(!(chartView.events ?? []).some((e) => e.event === 'submit_plan'), JSON.stringify(chartView.events));
  assert.match(briefing(chartView), /Stage "plan" ends only through its completion tool/);
  const chart = (await agentToolSpecs(runner)).find((s) => s.name === 'statewright_transition')!;
  assert.doesNotMatch(JSON.stringify(chart.inputSchema), /submit_plan/);
  assert.match(chart.description, /completion event \(submit_plan\) is never sent here/);
});

// ---------------------------------------------------------------------------
// camelCase stage fields.

test('the notation\'s own example (camelCase allowedTools, completionTool, completionSchema, turnCap) validates and runs Plan -> Execute -> Review', async (t) => {
  const checked = checkWorkflowFile(SEED_TEXT, SEED_FILE);
  assert.deepEqual(checked.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.message), []);
  const plan = checked.workflow!.states.get('Plan')!;
  assert.deepEqual([plan.completionTool, plan.turnCap, plan.rules.allowedTools], ['submit_plan', 20, ['Read', 'Grep', 'Glob']]);
  assert.deepEqual(checked.workflow!.states.get('Review')!.rules.allowedTools, []);
  // The JSON schema (editor validation, completion and hover) knows the spellings too.
  const ajv = new Ajv({ strict: false });
  const validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', 'workflow-schema.json'), 'utf8')));
  assert.equal(validate(JSON.parse(SEED_TEXT)), true, JSON.stringify(validate.errors));

  const root = tempDir('sg-completion-seed-', t);
  fs.writeFileSync(path.join(root, 'seed.workflow.json'), SEED_TEXT);
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  await runner.start(path.join(root, 'seed.workflow.json'), undefined, { task: 'refactor auth module' });
  const stage = await runner.stage();
  assert.ok(typeof stage !== 'string', String(stage));
  assert.deepEqual([stage.state, stage.completion_tool, stage.turn_cap, stage.allowed_tools], ['Plan', 'submit_plan', 20, ['Read', 'Grep', 'Glob']]);
  assert.equal((await runner.tool({ tool: 'Edit', input: { file_path: path.join(root, 'a.ts'), old_string: 'a', new_string: 'b' } })).decision, 'deny', 'Edit is outside Plan');
  assert.equal((await runner.completeStage('submit_plan', { steps: [] })).error?.code, 'invalid_payload', 'completionSchema is checked');
  assert.equal((await runner.completeStage('submit_plan', { steps: ['read auth.ts'] })).accepted, true);
  assert.equal((await runner.completeStage('submit_diff', { diff: '--- a/auth.ts' })).accepted, true);
  assert.equal((await runner.completeStage('submit_review', { approved: true })).accepted, true);
  assert.deepEqual([(await runner.requireActive()).state, (await runner.requireActive()).status], ['Done', 'completed']);
});

test('both spellings of one stage field on one state is an error naming both (the loader and the schema)', () => {
  const wf = JSON.parse(SEED_TEXT);
  wf.states.Plan.completion_tool = 'submit_plan';
  wf.states.Plan.turn_cap = 5;
  const checked = checkWorkflowFile(JSON.stringify(wf), 'both.workflow.json');
  const both = checked.diagnostics.filter((d) => d.code === 'duplicate-stage-field');
  assert.deepEqual(both.map((d) => d.severity), ['error', 'error']);
  assert.match(both[0]!.message, /state `Plan` sets both `completionTool` and `completion_tool`/);
  assert.match(both[1]!.message, /`turnCap` and `turn_cap`/);
  const ajv = new Ajv({ strict: false });
  const validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', 'workflow-schema.json'), 'utf8')));
  assert.equal(validate(wf), false);
});

// ---------------------------------------------------------------------------
// A call outside the stage's tools from each hook client.

type HookClient = 'claude' | 'vscode' | 'codex' | 'gemini' | 'copilot' | 'cursor' | 'opencode';

interface HookRow {
  readonly client: HookClient;
  readonly label: string;
  readonly args: string[];
  readonly body: (cwd: string, n: number) => object;
  /** 'ask' or 'deny', read from the client's answer. */
  readonly read: (r: CliResult) => string | undefined;
  readonly want: 'ask' | 'deny';
  /** Where the client's answer carries the text. */
  readonly reason: (r: CliResult) => string | undefined;
}

const url = (n: number): object => ({ url: `https://example.com/${n}` });
const HOOK_ROWS: readonly HookRow[] = [
  { client: 'claude', label: 'Claude Code', args: [], body: (cwd, n) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd, tool_name: 'WebFetch', tool_input: url(n), tool_use_id: `toolu_${n}` }), read: (r) => r.json?.hookSpecificOutput?.permissionDecision, want: 'ask', reason: (r) => r.json?.hookSpecificOutput?.permissionDecisionReason },
  { client: 'vscode', label: 'VS Code', args: [], body: (cwd, n) => ({ hookEventName: 'PreToolUse', sessionId: 's', cwd, tool_name: 'fetch_webpage', tool_input: { urls: [`https://example.com/${n}`] }, tool_use_id: `call_${n}`, timestamp: '2026-12-07T00:00:00Z' }), read: (r) => r.json?.hookSpecificOutput?.permissionDecision, want: 'ask', reason: (r) => r.json?.hookSpecificOutput?.permissionDecisionReason },
  // Codex parses "ask" but does not support it (the hook fails and the call runs): a deny.
  // Claude Code answering its own prompts (bypassPermissions, dontAsk): an "ask" would reach no person, so a deny.
  ...(['bypassPermissions', 'dontAsk'] as const).map((mode): HookRow => ({ client: 'claude', label: `Claude Code (${mode})`, args: [], body: (cwd, n) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd, permission_mode: mode, tool_name: 'WebFetch', tool_input: url(n), tool_use_id: `toolu_m${n}` }), read: (r) => r.json?.hookSpecificOutput?.permissionDecision, want: 'deny', reason: (r) => r.json?.hookSpecificOutput?.permissionDecisionReason })),
  { client: 'codex', label: 'Codex', args: [], body: (cwd, n) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd, tool_name: 'WebFetch', tool_input: url(n), tool_use_id: `c_${n}` }), read: (r) => r.json?.hookSpecificOutput?.permissionDecision, want: 'deny', reason: (r) => r.json?.hookSpecificOutput?.permissionDecisionReason },
  { client: 'gemini', label: 'Gemini CLI', args: [], body: (cwd, n) => ({ hook_event_name: 'BeforeTool', session_id: 's', cwd, tool_name: 'web_fetch', tool_input: { prompt: `https://example.com/${n}` } }), read: (r) => r.json?.decision, want: 'ask', reason: (r) => r.json?.reason },
  { client: 'copilot', label: 'Copilot CLI', args: ['--event', 'preToolUse'], body: (cwd, n) => ({ timestamp: 1, cwd, toolName: 'web_fetch', toolArgs: JSON.stringify(url(n)) }), read: (r) => r.json?.permissionDecision, want: 'deny', reason: (r) => r.json?.permissionDecisionReason },
  { client: 'cursor', label: 'Cursor (beforeShellExecution)', args: [], body: (cwd, n) => ({ hook_event_name: 'beforeShellExecution', conversation_id: 'c', workspace_roots: [cwd], command: `ls dir${n}`, cwd }), read: (r) => r.json?.permission, want: 'ask', reason: (r) => r.json?.user_message },
  { client: 'cursor', label: 'Cursor (preToolUse)', args: [], body: (cwd, n) => ({ hook_event_name: 'preToolUse', conversation_id: 'c', workspace_roots: [cwd], tool_name: 'WebFetch', tool_input: url(n) }), read: (r) => r.json?.permission, want: 'deny', reason: (r) => r.json?.agent_message },
  { client: 'opencode', label: 'OpenCode', args: [], body: (cwd, n) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd, tool_name: 'webfetch', tool_input: url(n) }), read: (r) => r.json?.decision, want: 'deny', reason: (r) => r.json?.reason },
];

test('a call outside the stage\'s tools: each hook client\'s own prompt where it has one (ask), else a deny naming the stage; a protected file stays a deny', (t) => {
  const cwd = seedWorkspace(t);
  HOOK_ROWS.forEach((row, i) => {
    const r = cli(['hook', '--client', row.client, ...row.args], { cwd, input: JSON.stringify(row.body(cwd, i)) });
    assert.equal(r.code, 0, `${row.label}: ${r.stderr}`);
    assert.equal(row.read(r), row.want, `${row.label}: ${r.stdout}`);
    const reason = row.reason(r) ?? '';
    assert.match(reason, row.want === 'ask' ? /is outside the tools of stage "Plan" \(Read, Grep, Glob\)\. Approve it for this one call/ : /Plan/, `${row.label}: ${reason}`);
    if (row.want === 'deny') assert.match(reason, /no prompt for a one-shot grant|asks no person/, row.label);
  });
  // Protected files are never a grant: the run's own files stay denied, not asked.
  const guarded = cli(['hook', '--client', 'claude'], { cwd, input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd, tool_name: 'Write', tool_input: { file_path: path.join(cwd, '.stategate', 'active'), content: 'x' }, tool_use_id: 'toolu_guard' }) });
  assert.equal(guarded.json?.hookSpecificOutput?.permissionDecision, 'deny', guarded.stdout);
});

test('Claude Code\'s ask is journaled as a grant proposal; the call\'s result settles it as approved and used once', (t) => {
  const cwd = seedWorkspace(t);
  const body = { session_id: 's', cwd, tool_name: 'WebFetch', tool_input: url(1), tool_use_id: 'toolu_g' };
  assert.equal(cli(['hook', '--client', 'claude'], { cwd, input: JSON.stringify({ hook_event_name: 'PreToolUse', ...body }) }).json?.hookSpecificOutput?.permissionDecision, 'ask');
  cli(['hook', '--client', 'claude'], { cwd, input: JSON.stringify({ hook_event_name: 'PostToolUse', ...body, tool_response: 'ok' }) });
  const runs = path.join(cwd, '.stategate', 'runs');
  const journal = fs.readFileSync(path.join(runs, fs.readdirSync(runs)[0]!, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const grants = journal.filter((e) => e.kind.startsWith('grant_'));
  assert.deepEqual(grants.map((e) => [e.kind, e.tool, e.approved]), [['grant_asked', 'WebFetch', undefined], ['grant_answered', 'WebFetch', true], ['grant_consumed', 'WebFetch', undefined]]);
  assert.equal(cli(['run', 'state'], { cwd }).json.state, 'Plan');
});

test('`run tool` of a call outside the stage adds the typed denied_tool_call naming the stage and tool', (t) => {
  const cwd = seedWorkspace(t);
  const r = cli(['run', 'tool', 'WebFetch', '--input', JSON.stringify(url(1))], { cwd });
  assert.equal(r.json.decision, 'deny');
  assert.deepEqual({ ...r.json.denied_tool_call, message: undefined }, { type: 'denied_tool_call', tool: 'WebFetch', reason: 'outside_stage', stage: 'Plan', message: undefined });
  const inside = cli(['run', 'tool', 'Read', '--input', JSON.stringify({ file_path: 'a.ts' })], { cwd });
  assert.equal(inside.json.denied_tool_call, undefined);
});

// ---------------------------------------------------------------------------

test('stategate.participant.maxParallelStages is a setting whose default is the participant\'s cap', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const setting = pkg.contributes.configuration.properties['stategate.participant.maxParallelStages'];
  assert.deepEqual([setting?.type, setting?.default, setting?.minimum], ['integer', DEFAULT_CONCURRENCY, 1]);
  const chat = fs.readFileSync(path.join(REPO_ROOT, 'src', 'vscode', 'agents', 'pipeline-chat.ts'), 'utf8');
  assert.match(chat, /concurrency: maxParallelStages\(\)/, '@stategate /run reads it where the cap is applied');
});
