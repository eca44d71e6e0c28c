// The real Codex CLI (`@openai/codex`, the version pinned in setup-codex.sh, its
// native binary, run as `codex exec`) in a temp workspace under the hook and
// MCP entries `stategate enable --client codex` writes (`.codex/hooks.json`,
// `[mcp_servers.stategate]` in `.codex/config.toml`), with a scripted stand-in
// for the Responses API on loopback (fake-openai.ts, a custom model provider in
// the user's config.toml): no network, no account.
//
// `--dangerously-bypass-approvals-and-sandbox` runs every call without asking
// and outside Codex's sandbox, so a denial can only be the hook's.
// `--dangerously-bypass-hook-trust` stands for the one step a person does in
// Codex's TUI (`/hooks`: trust each new hook): Codex runs no untrusted hook.
// The project is trusted in the user config (Codex reads a project's .codex/
// only then). One session, scripted turn by turn:
//   reading:  apply_patch adding notes.md → denied, the file is not created and
//             the reason reaches the model; `touch ran.txt` → denied (not in
//             allowed_commands), the command never ran; `cat` → runs, recorded
//             with its client; stategate's MCP statewright_transition READY →
//             the run moves to editing;
//   editing:  apply_patch adding .env.local → runs, fires the interrupt (the run
//             moves to secrets_review) and the model reads [STATEWRIGHT INTERRUPT]
//             in its next request.
// The test skips only when setup-codex.sh says the npm registry is out of
// reach (exit 3); any other failure to install fails it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { assertGatedJournal, gateWorkflow, installAgentCli, runAgent, sandbox, STATEGATE_CLI } from './agent-cli';
import { startFakeOpenAI, toolOutputs, type ResponsesRequest, type Turn } from './fake-openai';

const patchAdding = (file: string, line: string): string => `*** Begin Patch\n*** Add File: ${file}\n+${line}\n*** End Patch\n`;

