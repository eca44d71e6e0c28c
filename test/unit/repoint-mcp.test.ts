/**
 * After an update moved the extension (a new version folder) or VS Code moved,
 * the MCP server entries that run stategate in every client's config, and
 * OpenCode's plugin, are pointed at the new CLI and runtime
 * (src/engine/clients/repoint-mcp.ts, run on activation with the hooks'
 * re-point): the other words (`--dir`), the other servers and every other
 * byte stay; a `node` written by hand stays; a file that does not parse is
 * left alone; a second pass changes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { clientLaunch, planEnable, planRepointMcp, repointHookEntries, type HookClientName, type HostRuntime } from '../../src/engine/index';
// Where each client keeps its files: the engine's own tables, which the shells never name.
import { CODEX_CONFIG_FILE, CODEX_FORWARDED_ENV, COPILOT_MCP_FILE, CURSOR_MCP_FILE, GEMINI_SETTINGS_FILE, OPENCODE_PLUGIN_FILE } from '../../src/engine/clients/client-configs';
import { CLAUDE_MCP_FILE, VSCODE_MCP_FILE } from '../../src/engine/clients/repoint-mcp';
import { CLI } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const OLD: HostRuntime = { execPath: '/opt/VS Code/code', extensionPath: '/home/a b/.vscode/extensions/stategate.stategate-0.1.0', platform: 'linux' };
const NEW: HostRuntime = { execPath: '/usr/share/code/code', extensionPath: '/home/a b/.vscode/extensions/stategate.stategate-0.2.0', platform: 'linux' };
const OLD_CLI = `${OLD.extensionPath}/dist/cli.js`;
const NEW_CLI = `${NEW.extensionPath}/dist/cli.js`;
const DIR = '/work/p/.stategate';

type Files = Record<string, string>;
const jsonc = (text: string | undefined) => parseJsonc(text ?? '{}') as Record<string, any>;
const parseToml = (text: string): any => JSON.parse(JSON.stringify((require('smol-toml') as { parse(t: string): unknown }).parse(text)));

function enabled(client: HookClientName, files: Files = {}): Files {
  const next = { ...files };
  for (const w of planEnable(client, (f) => next[f], clientLaunch(OLD, DIR), OLD)) if (w.text !== undefined) next[w.file] = w.text;
  return next;
}
function repointed(files: Files, rt: HostRuntime = NEW): Files {
  const next = { ...files };
  for (const w of planRepointMcp((f) => next[f], rt)) next[w.file] = w.text!;
  return next;
}

/** Each client's MCP entry as enable writes it, read back as words (runtime first). */
const WORDS: Record<string, (files: Files) => string[]> = {
  [CURSOR_MCP_FILE]: (f) => { const s = jsonc(f[CURSOR_MCP_FILE]).mcpServers.stategate; return [s.command, ...s.args]; },
  [COPILOT_MCP_FILE]: (f) => { const s = jsonc(f[COPILOT_MCP_FILE]).mcpServers.stategate; return [s.command, ...s.args]; },
  // Gemini (POSIX): /usr/bin/env ELECTRON_RUN_AS_NODE=1 <runtime> <cli> mcp --dir …
  [GEMINI_SETTINGS_FILE]: (f) => { const s = jsonc(f[GEMINI_SETTINGS_FILE]).mcpServers.stategate; return [s.command, ...s.args].slice(2); },
  'opencode.json': (f) => jsonc(f['opencode.json']).mcp.stategate.command,
  [CODEX_CONFIG_FILE]: (f) => { const s = parseToml(f[CODEX_CONFIG_FILE]!).mcp_servers.stategate; return [s.command, ...s.args]; },
};
const CLIENT_OF: Record<string, HookClientName> = { [CURSOR_MCP_FILE]: 'cursor', [COPILOT_MCP_FILE]: 'copilot', [GEMINI_SETTINGS_FILE]: 'gemini', 'opencode.json': 'opencode', [CODEX_CONFIG_FILE]: 'codex' };

for (const [file, words] of Object.entries(WORDS)) {
  test(`${file}: the MCP entry enable wrote follows the extension and the runtime to their new folders`, () => {
    const before = enabled(CLIENT_OF[file]!);
    assert.deepEqual(words(before), [OLD.execPath, OLD_CLI, 'mcp', '--dir', DIR]);
    const after = repointed(before);
    assert.deepEqual(words(after), [NEW.execPath, NEW_CLI, 'mcp', '--dir', DIR]);
    assert.deepEqual(repointed(after), after, 'current entries: nothing to do');
    assert.deepEqual(planRepointMcp((f) => after[f], NEW), []);
  });
}

test('other servers, comments and keys stay byte for byte; only the words of stategate\'s entry change (hooks too, in a file with comments)', () => {
  const mine = '{\n  // my servers\n  "mcpServers": {\n    "docs": { "command": "docs-mcp", "args": ["--port", "0"] }\n  },\n  "theme": "GitHub"\n}\n';
  const before = enabled('gemini', { [GEMINI_SETTINGS_FILE]: mine });
  // With the hooks' own re-point (repointHookEntries) after it, the paths are all that changed.
  const after = repointHookEntries(repointed(before)[GEMINI_SETTINGS_FILE]!, NEW)!;
  assert.equal(after, before[GEMINI_SETTINGS_FILE]!.split(OLD_CLI).join(NEW_CLI).split(OLD.execPath).join(NEW.execPath));
  assert.ok(after.startsWith('{\n  // my servers\n'));

  const toml = '# my Codex\nmodel = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n';
  const codex = enabled('codex', { [CODEX_CONFIG_FILE]: toml });
  const next = repointed(codex)[CODEX_CONFIG_FILE]!;
  assert.equal(next, codex[CODEX_CONFIG_FILE]!.split(OLD_CLI).join(NEW_CLI).split(OLD.execPath).join(NEW.execPath));
  assert.deepEqual(parseToml(next).mcp_servers.docs, { command: 'docs-mcp' });
});

