// The real GitHub Copilot CLI (`@github/copilot`, the version pinned in
// setup-copilot.sh, its native binary, run as `copilot -p`) in a temp git
// workspace under the hooks and MCP entry `stategate enable --client copilot`
// writes (`.github/hooks/stategate-copilot.json`, `.mcp.json`: Copilot CLI reads
// `.github/mcp.json` only in a workspace without `.mcp.json`), with a
// scripted stand-in for an OpenAI-compatible API on loopback (fake-openai.ts,
// Chat Completions). Copilot CLI's own "bring your own key" mode reaches it:
// COPILOT_PROVIDER_BASE_URL, and COPILOT_OFFLINE=true, which skips GitHub's
// sign-in, telemetry and updates: no network, no account.
//
// `--allow-all-tools` runs every call without asking, so a denial can only be
// the hook's; `--trust-folder` trusts the workspace for this one session (Copilot
// CLI loads a folder's hooks and MCP servers only when it is trusted). One
// session, scripted turn by turn:
//   reading:  create notes.md → denied, the file is not created and the reason
//             reaches the model; bash `touch ran.txt` → denied (not in
//             allowed_commands), the command never ran; view → runs, recorded
//             with its client; stategate's MCP statewright_transition READY →
//             the run moves to editing;
//   editing:  create .env.local → runs, fires the interrupt (the run moves to
//             secrets_review) and the model reads [STATEWRIGHT INTERRUPT] in
//             the tool's result. The sessionStart briefing reaches the model.
// The test skips only when setup-copilot.sh says the npm registry is out of
// reach (exit 3); any other failure to install fails it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { assertGatedJournal, gateWorkflow, installAgentCli, runAgent, sandbox, STATEGATE_CLI } from './agent-cli';
import { declaredTools, startFakeOpenAI, toolOutputs, type ChatRequest, type Turn } from './fake-openai';

test('Copilot CLI under stategate: a denied create and command never run, an allowed view is recorded as copilot, MCP moves the run, a create fires the interrupt', { timeout: 600_000 }, async (t) => {
  const installed = installAgentCli('setup-copilot.sh', 'STATEGATE_COPILOT');
  if ('skip' in installed) return t.skip(installed.skip);
  assert.ok(fs.existsSync(STATEGATE_CLI), 'dist/cli.js is built (npm run build)');

  const script = (turn: number): Turn => {
    const steps: Turn[] = [
      { call: { name: 'create', args: { path: 'notes.md', file_text: 'plan\n' } } },
      { call: { name: 'bash', args: { command: 'touch ran.txt', description: 'touch a file' } } },
      { call: { name: 'view', args: { path: 'gate.workflow.json' } } },
      // Copilot CLI names an MCP server's tools `<server>-<tool>`.
      { call: { name: 'stategate-statewright_transition', args: { event: 'READY' } } },
      { call: { name: 'create', args: { path: '.env.local', file_text: 'TOKEN=1\n' } } },
    ];
    return steps[turn] ?? { text: 'Done.' };
  };
  const fake = await startFakeOpenAI(script);
  t.after(() => fake.close());

  const box = sandbox(t, 'copilot', {
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: `${fake.url}/v1`,
    COPILOT_PROVIDER_API_KEY: 'test-key',
    COPILOT_MODEL: 'gpt-4.1',
  });
  const { root, sg } = box;
  const env: NodeJS.ProcessEnv = { ...box.env, PWD: root };
  // A GitHub token in the environment would be used instead of nothing: none here.
  for (const name of ['COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN', 'XDG_CONFIG_HOME']) delete env[name];
  const file = (name: string): string => path.join(root, name);
  spawnSync('git', ['init', '-q'], { cwd: root });

  fs.writeFileSync(file('gate.workflow.json'), JSON.stringify(gateWorkflow('copilot-gate')));
  sg(['run', 'start', 'gate.workflow.json']);
  const enabled = sg(['enable', '--client', 'copilot']);
  assert.deepEqual(enabled.enabled[0].files.map((f: { file: string }) => f.file).sort(), ['.github/hooks/stategate-copilot.json', '.mcp.json']);

  const { code, output } = await runAgent(installed.path, ['-p', 'Do the task.', '--allow-all-tools', '--trust-folder', '--no-auto-update'], { cwd: root, env });
  assert.equal(code, 0, `copilot exited ${code}:\n${output.slice(-4000)}`);

  const first = fake.main[0] as ChatRequest | undefined;
  assert.ok(first, `Copilot CLI never asked the stand-in with its tools:\n${output.slice(-4000)}`);
  assert.ok(declaredTools(first).includes('stategate-statewright_transition'), `declared: ${declaredTools(first).join(', ')}`);
  assert.ok((first.messages ?? []).some((m) => JSON.stringify(m['content']).includes('is in state \\"reading\\"')), 'the sessionStart briefing reaches the model');
  const said = toolOutputs(fake.main.at(-1) ?? {}).map((o) => o.output);
  assert.equal(said.length, 5, JSON.stringify(said));
  assert.match(said[0]!, /Denied by preToolUse hook: .*not allowed in state 'reading'.*READY/, 'the denial and the way forward reach the model');
  assert.ok(!fs.existsSync(file('notes.md')), 'the denied create did not happen');
  assert.match(said[1]!, /Denied by preToolUse hook: .*`touch ran.txt` is not an allowed command/);
  assert.ok(!fs.existsSync(file('ran.txt')), 'the denied command never ran');
  assert.match(said[2]!, /"id":"copilot-gate"/, 'the allowed view ran and the model read the file');
  assert.match(said[3]!, /Transition READY: reading → editing/, 'the transition over MCP moved the run');
  assert.equal(fs.readFileSync(file('.env.local'), 'utf8'), 'TOKEN=1\n', 'the create in editing ran');
  assert.match(said[4]!, /\[STATEWRIGHT INTERRUPT\] Writing \.env\.local fired interrupt "secrets"/, "the postToolUse hook's context reaches the model in the tool result");

  const state = sg(['run', 'state']);
  assert.equal(state.state, 'secrets_review');
  const journal = box.journal(state.run_id);
  assertGatedJournal(journal, 'copilot', 'view');

  // Disable takes both files back out: they were stategate's alone.
  sg(['disable', '--client', 'copilot']);
  assert.ok(!fs.existsSync(file('.github/hooks/stategate-copilot.json')));
  assert.ok(!fs.existsSync(file('.mcp.json')));
  assert.ok(!fs.existsSync(file('.github/mcp.json')));
});
