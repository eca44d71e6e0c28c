// Agents gated by stategate in the real VS Code, with a scripted language
// model (test/e2e/scripted-model) standing in for a real one:
// - @stategate typed in the Chat view: a forbidden tool is denied and the model
//   reads why; after statewright_transition the same tool runs; an agent edit
//   of a file matching an interrupt switches the state.
// - "stategate: Enable Agent Enforcement" writes the hook files after consent,
//   the hook command they name answers a real hook input, and "Disable" takes
//   back exactly what was written.
// - VS Code's own agent mode with the scripted model and the installed hook:
//   what happens is recorded (see docs/agents.md).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { test } from 'node:test';
import { Runner } from '../../src/engine/runs/runner';
import { hostRunnerVsix, REPO_ROOT, STATEGATE_VSIX, waitUntil, withVsCode, type LaunchOptions, type VsCode } from './harness';
import { scriptedModelVsix } from './scripted-model/build';
import { lastResult, openChat, received, typePrompt, type Received } from './chat';

const WORKSPACE = 'test/e2e/fixtures/agents/workspace';
const IMAGES = path.join(REPO_ROOT, 'docs', 'images');

async function launchOptions(extra: Partial<LaunchOptions> = {}): Promise<LaunchOptions> {
  return {
    workspace: WORKSPACE,
    extensions: [STATEGATE_VSIX, await hostRunnerVsix(), await scriptedModelVsix()],
    // The scripted model's file tools are unknown to the tool-name table: the setting maps them.
    settings: { 'stategate.toolAliases': { scripted_writeFile: 'Write', scripted_readFile: 'Read' }, 'chat.tools.global.autoApprove': true },
    viewport: { width: 1500, height: 950 },
    ...extra,
  };
}

async function runState(vsc: VsCode): Promise<string> {
  return (await new Runner({ dir: path.join(vsc.workspaceDir, '.stategate'), workspaceRoot: vsc.workspaceDir }).state()).state;
}

function keepScreenshot(file: string, name: string): void {
  fs.mkdirSync(IMAGES, { recursive: true });
  fs.copyFileSync(file, path.join(IMAGES, name));
}

test('@stategate in the Chat view: denied with the reason, allowed after a transition, an edit fires an interrupt', { timeout: 300_000 }, async (t) => {
  const base = await launchOptions();
  await withVsCode(t, { ...base, settings: { ...base.settings, 'stategate.syncCustomAgent': true } }, async (vsc) => {
    await vsc.hostReady();
    await vsc.executeCommand('stategate.startRun', path.join(vsc.workspaceDir, 'build.workflow.json'));
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'build › planning');
    await vsc.executeCommand('scriptedModel.setScript', [
      { text: 'I will write the notes first.', calls: [{ name: 'scripted_writeFile', input: { filePath: 'NOTES.md', content: '# Notes\n\nThe plan.\n' } }] },
      { text: 'Denied: the plan is done, so I move on.', calls: [{ name: 'statewright_transition', input: { event: 'READY' } }] },
      { calls: [{ name: 'scripted_writeFile', input: { filePath: 'NOTES.md', content: '# Notes\n\nThe plan.\n' } }] },
      { calls: [{ name: 'scripted_writeFile', input: { filePath: '.env.local', content: 'API_KEY=x\n' } }] },
      { text: 'The notes are written; a secrets review is next.' },
    ]);
    await openChat(vsc);
    await typePrompt(vsc, '@stategate write the notes');
    const r = await received(vsc, 5);
    assert.equal(r.length, 5, `the model was asked 5 times, got ${r.length}`);
    assert.ok(r.every((x) => x.model === 'scripted'));

    // Planning allows Read only: the write tool is not offered, and the call is denied with the reason.
    assert.ok(r[0]!.tools.includes('scripted_readFile') && !r[0]!.tools.includes('scripted_writeFile'), `offered in planning: ${r[0]!.tools.join(', ')}`);
    assert.ok(r[0]!.tools.includes('statewright_transition') && !r[0]!.tools.includes('statewright_force_state'));
    const briefing = r[0]!.messages[0]!.parts[0];
    assert.ok(briefing?.kind === 'text' && /state "planning"/.test(briefing.value) && /Read the code and plan/.test(briefing.value), 'the briefing comes first');
    assert.match(lastResult(r[1]) ?? '', /^stategate denied scripted_writeFile: .*not allowed in state 'planning'.*READY/s);
    // The transition: the same tool is offered at once, and runs.
    assert.match(lastResult(r[2]) ?? '', /Transition READY: planning → implementing/);
    assert.ok(r[2]!.tools.includes('scripted_writeFile'), `offered in implementing: ${r[2]!.tools.join(', ')}`);
    assert.match(lastResult(r[3]) ?? '', /^wrote \d+ characters to NOTES\.md/);
    assert.equal(fs.readFileSync(path.join(vsc.workspaceDir, 'NOTES.md'), 'utf8'), '# Notes\n\nThe plan.\n');
    // The edit of .env.local fires the interrupt; the model is told with the marker.
    assert.match(lastResult(r[4]) ?? '', /\[STATEWRIGHT INTERRUPT\] secrets: \.env\.local changed/);
    assert.equal(await runState(vsc), 'secrets_review');
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'build › secrets_review');

    // Custom agent sync followed the run: only what secrets_review allows, plus stategate's tools.
    const agentFile = path.join(vsc.workspaceDir, '.github', 'agents', 'stategate.agent.md');
    const synced = Date.now() + 10_000;
    while (!(fs.existsSync(agentFile) && fs.readFileSync(agentFile, 'utf8').includes('secrets_review')) && Date.now() < synced) await new Promise((res) => setTimeout(res, 200));
    const agentMd = fs.readFileSync(agentFile, 'utf8');
    const tools = JSON.parse(/^tools: (\[.*\])$/m.exec(agentMd)![1]!) as string[];
    // A contributed tool without a reference name is listed by its full name, which VS Code resolves.
    assert.ok(tools.includes('statewright_transition') && tools.includes('stategate-test.stategate-e2e-scripted-model/Scripted: Read File'), tools.join(', '));
    assert.ok(!tools.some((x) => /Write File|createFile|statewright_force_state/.test(x)), tools.join(', '));
    assert.match(agentMd, /Instructions: A secrets file changed/);

    // The chat stream shows the denial, the state changes and the interrupt.
    const answer = vsc.page.locator('.interactive-item-container').last();
    await answer.getByText('The notes are written').waitFor({ timeout: 15_000 });
    await vsc.page.getByText(/Completed \d+ steps/).first().click();
    const shown = await answer.innerText();
    for (const s of ['stategate denied', 'State: planning → implementing', '[STATEWRIGHT INTERRUPT]', 'State: implementing → secrets_review']) assert.ok(shown.includes(s), `the stream shows "${s}":\n${shown}`);
    keepScreenshot(await vsc.screenshot('agents-participant'), 'agents-participant.png');
  });
});