test('Claude Code\'s .mcp.json written by hand with `node`: the CLI moves, `node` stays', () => {
  const files = { [CLAUDE_MCP_FILE]: JSON.stringify({ mcpServers: { sg: { command: 'node', args: [OLD_CLI, 'mcp'] }, other: { command: 'x' } } }, null, 2) };
  const after = jsonc(repointed(files)[CLAUDE_MCP_FILE]);
  assert.deepEqual(after.mcpServers.sg, { command: 'node', args: [NEW_CLI, 'mcp'] }, 'found under any server name');
  assert.deepEqual(after.mcpServers.other, { command: 'x' });
});

test('VS Code\'s .vscode/mcp.json with the editor\'s runtime: both move', () => {
  const files = { [VSCODE_MCP_FILE]: JSON.stringify({ servers: { stategate: { type: 'stdio', command: OLD.execPath, args: [OLD_CLI, 'mcp'], env: { ELECTRON_RUN_AS_NODE: '1' } } } }) };
  const s = jsonc(repointed(files)[VSCODE_MCP_FILE]).servers.stategate;
  assert.deepEqual([s.command, ...s.args], [NEW.execPath, NEW_CLI, 'mcp']);
  assert.deepEqual(s.env, { ELECTRON_RUN_AS_NODE: '1' });
});

test('OpenCode\'s plugin: its hook command follows; a line the person added stays', () => {
  const files = enabled('opencode');
  const edited = { ...files, [OPENCODE_PLUGIN_FILE]: `${files[OPENCODE_PLUGIN_FILE]}\n// my note\n` };
  const after = repointed(edited)[OPENCODE_PLUGIN_FILE]!;
  assert.ok(!after.includes(OLD_CLI) && after.includes(NEW_CLI));
  assert.ok(after.endsWith('// my note\n'));
  assert.equal(repointed({ [OPENCODE_PLUGIN_FILE]: after })[OPENCODE_PLUGIN_FILE], after, 'current: nothing to do');
});

test('left alone: files that do not parse, servers that are not stategate\'s, a multi-line args array in TOML', () => {
  const files: Files = {
    [CURSOR_MCP_FILE]: '{ "mcpServers": { "stategate": ',
    [COPILOT_MCP_FILE]: JSON.stringify({ mcpServers: { stategate: { command: 'other-server', args: ['mcp'] } } }),
    [CODEX_CONFIG_FILE]: `[mcp_servers.stategate]\ncommand = ${JSON.stringify(OLD.execPath)}\nargs = [\n  ${JSON.stringify(OLD_CLI)},\n  "mcp",\n]\n`,
  };
  assert.deepEqual(planRepointMcp((f) => files[f], NEW), []);
});

test('Codex: the entry forwards the state-folder variables by name only, never a value from the workspace', () => {
  const toml = parseToml(enabled('codex')[CODEX_CONFIG_FILE]!).mcp_servers.stategate;
  assert.deepEqual(toml.env_vars, [...CODEX_FORWARDED_ENV]);
  assert.deepEqual(toml.env, { ELECTRON_RUN_AS_NODE: '1' }, 'no state folder written into the file');
});

test('Codex: a table written before the state-folder variables were forwarded gets its env_vars line, with or without a move, and only once', () => {
  const current = enabled('codex');
  const old = { [CODEX_CONFIG_FILE]: current[CODEX_CONFIG_FILE]!.split('\n').filter((l) => !l.startsWith('env_vars')).join('\n') };
  assert.equal(parseToml(old[CODEX_CONFIG_FILE]!).mcp_servers.stategate.env_vars, undefined, 'the old shape has none');
  for (const rt of [NEW, OLD]) {
    const after = repointed(old, rt)[CODEX_CONFIG_FILE]!;
    const table = parseToml(after).mcp_servers.stategate;
    assert.deepEqual(table.env_vars, [...CODEX_FORWARDED_ENV]);
    assert.equal(table.args[0], rt === NEW ? NEW_CLI : OLD_CLI);
    assert.deepEqual(table.env, { ELECTRON_RUN_AS_NODE: '1' });
    assert.deepEqual(planRepointMcp((f) => ({ [CODEX_CONFIG_FILE]: after })[f], rt), [], 'a second pass changes nothing');
  }
  assert.equal(repointed(old, OLD)[CODEX_CONFIG_FILE], current[CODEX_CONFIG_FILE], 'the same table enable writes today');
});

test('a re-pointed entry runs: the MCP command of .cursor/mcp.json, moved to this CLI, answers initialize', () => {
  const root = tempDir('sg-repoint-');
  const here: HostRuntime = { execPath: process.execPath, extensionPath: path.resolve(path.dirname(CLI), '..'), platform: 'linux' };
  const files = repointed(enabled('cursor'), here);
  const s = jsonc(files[CURSOR_MCP_FILE]).mcpServers.stategate;
  assert.equal(s.args[0], CLI);
  fs.mkdirSync(path.join(root, '.stategate'));
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
  const r = spawnSync(s.command, [...s.args.slice(0, 2), '--dir', path.join(root, '.stategate')], { input: `${init}\n`, env: { ...process.env, ...s.env }, encoding: 'utf8', timeout: 20_000 });
  assert.match(r.stdout, /"serverInfo"/, r.stderr);
});
