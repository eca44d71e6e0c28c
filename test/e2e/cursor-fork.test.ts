// stategate as the extension of a VS Code fork (Cursor), in code-server.
//
// What Cursor is, as far as an extension sees: a fork of VS Code 1.105.1 (the
// base its releases of 2026 report: Cursor 2.1 onwards, 3.0.16 of April 2026)
// whose own agent replaces VS Code's chat. No Cursor binary runs here: Cursor
// is not on the npm registry, and its Linux builds come only from Cursor's own
// download server. So this test runs the packaged VSIX in the harness's
// code-server (VS Code 1.139.1) and hands stategate, and only stategate, the
// API of such a fork: fork-api-shim.cjs makes the extension host answer
// stategate's `require('vscode')` with `version` 1.105.1 and without the chat
// APIs a fork may not offer (the chat participant, the language-model tools,
// the MCP server definition provider, the chat models). That proves
// activation without those APIs; it cannot prove what Cursor's own workbench
// does with the contributions (it ignores or honours them) or that Cursor's
// extension host accepts the VSIX (`engines.vscode` ^1.101.0 admits 1.105.1:
// test/unit/engines.test.ts checks that and that the API types used are
// 1.101's).
//
// With that API: the extension activates, "Show Version" reports the fork's
// version and what was left out, a workflow's problems appear, a run shows in
// the status bar, and Enable Agent Enforcement → Cursor writes
// `.cursor/hooks.json` and `.cursor/mcp.json` whose preToolUse command, run as
// Cursor runs it, answers in Cursor's shape. On the way, MCP entries an older
// version wrote (`.mcp.json`, `.gemini/settings.json`) are re-pointed at this
// extension on activation.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { waitForProblems } from './editor-actions';
import { REPO_ROOT, waitUntil, withVsCode } from './harness';

const WORKSPACE = 'test/e2e/fixtures/fork/workspace';
const SHIM = path.join(REPO_ROOT, 'test', 'e2e', 'fork-api-shim.cjs');
/** VS Code's version under Cursor's releases of 2026 (docs/agents.md gives the sources). */
const CURSOR_VSCODE_BASE = '1.105.1';
/** The APIs taken away: every one stategate feature-detects (src/vscode/editor-apis.ts). */
const REMOVED = [
  'chat',
  'lm.registerTool',
  'lm.invokeTool',
  'lm.tools',
  'lm.registerMcpServerDefinitionProvider',
  'lm.selectChatModels',
  'lm.onDidChangeChatModels',
  'McpStdioServerDefinition',
];

