/**
 * The entries `stategate enable --client NAME` (and "Enable Agent
 * Enforcement") write into each client's configuration: merged into what the
 * person has (comments, other hooks, other MCP servers kept), idempotent,
 * taken back cleanly by disable, refused on files that do not parse, and every
 * file that switches a gate on is one the agent may not write
 * (enforcement-files.ts). Then the CLI end to end: the command line written
 * into each client's hook entry, run through `sh -c` as the client would,
 * answers in that client's format.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { ClientConfigError, clientLaunch, HOOK_CLIENTS, planDisable, planEnable, repointHookEntries, type HookClientName, type HostRuntime } from '../../src/engine/index';
// Where each client keeps its files, and one entry's shape: the engine's own tables, which the shells never name.
import {
  CODEX_CONFIG_FILE,
  CODEX_HOOKS_FILE,
  COPILOT_HOOK_FILE,
  COPILOT_MCP_FILE,
  copilotMcpEntry,
  CURSOR_HOOKS_FILE,
  GEMINI_SETTINGS_FILE,
  OPENCODE_PLUGIN_FILE,
  type FileWrite,
} from '../../src/engine/clients/client-configs';
import { enforcementFileAt } from '../../src/engine/util/paths/enforcement-files';
import { cli, CLI, REPO_ROOT } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const RT: HostRuntime = { execPath: '/opt/VS Code/code', extensionPath: '/home/a b/.vscode/extensions/stategate.stategate-0.1.0', platform: 'linux' };
const LAUNCH = clientLaunch(RT, '/work/p/.stategate');

type Files = Record<string, string>;

function run(files: Files, plan: (read: (f: string) => string | undefined) => readonly FileWrite[]): Files {
  const next = { ...files };
  for (const w of plan((f) => next[f])) {
    if (w.text === undefined) delete next[w.file];
    else next[w.file] = w.text;
  }
  return next;
}
const enable = (client: HookClientName, files: Files) => run(files, (read) => planEnable(client, read, LAUNCH, RT));
const disable = (client: HookClientName, files: Files) => run(files, (read) => planDisable(client, read).writes);
const jsonc = (text: string | undefined) => parseJsonc(text ?? '{}') as Record<string, any>;

/** smol-toml's CommonJS build (the package's types are ESM-only). */
const parseToml = (text: string): unknown => (require('smol-toml') as { parse(t: string): unknown }).parse(text);

/** What a person already has, per client (comments, their own hooks and servers). */
const EXISTING: Record<Exclude<HookClientName, 'vscode'>, Files> = {
  claude: { '.claude/settings.local.json': '{"permissions": {"allow": ["Bash(ls)"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}]}}\n' },
  codex: {
    [CODEX_HOOKS_FILE]: '{\n  "hooks": {\n    "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "audit.sh" }] }]\n  }\n}\n',
    [CODEX_CONFIG_FILE]: '# my Codex\nmodel = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = ["--port", "0"]\n\n[profiles.fast]\nmodel = "gpt-5-mini"\n',
  },
  gemini: { [GEMINI_SETTINGS_FILE]: '{\n  // my theme\n  "theme": "GitHub",\n  "hooks": { "BeforeTool": [{ "matcher": "write_file", "hooks": [{ "type": "command", "command": "lint.sh" }] }] },\n  "mcpServers": { "docs": { "command": "docs-mcp" } }\n}\n' },
  // `.mcp.json` is also Claude Code's project file: a person's servers for either client sit there.
  copilot: { '.mcp.json': '{\n  "mcpServers": {\n    // mine\n    "docs": { "type": "local", "command": "docs-mcp", "tools": ["*"] }\n  }\n}\n' },
  cursor: {
    [CURSOR_HOOKS_FILE]: '{\n  "version": 1,\n  // mine\n  "hooks": { "beforeShellExecution": [{ "command": "./audit.sh" }] }\n}\n',
    '.cursor/mcp.json': '{ "mcpServers": { "docs": { "command": "docs-mcp" } } }\n',
  },
  opencode: { 'opencode.jsonc': '{\n  // mine\n  "$schema": "https://opencode.ai/config.json",\n  "mcp": { "docs": { "type": "local", "command": ["docs-mcp"] } }\n}\n' },
};

/** Parsed content, whatever the format, for "the same settings" comparisons. */
function parsed(file: string, text: string): unknown {
  return file.endsWith('.toml') ? parseToml(text) : file.endsWith('.js') ? text : jsonc(text);
}

