// The real OpenCode (`opencode-ai`, the version pinned in setup-opencode.sh, its
// native binary, run as `opencode run`) in a temp workspace under the plugin
// and MCP entry `stategate enable --client opencode` writes
// (`.opencode/plugin/stategate.js`, `mcp.stategate` merged into the person's
// `opencode.json`), with a scripted stand-in for an OpenAI-compatible API on
// loopback (fake-openai.ts, Chat Completions), configured as a provider with a
// `baseURL` in that opencode.json: no network, no account.
//
// The config allows edits and shell commands without asking, so a denial can
// only be stategate's plugin's. One session, scripted turn by turn:
//   reading:  write notes.md → denied, the file is not created and the reason is
//             the tool's result; bash `touch ran.txt` → denied (not in
//             allowed_commands), the command never ran; read → runs, recorded
//             with its client; stategate's MCP statewright_transition READY →
//             the run moves to editing;
//   editing:  write .env.local → runs, fires the interrupt (the run moves to
//             secrets_review) and the model reads [STATEWRIGHT INTERRUPT] in
//             the tool's result. The briefing rides in the system prompt.
// The test skips only when setup-opencode.sh says the npm registry is out of
// reach (exit 3); any other failure to install fails it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { assertGatedJournal, gateWorkflow, installAgentCli, runAgent, sandbox, STATEGATE_CLI } from './agent-cli';
import { declaredTools, startFakeOpenAI, toolOutputs, type ChatRequest, type Turn } from './fake-openai';

test('OpenCode under stategate: a denied write and command never run, an allowed read is recorded as opencode, MCP moves the run, a write fires the interrupt', { timeout: 600_000 }, async (t) => {
  const installed = installAgentCli('setup-opencode.sh', 'STATEGATE_OPENCODE');
  if ('skip' in installed) return t.skip(installed.skip);
  assert.ok(fs.existsSync(STATEGATE_CLI), 'dist/cli.js is built (npm run build)');

  // OpenCode keeps its config, data and cache under the XDG folders, else under HOME: the temp HOME.
  // It takes the project folder from PWD, so PWD must be the workspace.
  const box = sandbox(t, 'opencode', { OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1' });
  const { root, sg } = box;
  const env: NodeJS.ProcessEnv = { ...box.env, PWD: root };
  for (const name of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME']) delete env[name];

  const file = (name: string): string => path.join(root, name);
  let transitionName = '';
  const script = (turn: number, request: ChatRequest): Turn => {
    transitionName ||= declaredTools(request).find((n) => n.endsWith('statewright_transition')) ?? '';
    const steps: Turn[] = [
      { call: { name: 'write', args: { filePath: file('notes.md'), content: 'plan\n' } } },
      { call: { name: 'bash', args: { command: 'touch ran.txt', description: 'touch a file' } } },
      { call: { name: 'read', args: { filePath: file('gate.workflow.json') } } },
      { call: { name: transitionName || 'statewright_transition', args: { event: 'READY' } } },
      { call: { name: 'write', args: { filePath: file('.env.local'), content: 'TOKEN=1\n' } } },
    ];
    return steps[turn] ?? { text: 'Done.' };
  };
  const fake = await startFakeOpenAI((turn, request) => script(turn, request as ChatRequest));
  t.after(() => fake.close());

  // The person's opencode.json: the stand-in as an OpenAI-compatible provider, edits and commands
  // allowed without asking. `stategate enable` merges its MCP server into this file.
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: { scripted: { npm: '@ai-sdk/openai-compatible', name: 'scripted stand-in', options: { baseURL: `${fake.url}/v1`, apiKey: 'test-key' }, models: { 'scripted-model': { name: 'scripted', tool_call: true } } } },
    model: 'scripted/scripted-model',
    autoupdate: false,
    share: 'disabled',
    permission: { edit: 'allow', bash: 'allow' },
  };
  fs.writeFileSync(file('opencode.json'), JSON.stringify(config, null, 2));
  fs.writeFileSync(file('gate.workflow.json'), JSON.stringify(gateWorkflow('opencode-gate')));
  sg(['run', 'start', 'gate.workflow.json']);
  const enabled = sg(['enable', '--client', 'opencode']);
  assert.deepEqual(enabled.enabled[0].files.map((f: { file: string }) => f.file).sort(), ['.opencode/plugin/stategate.js', 'opencode.json']);

  const { code, output } = await runAgent(installed.path, ['run', 'Do the task.'], { cwd: root, env });
  assert.equal(code, 0, `opencode exited ${code}:\n${output.slice(-4000)}`);

  // Stategate's MCP tools were offered under OpenCode's name for them.
  assert.equal(transitionName, 'stategate_statewright_transition', `declared: ${declaredTools(fake.main[0] ?? {}).join(', ')}`);
  const first = fake.main[0] as ChatRequest;
  assert.ok((first.messages ?? []).some((m) => m['role'] === 'system' && JSON.stringify(m['content']).includes('is in state \\"reading\\"')), 'the briefing is in the system prompt');
  const said = toolOutputs(fake.main.at(-1) ?? {}).map((o) => o.output);
  assert.equal(said.length, 5, JSON.stringify(said));
  assert.match(said[0]!, /not allowed in state 'reading'.*READY/, 'the denial and the way forward reach the model');
  assert.ok(!fs.existsSync(file('notes.md')), 'the denied write did not happen');
  assert.match(said[1]!, /`touch ran.txt` is not an allowed command/);
  assert.ok(!fs.existsSync(file('ran.txt')), 'the denied command never ran');
  assert.match(said[2]!, /"id":"opencode-gate"/, 'the allowed read ran and the model read the file');
  assert.match(said[3]!, /Transition READY: reading → editing/, 'the transition over MCP moved the run');
  assert.equal(fs.readFileSync(file('.env.local'), 'utf8'), 'TOKEN=1\n', 'the write in editing ran');
  assert.match(said[4]!, /\[STATEWRIGHT INTERRUPT\] Writing \.env\.local fired interrupt "secrets"/, 'the interrupt reaches the model in the tool result');

  const state = sg(['run', 'state']);
  assert.equal(state.state, 'secrets_review');
  const journal = box.journal(state.run_id);
  assertGatedJournal(journal, 'opencode', 'read');

  // Disable takes stategate's plugin and MCP entry back out and keeps the person's configuration.
  sg(['disable', '--client', 'opencode']);
  assert.ok(!fs.existsSync(file('.opencode/plugin/stategate.js')));
  assert.deepEqual(JSON.parse(fs.readFileSync(file('opencode.json'), 'utf8')), config);
});