/** A PreToolUse input in VS Code's shape (fields from VS Code's hooks documentation; see test/fixtures/hooks/README.md). */
function vscodePreToolUse(cwd: string, tool: string, input: object): string {
  return JSON.stringify({ hookEventName: 'PreToolUse', sessionId: 'e2e-1', timestamp: new Date().toISOString(), cwd, transcript_path: path.join(cwd, 't.json'), tool_name: tool, tool_input: input, tool_use_id: 'call-e2e' });
}

test('Enable Agent Enforcement: consent, hook files, a working hook command; Disable takes back only what it wrote', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, await launchOptions(), async (vsc) => {
    await vsc.hostReady();
    const claudeFile = path.join(vsc.workspaceDir, '.claude', 'settings.local.json');
    const mine = { permissions: { allow: ['Bash(npm test)'] }, hooks: { Notification: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] } };
    fs.mkdirSync(path.dirname(claudeFile), { recursive: true });
    fs.writeFileSync(claudeFile, JSON.stringify(mine));
    await vsc.executeCommand('stategate.startRun', path.join(vsc.workspaceDir, 'build.workflow.json'));

    await vsc.runCommand('stategate: Enable Agent Enforcement');
    await vsc.pickQuickItem('VS Code agents and Claude Code');
    const dialog = vsc.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    const consent = await dialog.innerText();
    assert.match(consent, /\.github\/hooks\/stategate\.json/);
    assert.match(consent, /\.claude\/settings\.local\.json/);
    assert.ok(!fs.existsSync(path.join(vsc.workspaceDir, '.github')), 'nothing is written before consent');
    keepScreenshot(await vsc.screenshot('agents-enable-enforcement'), 'agents-enable-enforcement.png');
    await dialog.getByRole('button', { name: 'Write' }).click();

    const hookFile = path.join(vsc.workspaceDir, '.github', 'hooks', 'stategate.json');
    // Enable writes the hook file first and merges into the Claude Code settings after it: wait for both.
    const written = (): boolean => fs.existsSync(hookFile) && fs.readFileSync(claudeFile, 'utf8').includes('PreToolUse');
    const end = Date.now() + 10_000;
    while (!written() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    const hooks = JSON.parse(fs.readFileSync(hookFile, 'utf8')) as { hooks: Record<string, { command: string; env: Record<string, string>; timeout: number }[]> };
    assert.deepEqual(Object.keys(hooks.hooks).sort(), ['PostToolUse', 'PreToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    const pre = hooks.hooks['PreToolUse']![0]!;
    const ready = await vsc.hostReady();
    // The line checks that the CLI and the runtime are there (exit 2 when not), then runs the CLI with the host's runtime.
    assert.match(pre.command, /^\[ -f '[^']*\/dist\/cli\.js' \] \|\| \{ printf .*exit 2; \}; \[ -x '[^']*' \] \|\| \{ printf .*exit 2; \}; /, `guarded: ${pre.command}`);
    assert.ok(pre.command.includes(`; '${ready.execPath}' '`), `runs with the host's runtime: ${pre.command}`);
    assert.match(pre.command, /stategate\.stategate-[\d.]+\/dist\/cli\.js' hook --client vscode$/);
    assert.deepEqual(pre.env, { ELECTRON_RUN_AS_NODE: '1' });
    const claude = JSON.parse(fs.readFileSync(claudeFile, 'utf8')) as typeof mine & { hooks: Record<string, unknown[]> };
    assert.deepEqual(claude.permissions, mine.permissions, 'other settings are kept');
    assert.deepEqual(claude.hooks['Notification'], mine.hooks.Notification);
    assert.equal(claude.hooks['PreToolUse']!.length, 1);

    // The command as written answers a hook input: planning forbids create_file, allows read_file.
    const ask = (tool: string, input: object): string =>
      execFileSync('/bin/sh', ['-c', pre.command], { cwd: vsc.workspaceDir, input: vscodePreToolUse(vsc.workspaceDir, tool, input), env: { ...process.env, ...pre.env }, encoding: 'utf8' });
    const denied = JSON.parse(ask('create_file', { filePath: path.join(vsc.workspaceDir, 'x.md'), content: 'x' })) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    assert.equal(denied.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(denied.hookSpecificOutput.permissionDecisionReason, /not allowed in state 'planning'/);
    assert.ok(!/"deny"/.test(ask('read_file', { filePath: path.join(vsc.workspaceDir, 'NOTES.md') })));
    // stategate.toolAliases reaches the hook through .stategate/tool-aliases.json: the scripted
    // model's reader counts as Read (allowed in planning); an unmapped id is still refused.
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(vsc.workspaceDir, '.stategate', 'tool-aliases.json'), 'utf8')), { scripted_writeFile: 'Write', scripted_readFile: 'Read' });
    assert.ok(!/"deny"/.test(ask('scripted_readFile', { path: path.join(vsc.workspaceDir, 'NOTES.md') })));
    assert.match(ask('unmapped_readFile', { path: path.join(vsc.workspaceDir, 'NOTES.md') }), /"deny"/);

    // What Claude Code reads (the same entries work in .claude/settings.json): a screen for the README.
    await vsc.openFile('.claude/settings.local.json');
    keepScreenshot(await vsc.screenshot('agents-claude-settings'), 'agents-claude-settings.png');

    await vsc.runCommand('stategate: Disable Agent Enforcement');
    // Disable removes the hook file first and rewrites the Claude Code settings after it: wait for both.
    const restored = (): boolean => {
      try {
        return isDeepStrictEqual(JSON.parse(fs.readFileSync(claudeFile, 'utf8')), mine);
      } catch {
        return false;
      }
    };
    const gone = Date.now() + 10_000;
    while ((fs.existsSync(hookFile) || !restored()) && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
    assert.ok(!fs.existsSync(hookFile));
    assert.deepEqual(JSON.parse(fs.readFileSync(claudeFile, 'utf8')), mine, 'the Claude Code settings are back as they were');
  });
});