for (const client of HOOK_CLIENTS) {
  test(`${client}: enable on an empty workspace, then disable, leaves nothing`, () => {
    const on = enable(client, {});
    assert.ok(Object.keys(on).length > 0);
    assert.deepEqual(enable(client, on), on, 'enabling twice changes nothing');
    assert.deepEqual(disable(client, on), {}, 'disable removes every file it wrote');
  });

  test(`${client}: every hook file written is one an agent may not write`, () => {
    const root = '/work/p';
    const protectedOnes = Object.keys(enable(client, {})).filter((f) => !/mcp\.json$/.test(f));
    assert.ok(protectedOnes.length > 0);
    for (const f of protectedOnes) {
      assert.ok(enforcementFileAt(path.posix.join(root, f), { root, home: '/home/u', stateDir: '/home/u/.local/state/stategate', platform: 'linux', env: {} }), `${f} is not in enforcement-files.ts`);
    }
  });
}

for (const [client, files] of Object.entries(EXISTING) as [Exclude<HookClientName, 'vscode'>, Files][]) {
  test(`${client}: enable merges into the person's files, disable gives them back`, () => {
    const on = enable(client, files);
    for (const [file, text] of Object.entries(files)) {
      const after = on[file]!;
      // Comments survive the merge (jsonc edits) and the TOML text keeps every line it had.
      for (const line of text.split('\n').filter((l) => /^\s*(#|\/\/)/.test(l))) assert.ok(after.includes(line.trim()), `${file} lost "${line.trim()}"`);
    }
    const off = disable(client, on);
    assert.deepEqual(Object.keys(off).sort(), Object.keys(files).sort(), 'the person\'s files stay, ours go');
    for (const [file, text] of Object.entries(files)) assert.deepEqual(parsed(file, off[file]!), parsed(file, text), `${file} after disable`);
  });
}

test('codex: the TOML keeps the person\'s tables byte for byte, and ours is one table', () => {
  const before = EXISTING.codex[CODEX_CONFIG_FILE]!;
  const after = enable('codex', EXISTING.codex)[CODEX_CONFIG_FILE]!;
  assert.ok(after.startsWith(before.trimEnd()), 'the original text is kept as it was');
  const toml = parseToml(after) as any;
  assert.deepEqual(JSON.parse(JSON.stringify(toml.mcp_servers.stategate)), { command: RT.execPath, args: [`${RT.extensionPath}/dist/cli.js`, 'mcp', '--dir', '/work/p/.stategate'], env: { ELECTRON_RUN_AS_NODE: '1' }, env_vars: ['STATEGATE_STATE_DIR', 'XDG_STATE_HOME'] });
  assert.equal(toml.profiles.fast.model, 'gpt-5-mini');
  assert.equal(disable('codex', { [CODEX_CONFIG_FILE]: after })[CODEX_CONFIG_FILE], before);
});

test('copilot: the MCP entry goes to the workspace .mcp.json (what Copilot CLI 1.0.102 lists), in Copilot\'s shape', () => {
  const on = enable('copilot', {});
  assert.equal(COPILOT_MCP_FILE, '.mcp.json');
  assert.equal(on['.github/mcp.json'], undefined, 'nothing in .github/mcp.json: Copilot CLI does not read it when .mcp.json exists');
  const s = jsonc(on['.mcp.json']).mcpServers.stategate;
  assert.deepEqual({ type: s.type, tools: s.tools }, { type: 'stdio', tools: ['*'] });
  assert.match([s.command, ...s.args].join(' '), /cli\.js mcp --dir \/work\/p\/\.stategate$/);
});

test('copilot: enable moves an entry an older stategate left in .github/mcp.json, keeping the person\'s servers there', () => {
  const legacy = JSON.stringify({ mcpServers: { docs: { type: 'local', command: 'docs-mcp', tools: ['*'] }, stategate: { ...copilotMcpEntry(LAUNCH), type: 'local' } } });
  const on = enable('copilot', { '.github/mcp.json': legacy });
  assert.deepEqual(Object.keys(jsonc(on['.github/mcp.json']).mcpServers), ['docs']);
  assert.ok(jsonc(on['.mcp.json']).mcpServers.stategate);
  const alone = enable('copilot', { '.github/mcp.json': JSON.stringify({ mcpServers: { stategate: copilotMcpEntry(LAUNCH) } }) });
  assert.equal(alone['.github/mcp.json'], undefined, 'a file that held only ours is removed');
  const off = disable('copilot', { '.github/mcp.json': legacy });
  assert.deepEqual(Object.keys(jsonc(off['.github/mcp.json']).mcpServers), ['docs'], 'disable cleans the old place too');
});

test('copilot: disable leaves a stategate server Claude Code was given in .mcp.json (no Copilot `tools` list)', () => {
  const claude = JSON.stringify({ mcpServers: { stategate: { type: 'stdio', command: 'node', args: ['/x/dist/cli.js', 'mcp'] } } });
  assert.equal(disable('copilot', { '.mcp.json': claude })['.mcp.json'], claude);
});

test('gemini: hooks on the five events, nested, timeout in milliseconds, and the MCP server', () => {
  const s = jsonc(enable('gemini', {})[GEMINI_SETTINGS_FILE]);
  assert.deepEqual(Object.keys(s.hooks).sort(), ['AfterAgent', 'AfterTool', 'BeforeAgent', 'BeforeTool', 'SessionStart']);
  const h = s.hooks.BeforeTool[0].hooks[0];
  assert.equal(h.type, 'command');
  assert.equal(h.timeout, 10000);
  assert.match(h.command, /cli\.js' hook --client gemini$/);
  // The runtime's variable rides in the command: Gemini drops ELECTRON_RUN_AS_NODE from an MCP server's env.
  assert.equal(s.mcpServers.stategate.command, '/usr/bin/env');
  assert.match(s.mcpServers.stategate.args.join(' '), /^ELECTRON_RUN_AS_NODE=1 \/opt\/VS Code\/code .*cli\.js mcp --dir/);
  assert.equal(s.mcpServers.stategate.env, undefined);
});

test('copilot: its own file, version 1, one entry per event naming the event (its input names none)', () => {
  const f = JSON.parse(enable('copilot', {})[COPILOT_HOOK_FILE]!);
  assert.equal(f.version, 1);
  for (const [event, [entry]] of Object.entries(f.hooks) as [string, any[]][]) {
    assert.equal(entry.type, 'command');
    assert.equal(entry.timeoutSec, 10);
    assert.match(entry.bash, new RegExp(`hook --client copilot --event ${event}$`));
  }
});

test('cursor: preToolUse fails closed; version is added only when missing', () => {
  const f = jsonc(enable('cursor', {})[CURSOR_HOOKS_FILE]);
  assert.equal(f.version, 1);
  assert.equal(f.hooks.preToolUse[0].failClosed, true);
  assert.match(f.hooks.preToolUse[0].command, /hook --client cursor$/);
});

test('opencode: the plugin runs the hook command and is recognised as ours; a hand-edited one is left', () => {
  const on = enable('opencode', {});
  const plugin = on[OPENCODE_PLUGIN_FILE]!;
  assert.match(plugin, /"tool\.execute\.before"/);
  assert.match(plugin, /hook --client opencode/);
  const edited: Files = { ...on, [OPENCODE_PLUGIN_FILE]: plugin.replace('const TIMEOUT_MS = 10000', 'const TIMEOUT_MS = 1') + '\n// mine' };
  const { notes } = planDisable('opencode', (f) => edited[f]);
  assert.deepEqual(notes, []); // still ours (marker and command), so it goes
  const foreign: Files = { [OPENCODE_PLUGIN_FILE]: '// my plugin\nexport const X = async () => ({})\n' };
  assert.match(planDisable('opencode', (f) => foreign[f]).notes.join(), /changed by hand/);
});

test('files that do not parse, and a foreign "stategate" MCP server, are refused, never overwritten', () => {
  assert.throws(() => planEnable('gemini', () => '{ "theme": ', LAUNCH, RT), ClientConfigError);
  assert.throws(() => planEnable('codex', (f) => (f === CODEX_CONFIG_FILE ? 'model = ' : undefined), LAUNCH, RT), ClientConfigError);
  assert.throws(() => planEnable('cursor', (f) => (f === '.cursor/mcp.json' ? '{"mcpServers": {"stategate": {"command": "other"}}}' : undefined), LAUNCH, RT), /does not run stategate/);
  assert.throws(() => planEnable('codex', (f) => (f === CODEX_CONFIG_FILE ? '[mcp_servers.stategate]\ncommand = "other"\n' : undefined), LAUNCH, RT), /does not run stategate/);
});

test('an update re-points the new clients\' entries at the new CLI, keeping each file\'s own repair text and event', () => {
  const moved: HostRuntime = { ...RT, extensionPath: '/home/a b/.vscode/extensions/stategate.stategate-0.2.0' };
  for (const file of [GEMINI_SETTINGS_FILE, CODEX_HOOKS_FILE, CURSOR_HOOKS_FILE, COPILOT_HOOK_FILE]) {
    const client = (file.startsWith('.gemini') ? 'gemini' : file.startsWith('.codex') ? 'codex' : file.startsWith('.cursor') ? 'cursor' : 'copilot') as HookClientName;
    const text = enable(client, {})[file]!;
    const next = repointHookEntries(text, moved)!;
    assert.ok(next, `${file} re-pointed`);
    // The hook commands move (MCP server entries: repoint-mcp.test.ts).
    const commands = JSON.stringify(jsonc(next).hooks);
    assert.ok(!commands.includes('stategate-0.1.0') && commands.includes('stategate-0.2.0'));
    assert.ok(next.includes(`hooks from ${file} (`), 'the repair text still names this file');
    if (client === 'copilot') assert.match(commands, /--event agentStop"/, 'each entry keeps its event');
  }
});

test('stategate enable --client: the written hook command, run as each client runs it, answers in its format', () => {
  const root = tempDir('sg-enable-');
  fs.writeFileSync(path.join(root, 'w.workflow.json'), JSON.stringify({ id: 'w', initial: 'plan', states: { plan: { allowed_tools: ['Read'], on: { GO: 'done' } }, done: { type: 'final' } } }));
  assert.equal(cli(['run', 'start', 'w.workflow.json'], { cwd: root }).code, 0);
  const r = cli(['enable', '--client', 'gemini', '--client', 'codex', '--client', 'copilot', '--client', 'cursor', '--root', root], { cwd: root });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json.enabled.map((e: any) => e.client), ['gemini', 'codex', 'copilot', 'cursor']);
  const sh = (command: string, input: object) => spawnSync('/bin/sh', ['-c', command], { cwd: root, input: JSON.stringify(input), encoding: 'utf8' });
  const gemini = jsonc(fs.readFileSync(path.join(root, GEMINI_SETTINGS_FILE), 'utf8')).hooks.BeforeTool.at(-1).hooks[0].command;
  assert.ok(gemini.includes(CLI), 'the hook runs this CLI');
  const g = sh(gemini, { hook_event_name: 'BeforeTool', session_id: 's', cwd: root, tool_name: 'write_file', tool_input: { file_path: 'x.md', content: 'x' } });
  assert.equal(JSON.parse(g.stdout).decision, 'deny');
  const codex = jsonc(fs.readFileSync(path.join(root, CODEX_HOOKS_FILE), 'utf8')).hooks.PreToolUse[0].hooks[0].command;
  const c = sh(codex, { hook_event_name: 'PreToolUse', session_id: 's', cwd: root, tool_name: 'Bash', tool_use_id: 'u', tool_input: { command: 'ls' } });
  assert.equal(JSON.parse(c.stdout).hookSpecificOutput.permissionDecision, 'deny');
  const copilot = JSON.parse(fs.readFileSync(path.join(root, COPILOT_HOOK_FILE), 'utf8')).hooks.preToolUse[0].bash;
  const p = sh(copilot, { timestamp: 1, cwd: root, toolName: 'view', toolArgs: '{"path":"w.workflow.json"}' });
  assert.equal(p.status, 0);
  assert.equal(p.stdout, '', 'an allowed call: Copilot CLI reads silence as go on');
  const off = cli(['disable', '--root', root], { cwd: root });
  assert.equal(off.code, 0, off.stderr);
  for (const f of [GEMINI_SETTINGS_FILE, CODEX_HOOKS_FILE, CODEX_CONFIG_FILE, COPILOT_HOOK_FILE, CURSOR_HOOKS_FILE]) assert.ok(!fs.existsSync(path.join(root, f)), `${f} removed`);
  assert.ok(REPO_ROOT);
});

test('stategate enable refuses an unknown client and a file it cannot edit, writing nothing', () => {
  const root = tempDir('sg-enable-bad-');
  assert.equal(cli(['enable', '--client', 'emacs', '--root', root], { cwd: root }).code, 2);
  fs.mkdirSync(path.join(root, '.gemini'));
  fs.writeFileSync(path.join(root, '.gemini', 'settings.json'), '{ broken');
  const r = cli(['enable', '--client', 'codex', '--client', 'gemini', '--root', root], { cwd: root });
  assert.equal(r.code, 1);
  assert.match(r.json.error.message, /settings\.json is not a JSON object/);
  assert.ok(!fs.existsSync(path.join(root, CODEX_HOOKS_FILE)), 'nothing written when one client cannot be');
});