test('Codex CLI under stategate: a denied patch and command never run, an allowed one runs and is recorded as codex, MCP moves the run, a patch fires the interrupt', { timeout: 600_000 }, async (t) => {
  const installed = installAgentCli('setup-codex.sh', 'STATEGATE_CODEX');
  if ('skip' in installed) return t.skip(installed.skip);
  assert.ok(fs.existsSync(STATEGATE_CLI), 'dist/cli.js is built (npm run build)');

  // The state folder moved with STATEGATE_STATE_DIR: Codex starts MCP servers with a scrubbed environment, and
  // the entry's env_vars hands the variable on, so `stategate mcp` keeps the run's record where the hooks do.
  const box = sandbox(t, 'codex', { STATEGATE_FAKE_OPENAI_KEY: 'test-key', STATEGATE_STATE_DIR: path.join(os.tmpdir(), `sg-codex-state-${process.pid}`) });
  const { home, root, env, sg } = box;
  const movedState = env['STATEGATE_STATE_DIR']!;
  t.after(() => fs.rmSync(movedState, { recursive: true, force: true }));
  fs.writeFileSync(path.join(root, 'gate.workflow.json'), JSON.stringify(gateWorkflow('codex-gate')));
  sg(['run', 'start', 'gate.workflow.json']);
  const enabled = sg(['enable', '--client', 'codex']);
  assert.deepEqual(enabled.enabled[0].files.map((f: { file: string }) => f.file), ['.codex/hooks.json', '.codex/config.toml']);

  const script = (turn: number): Turn => {
    const steps: Turn[] = [
      { custom: { name: 'apply_patch', input: patchAdding('notes.md', 'plan') } },
      { call: { name: 'exec_command', args: { cmd: 'touch ran.txt' } } },
      { call: { name: 'exec_command', args: { cmd: 'cat gate.workflow.json' } } },
      // Codex offers an MCP server's tools in one namespace, `mcp__<server>`.
      { call: { name: 'statewright_transition', namespace: 'mcp__stategate', args: { event: 'READY' } } },
      { custom: { name: 'apply_patch', input: patchAdding('.env.local', 'TOKEN=1') } },
    ];
    return steps[turn] ?? { text: 'Done.' };
  };
  const fake = await startFakeOpenAI(script);
  t.after(() => fake.close());

  // The user's config: the stand-in as a custom provider speaking the Responses API, a model of Codex's
  // own catalog (for its tool set: apply_patch as a freeform tool), the workspace trusted.
  fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
  fs.writeFileSync(
    path.join(home, '.codex', 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "stategate_fake"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.stategate_fake]',
      'name = "scripted stand-in"',
      `base_url = ${JSON.stringify(`${fake.url}/v1`)}`,
      'env_key = "STATEGATE_FAKE_OPENAI_KEY"',
      'wire_api = "responses"',
      '',
      `[projects.${JSON.stringify(root)}]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );

  const { code, output } = await runAgent(installed.path, ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '--dangerously-bypass-hook-trust', 'Do the task.'], { cwd: root, env: { ...env, CODEX_HOME: path.join(home, '.codex') } });
  assert.equal(code, 0, `codex exited ${code}:\n${output.slice(-4000)}`);

  assert.ok(fake.main.length > 0, `Codex never asked the stand-in with its tools:\n${output.slice(-4000)}`);
  // Stategate's MCP server was started from .codex/config.toml: for this model Codex does not list an MCP
  // server's tools up front (they sit behind its tool_search), but a call in their namespace reaches them.
  const last = fake.main.at(-1) as ResponsesRequest;
  const said = toolOutputs(last).map((o) => o.output);
  assert.equal(said.length, 5, JSON.stringify(said));
  assert.match(said[0]!, /blocked by PreToolUse hook.*not allowed in state 'reading'.*READY/s, 'the denial and the way forward reach the model');
  assert.ok(!fs.existsSync(path.join(root, 'notes.md')), 'the denied patch was not applied');
  assert.match(said[1]!, /blocked by PreToolUse hook.*`touch ran.txt` is not an allowed command/s);
  assert.ok(!fs.existsSync(path.join(root, 'ran.txt')), 'the denied command never ran');
  assert.match(said[2]!, /"id":"codex-gate"/, 'the allowed cat ran and the model read its output');
  assert.match(said[3]!, /Transition READY: reading → editing/, 'the transition over MCP moved the run');
  assert.equal(fs.readFileSync(path.join(root, '.env.local'), 'utf8'), 'TOKEN=1\n', 'the patch in editing ran');
  // Codex hands a PostToolUse additionalContext to the model as a developer message before its next request.
  const developerTexts = (last.input ?? []).filter((i) => i['type'] === 'message' && i['role'] === 'developer').map((i) => JSON.stringify(i['content']));
  assert.ok(developerTexts.some((text) => text.includes('[STATEWRIGHT INTERRUPT] Writing .env.local fired interrupt')), 'the interrupt reaches the model');
  assert.ok(developerTexts.some((text) => text.includes('is in state \\"reading\\"')), 'the SessionStart briefing reaches the model');

  const state = sg(['run', 'state']);
  assert.equal(state.state, 'secrets_review');
  assert.ok(fs.existsSync(movedState), 'the record is in the moved state folder');
  assert.ok(!fs.existsSync(path.join(home, '.local', 'state', 'stategate')), 'no stategate process fell back to the default state folder (the MCP server got STATEGATE_STATE_DIR)');
  const journal = box.journal(state.run_id);
  const denied = assertGatedJournal(journal, 'codex', 'Bash');
  assert.match(denied[0]!, /"tool":"apply_patch"/);
  assert.match(denied[1]!, /"tool":"Bash"/);
  assert.ok(journal.some((l) => /"tool_result".*"tool":"apply_patch".*"client":"codex"/.test(l)), 'the allowed patch was recorded');

  // Disable takes the entries back out; both files were stategate's alone, so they go.
  sg(['disable', '--client', 'codex']);
  assert.ok(!fs.existsSync(path.join(root, '.codex', 'hooks.json')));
  assert.ok(!fs.existsSync(path.join(root, '.codex', 'config.toml')));
});