/**
 * VS Code's own agent runs here without a GitHub sign-in once anonymous access is
 * allowed and the chat's utility models (titles, summaries) are pointed at a
 * BYOK model: without these settings a prompt to the agent opens "Sign in to use
 * GitHub Copilot" (docs/agents.md).
 */
const SIGNED_OUT_AGENT: Readonly<Record<string, unknown>> = {
  'chat.allowAnonymousAccess': true,
  'chat.byokUtilityModelDefault': 'mainAgent',
  'chat.utilityModel': 'scripted/scripted',
  'chat.utilitySmallModel': 'scripted/scripted',
};

test('VS Code\'s own agent mode with the scripted model: the installed hook denies, briefs, records, interrupts', { timeout: 300_000 }, async (t) => {
  const base = await launchOptions();
  await withVsCode(t, { ...base, settings: { ...base.settings, ...SIGNED_OUT_AGENT } }, async (vsc) => {
    await vsc.hostReady();
    await vsc.executeCommand('stategate.startRun', path.join(vsc.workspaceDir, 'build.workflow.json'));
    await vsc.runCommand('stategate: Enable Agent Enforcement');
    await vsc.pickQuickItem('VS Code agents');
    await vsc.page.locator('.monaco-dialog-box').getByRole('button', { name: 'Write' }).click();
    const ws = (f: string): string => path.join(vsc.workspaceDir, f);
    // VS Code picks up a new hook file through its file watcher: give it a moment, or the first call may run ungated.
    const written = Date.now() + 10_000;
    while (!fs.existsSync(ws('.github/hooks/stategate.json')) && Date.now() < written) await new Promise((res) => setTimeout(res, 100));
    await vsc.page.waitForTimeout(3_000);
    // Which file-writing tool the built-in agent offers depends on VS Code's own choices (seen here: create_file in
    // one launch, only replace_string_in_file / insert_edit_into_file in another), so ask it first with a one-turn
    // prompt, then script the scenario with the writer it offers. Both are Edit/Write in the tool-name table.
    await vsc.executeCommand('scriptedModel.setScript', [{ text: 'Ready.' }]);
    await openChat(vsc);
    await typePrompt(vsc, 'hello');
    const offered = (await received(vsc, 1, 60_000))[0]?.tools ?? [];
    const writer = offered.includes('create_file') ? 'create_file' : offered.includes('replace_string_in_file') ? 'replace_string_in_file' : undefined;
    assert.ok(writer, `the agent offers a file-writing tool: ${offered.join(', ')}`);
    if (writer === 'replace_string_in_file') {
      fs.writeFileSync(ws('PLAN.md'), 'DRAFT');
      fs.writeFileSync(ws('.env.local'), 'DRAFT');
    }
    const write = (file: string, content: string) =>
      writer === 'create_file'
        ? { name: 'create_file', input: { filePath: ws(file), content } }
        : { name: 'replace_string_in_file', input: { filePath: ws(file), oldString: 'DRAFT', newString: content } };
    t.diagnostic(`the built-in agent's writer here: ${writer}`);
    await vsc.executeCommand('scriptedModel.setScript', [
      { text: 'Writing the plan.', calls: [write('PLAN.md', '# Plan\n')] },
      { calls: [{ name: 'statewright_transition', input: { event: 'READY' } }] },
      { calls: [write('PLAN.md', '# Plan\n')] },
      { calls: [write('.env.local', 'API_KEY=x\n')] },
      { text: 'Done.' },
    ]);
    await typePrompt(vsc, 'write the plan');
    const r = await received(vsc, 5, 60_000);
    const chatText = await vsc.page.locator('.interactive-session').first().innerText().catch(() => '');
    fs.mkdirSync(path.join(REPO_ROOT, 'test-artifacts'), { recursive: true });
    fs.writeFileSync(path.join(REPO_ROOT, 'test-artifacts', 'agents-builtin-agent.json'), JSON.stringify({ received: r, chatText }, null, 2));
    assert.equal(r.length, 5, `the agent asked the model ${r.length} times; the Chat view shows ${JSON.stringify(chatText.slice(0, 400))}`);
    const allText = (x: Received | undefined): string => (x?.messages ?? []).flatMap((m) => m.parts.map((p) => (p.kind === 'text' ? p.value : ''))).join('\n');
    // The agent lists stategate's LM tools and, through the MCP server definition provider, the MCP server's.
    assert.ok(r[0]!.tools.includes('statewright_transition') && r[0]!.tools.includes('mcp_stategate_statewright_transition'), r[0]!.tools.join(', '));
    // SessionStart / UserPromptSubmit: the briefing reaches the model as hook context.
    assert.match(allText(r[0]), /Additional instructions from hooks: stategate: workflow "build" is in state "planning"/);
    // PreToolUse: planning forbids create_file; the file is not written and the model reads why.
    assert.match(lastResult(r[1]) ?? '', /not allowed in state 'planning'/);
    // stategate's LM tool moves the workflow on; then the same tool passes the hook and runs.
    assert.match(lastResult(r[2]) ?? '', /Transition READY: planning → implementing/);
    assert.equal(fs.readFileSync(ws('PLAN.md'), 'utf8'), '# Plan\n');
    // PostToolUse: the edit of .env.local fires the interrupt, and the hook answers with the marker (VS Code's hook log).
    // VS Code may ask the model again before that hook process has ended (a loaded machine: 1 s per hook), so wait for it.
    await waitUntil('the interrupt of the .env.local write (secrets_review)', async () => (await runState(vsc)) === 'secrets_review', 15_000).catch(() => undefined);
    assert.equal(await runState(vsc), 'secrets_review');
    // The interrupt goes out as a block reason (which VS Code passes to the model) and as additionalContext.
    const marker = /\[PostToolUse\] Output: \{"decision":"block","reason":"\[STATEWRIGHT INTERRUPT\] Writing \.env\.local fired interrupt/;
    const logEnd = Date.now() + 15_000;
    while (!marker.test(vsc.readLogs(/Hooks/)) && Date.now() < logEnd) await new Promise((res) => setTimeout(res, 250));
    assert.match(vsc.readLogs(/Hooks/), marker);
    // Seen with VS Code 1.139.1: the agent does not put PostToolUse additionalContext before the model in the
    // requests that follow (docs/agents.md); the next turn's briefing (UserPromptSubmit) carries the interrupt.
    t.diagnostic(`PostToolUse context reached the model: ${/\[STATEWRIGHT INTERRUPT\]/.test(JSON.stringify(r[4]))}`);
    const journal = fs.readFileSync(path.join(vsc.workspaceDir, '.stategate', 'runs', fs.readdirSync(path.join(vsc.workspaceDir, '.stategate', 'runs'))[0]!, 'journal.jsonl'), 'utf8');
    assert.match(journal, /"tool_denied"/);
    await vsc.page.getByText(/Completed \d+ steps|Worked for|Finished/).first().click().catch(() => undefined);
    keepScreenshot(await vsc.screenshot('agents-builtin-agent'), 'agents-builtin-agent.png');
  });
});

test('without those settings VS Code\'s own agent asks for a GitHub sign-in and never reaches the model', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, await launchOptions(), async (vsc) => {
    await vsc.hostReady();
    await vsc.executeCommand('scriptedModel.setScript', [{ text: 'unreachable' }]);
    await openChat(vsc);
    await typePrompt(vsc, 'write the plan');
    await vsc.page.getByText('Sign in to use GitHub Copilot').first().waitFor({ timeout: 30_000 });
    await vsc.page.waitForTimeout(3_000);
    assert.deepEqual(await vsc.executeCommand('scriptedModel.received'), []);
    keepScreenshot(await vsc.screenshot('agents-builtin-signin'), 'agents-builtin-signin.png');
  });
});