test('in a VS Code fork without the chat APIs (Cursor 1.105.1 base): activates, validates, runs, and Enable → Cursor writes .cursor/hooks.json', { timeout: 300_000 }, async (t) => {
  const env = { NODE_OPTIONS: `--require ${SHIM}`, STATEGATE_FORK_VSCODE_VERSION: CURSOR_VSCODE_BASE, STATEGATE_FORK_REMOVE: REMOVED.join(',') };
  await withVsCode(t, { workspace: WORKSPACE, env }, async (vsc) => {
    const ready = await vsc.hostReady();
    assert.notEqual(ready.vscodeVersion, CURSOR_VSCODE_BASE, 'other extensions keep the real API');

    // Activation (a workflow file in the folder activates stategate) with the fork's API.
    await vsc.runCommand('stategate: Show Version');
    const toast = vsc.page.locator('.notifications-toasts .notification-list-item-message', { hasText: /^stategate \d/ });
    await toast.waitFor({ timeout: 20_000 });
    const shim = JSON.parse(fs.readFileSync(path.join(vsc.ipcDir, 'fork-shim.json'), 'utf8')) as { version: string; removed: string[]; from: string };
    assert.deepEqual([...shim.removed].sort(), [...REMOVED].sort(), `the shim took every listed API away from stategate: ${JSON.stringify(shim)}`);
    assert.match(shim.from, /stategate\.stategate-[\d.]+[\\/]dist[\\/]/);
    const version = (await vsc.notifications()).find((n) => n.startsWith('stategate'))!;
    assert.match(version, new RegExp(`^stategate \\d+\\.\\d+\\.\\d+ \\(VS Code ${CURSOR_VSCODE_BASE.replace(/\./g, '\\.')}\\); not in this editor, so left out: `));
    for (const api of ['chat participant', 'language model tools', 'MCP server definitions']) assert.ok(version.includes(`${api} (not in this editor)`), `${api} listed: ${version}`);
    t.diagnostic(version);

    // Validation: the broken workflow's unknown target is a problem.
    await vsc.openFile('broken.workflow.json');
    await vsc.runCommand('View: Focus Problems');
    await waitForProblems(vsc, 'the unknown target', (rows) => rows.some((r) => r.code === 'unknown-target' && r.message.includes('`reveiw`')));

    // A run: the status bar shows it.
    await vsc.executeCommand('stategate.startRun', path.join(vsc.workspaceDir, 'build.workflow.json'));
    await vsc.waitForStatusBar('stategate.run', (text) => text === 'build › planning', 20_000);

    // MCP entries an older version wrote (the fixture's .mcp.json by hand with node, Gemini's with an editor's
    // runtime) now run this extension's CLI; Gemini's runtime is this host's, `node` stays, the rest is kept.
    const claudeMcp = path.join(vsc.workspaceDir, '.mcp.json');
    await waitUntil('.mcp.json re-pointed', () => !fs.readFileSync(claudeMcp, 'utf8').includes('/gone/'), 15_000);
    const claudeEntry = (JSON.parse(fs.readFileSync(claudeMcp, 'utf8')) as { mcpServers: { stategate: { command: string; args: string[] } } }).mcpServers.stategate;
    assert.equal(claudeEntry.command, 'node');
    assert.match(claudeEntry.args[0]!, /stategate\.stategate-[\d.]+\/dist\/cli\.js$/);
    assert.ok(fs.existsSync(claudeEntry.args[0]!), 'the CLI it names is there');
    const gemini = fs.readFileSync(path.join(vsc.workspaceDir, '.gemini', 'settings.json'), 'utf8');
    assert.ok(gemini.startsWith('{\n  // written by an older stategate'), 'comments kept');
    const geminiArgs = (parseJsonc(gemini) as { mcpServers: { stategate: { args: string[] } } }).mcpServers.stategate.args;
    assert.deepEqual(geminiArgs, ['ELECTRON_RUN_AS_NODE=1', ready.execPath, claudeEntry.args[0], 'mcp', '--dir', '/gone/ws/.stategate']);

    // Enable Agent Enforcement → Cursor, through the UI.
    await vsc.runCommand('stategate: Enable Agent Enforcement');
    await vsc.pickQuickItem('Cursor');
    const dialog = vsc.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await dialog.innerText(), /\.cursor\/hooks\.json/);
    await dialog.getByRole('button', { name: 'Write' }).click();
    const hooksFile = path.join(vsc.workspaceDir, '.cursor', 'hooks.json');
    const mcpFile = path.join(vsc.workspaceDir, '.cursor', 'mcp.json');
    await waitUntil('.cursor/hooks.json and .cursor/mcp.json', () => fs.existsSync(hooksFile) && fs.existsSync(mcpFile), 10_000);
    const hooks = JSON.parse(fs.readFileSync(hooksFile, 'utf8')) as { version: number; hooks: Record<string, { command: string; failClosed?: boolean }[]> };
    assert.equal(hooks.version, 1);
    assert.deepEqual(Object.keys(hooks.hooks).sort(), ['postToolUse', 'preToolUse', 'sessionStart', 'stop']);
    const pre = hooks.hooks['preToolUse']![0]!;
    assert.equal(pre.failClosed, true);
    assert.match(pre.command, /stategate\.stategate-[\d.]+\/dist\/cli\.js' hook --client cursor$/);
    const mcp = JSON.parse(fs.readFileSync(mcpFile, 'utf8')) as { mcpServers: { stategate: { command: string; args: string[] } } };
    assert.deepEqual(mcp.mcpServers.stategate.args.slice(1), ['mcp', '--dir', path.join(vsc.workspaceDir, '.stategate')]);

    // The command as written, run as Cursor runs it (a shell, the input on stdin), answers in Cursor's shape.
    const ask = (tool: string, input: object): { permission: string; agent_message?: string } =>
      JSON.parse(
        execFileSync('/bin/sh', ['-c', pre.command], {
          cwd: vsc.workspaceDir,
          input: JSON.stringify({ hook_event_name: 'preToolUse', conversation_id: 'fork-1', generation_id: 'g1', workspace_roots: [vsc.workspaceDir], tool_name: tool, tool_use_id: `tu-${tool}`, tool_input: input }),
          encoding: 'utf8',
        }),
      );
    const denied = ask('Write', { file_path: 'plan.md', contents: 'x\n' });
    assert.equal(denied.permission, 'deny');
    assert.match(denied.agent_message ?? '', /not allowed in state 'planning'/);
    assert.equal(ask('Read', { file_path: 'build.workflow.json' }).permission, 'allow');
    await vsc.screenshot('cursor-fork');
  });
});
