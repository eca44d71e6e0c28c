// The real Gemini CLI (`@google/gemini-cli`, the version pinned in
// setup-gemini.sh, run as `gemini -p ... --yolo`) in a temp workspace under the
// hook and MCP entries `stategate enable --client gemini` writes into
// `.gemini/settings.json`, with a scripted stand-in for the Gemini API on
// loopback (fake-gemini.ts, GOOGLE_GEMINI_BASE_URL): no network, no account.
//
// `--yolo` approves every tool in Gemini CLI itself, so a denial can only be
// the hook's. One session, scripted turn by turn:
//   reading:  write_file notes.md → denied, the reason reaches the model;
//             read_file → allowed and counted; run_shell_command curl → denied
//             (not in allowed_commands); stategate's MCP statewright_transition
//             READY → the run moves to editing;
//   editing:  write_file .env.local → allowed, fires the interrupt (the run
//             moves to secrets_review) and the model reads [STATEWRIGHT INTERRUPT]
//             in the tool's result.
// The test skips only when setup-gemini.sh says the npm registry is out of
// reach (exit 3); any other failure to install fails it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { declared, functionResponses, startFakeGemini, type GenerateRequest, type Part } from './fake-gemini';
import { gateWorkflow, installAgentCli, runAgent, sandbox, STATEGATE_CLI } from './agent-cli';

test('Gemini CLI under stategate: denials reach the model, allowed calls count, MCP moves the run, an edit fires the interrupt', { timeout: 600_000 }, async (t) => {
  const installed = installAgentCli('setup-gemini.sh', 'STATEGATE_GEMINI');
  if ('skip' in installed) return t.skip(installed.skip);
  assert.ok(fs.existsSync(STATEGATE_CLI), 'dist/cli.js is built (npm run build)');

  // One HOME for Gemini, its hooks, its MCP server and this test's own stategate calls.
  const { home, root, env, sg, journal: journalOf } = sandbox(t, 'gemini', { GEMINI_API_KEY: 'test-key' });
  fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
  // Gemini CLI's user settings: the API-key sign-in, no telemetry or update checks; the workspace trusted
  // (Gemini reads a project's .gemini/settings.json, hooks included, only in trusted folders).
  fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, telemetry: { enabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } }));
  fs.writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [root]: 'TRUST_FOLDER' }));
  fs.writeFileSync(path.join(root, 'gate.workflow.json'), JSON.stringify(gateWorkflow('gemini-gate')));
  sg(['run', 'start', 'gate.workflow.json']);
  const enabled = sg(['enable', '--client', 'gemini']);
  assert.deepEqual(enabled.enabled[0].files.map((f: { file: string }) => f.file), ['.gemini/settings.json']);

  let transitionName = '';
  const script = (turn: number, r: GenerateRequest): Part => {
    transitionName ||= declared(r).find((n) => n.endsWith('statewright_transition')) ?? '';
    const steps: Part[] = [
      { functionCall: { name: 'write_file', args: { file_path: 'notes.md', content: 'plan\n' } } },
      { functionCall: { name: 'read_file', args: { file_path: 'gate.workflow.json' } } },
      { functionCall: { name: 'run_shell_command', args: { command: 'curl http://example.invalid', description: 'fetch' } } },
      { functionCall: { name: transitionName || 'statewright_transition', args: { event: 'READY' } } },
      { functionCall: { name: 'write_file', args: { file_path: '.env.local', content: 'TOKEN=1\n' } } },
    ];
    return steps[turn] ?? { text: 'Done.' };
  };
  const fake = await startFakeGemini(script);
  t.after(() => fake.close());

  const before = sg(['run', 'state']).iteration as number;
  const { code, output } = await runAgent(process.execPath, [installed.path, '-p', 'Do the task.', '--yolo'], { cwd: root, env: { ...env, GOOGLE_GEMINI_BASE_URL: fake.url } });
  assert.equal(code, 0, `gemini exited ${code}:\n${output.slice(-4000)}`);

  // Stategate's MCP tool was offered to the model under Gemini's name for it.
  assert.match(transitionName, /^mcp_stategate_statewright_transition$/, `declared: ${declared(fake.main[0] ?? {}).join(', ')}`);
  const answers = functionResponses(fake.main.at(-1) ?? {});
  const said = (i: number) => JSON.stringify(answers[i]?.response ?? '');
  assert.equal(answers[0]?.name, 'write_file');
  assert.match(said(0), /not allowed in state 'reading'.*READY/, 'the denial and the way forward reach the model');
  assert.ok(!fs.existsSync(path.join(root, 'notes.md')), 'the denied write did not happen');
  assert.doesNotMatch(said(1), /blocked/i, 'the read ran');
  assert.match(said(2), /not an allowed command/, 'curl is outside allowed_commands');
  assert.match(said(3), /editing/, 'the transition answered with the new state');
  assert.equal(fs.readFileSync(path.join(root, '.env.local'), 'utf8'), 'TOKEN=1\n', 'the write in editing ran');
  // said() is the response as JSON, so the interrupt's quotes are escaped there.
  assert.match(said(4), /\[STATEWRIGHT INTERRUPT\] Writing \.env\.local fired interrupt \\"secrets\\"/, 'the interrupt reaches the model in the tool result');

  const state = sg(['run', 'state']);
  assert.equal(state.state, 'secrets_review');
  // Counted: the read in reading (before the transition reset the state's count) is in the journal of
  // allowed work; the denials are journaled with the client that asked.
  const journal = journalOf(state.run_id).join('\n');
  const denied = journal.split('\n').filter((l) => l.includes('"tool_denied"'));
  assert.equal(denied.length, 2, journal);
  for (const l of denied) assert.match(l, /"client":"gemini"/);
  assert.ok(before >= 0);
  assert.match(journal, /"tool_result"[^\n]*"tool":"read_file"[^\n]*"client":"gemini"/, 'the allowed read was recorded after it ran');

  // Disable takes the entries back out; Gemini's settings file was ours alone, so it goes.
  sg(['disable', '--client', 'gemini']);
  assert.ok(!fs.existsSync(path.join(root, '.gemini', 'settings.json')));
});