test('in Restricted Mode Enable Agent Enforcement writes nothing and says why', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, { ...(await launchOptions()), restricted: true }, async (vsc) => {
    const ready = await vsc.hostReady();
    assert.equal(ready.trusted, false);
    await vsc.runCommand('stategate: Enable Agent Enforcement');
    await vsc.page.locator('.notifications-toasts .notification-list-item-message', { hasText: /trusted workspaces only/ }).waitFor({ timeout: 15_000 });
    assert.ok(!fs.existsSync(path.join(vsc.workspaceDir, '.github')));
    assert.ok(!fs.existsSync(path.join(vsc.workspaceDir, '.claude')));
  });
});

test('@stategate: a transition that needs approval shows Approve / Reject, and Approve moves the run', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, await launchOptions(), async (vsc) => {
    await vsc.hostReady();
    await vsc.executeCommand('stategate.startRun', path.join(vsc.workspaceDir, 'build.workflow.json'));
    await vsc.executeCommand('scriptedModel.setScript', [
      { calls: [{ name: 'statewright_transition', input: { event: 'READY' } }] },
      { calls: [{ name: 'statewright_transition', input: { event: 'SHIP' } }] },
      { text: 'Waiting for your approval.' },
    ]);
    await openChat(vsc);
    await typePrompt(vsc, '@stategate ship it');
    const r = await received(vsc, 3);
    assert.match(lastResult(r[2]) ?? '', /waiting for a person's approval/);
    const approve = vsc.page.locator('.interactive-item-container').last().getByRole('button', { name: 'Approve' });
    await approve.waitFor({ timeout: 15_000 });
    assert.ok(await vsc.page.locator('.interactive-item-container').last().getByRole('button', { name: 'Reject' }).isVisible());
    keepScreenshot(await vsc.screenshot('agents-participant-approval'), 'agents-participant-approval.png');
    assert.equal(await runState(vsc), 'implementing');
    await approve.click();
    await vsc.waitForStatusBar('stategate.run', (text) => text.includes('done'), 15_000).catch(() => undefined);
    const end = Date.now() + 10_000;
    while ((await runState(vsc)) !== 'done' && Date.now() < end) await new Promise((res) => setTimeout(res, 200));
    assert.equal(await runState(vsc), 'done');
  });
});
