/**
 * `engines.vscode` is honest for a VS Code fork (Cursor, built on VS Code
 * 1.105.1 in its 2026 releases; docs/agents.md names the sources):
 * - the range admits that base, so Cursor installs the VSIX;
 * - the API types the code is checked against (@types/vscode, pinned) are
 *   those of the range's lowest version, so `npm run typecheck` fails on any
 *   API newer than what the range promises;
 * - the AI APIs a fork may leave out (chat, lm, MCP definitions) are used only
 *   in files that look them up first (editor-apis.ts) or that only those
 *   registrations reach. test/e2e/cursor-fork.test.ts activates the packaged
 *   extension without them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { vscode: string }; devDependencies: Record<string, string> };
const CURSOR_VSCODE_BASE = '1.105.1';

type Version = [number, number, number];
const parse = (v: string): Version => {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(v);
  assert.ok(m, `a plain version: ${v}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
};
const cmp = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

test('engines.vscode is a caret range that admits Cursor\'s VS Code base', () => {
  const m = /^\^(\d+\.\d+\.\d+)$/.exec(pkg.engines.vscode);
  assert.ok(m, `engines.vscode is ^x.y.z: ${pkg.engines.vscode}`);
  const min = parse(m[1]!);
  const base = parse(CURSOR_VSCODE_BASE);
  assert.ok(cmp(base, min) >= 0 && base[0] === min[0], `${CURSOR_VSCODE_BASE} satisfies ${pkg.engines.vscode}`);
});

test('@types/vscode is pinned to the lowest version engines.vscode admits', () => {
  const pinned = pkg.devDependencies['@types/vscode'];
  assert.equal(pinned, pkg.engines.vscode.slice(1), 'pinned exactly, not a range');
  const installed = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8')) as { version: string };
  assert.equal(installed.version, pinned);
});

test('the APIs a fork may lack are used only behind the look-up (editor-apis.ts) or what only it registers', () => {
  // participant*.ts and pipeline-chat.ts run inside the chat participant, which exists only when registered.
  const allowed = new Set(['editor-apis.ts', 'runtime/lazy-runs.ts', 'agents/mcp-provider.ts', 'agents/agent-sync.ts', 'flows/vscode-host.ts', 'agents/participant.ts', 'agents/participant-loop.ts', 'agents/pipeline-chat.ts']);
  const guardedBy = new Map([
    ['runtime/lazy-runs.ts', /registerIfAvailable\('language model tools'[\s\S]*registerIfAvailable\('chat participant'/],
    ['agents/mcp-provider.ts', /registerIfAvailable\('MCP server definitions'/],
    ['agents/agent-sync.ts', /hasApi\('chat models'\) \? \[vscode\.lm\.onDidChangeChatModels/],
    ['flows/vscode-host.ts', /if \(!hasApi\('chat models'\)\) return fail/],
  ]);
  const dir = path.join(ROOT, 'src', 'vscode');
  const users: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && /vscode\.(lm|chat)\.|McpStdioServerDefinition/.test(fs.readFileSync(p, 'utf8'))) users.push(path.relative(dir, p).split(path.sep).join('/'));
    }
  };
  walk(dir);
  for (const u of users) assert.ok(allowed.has(u), `${u} uses vscode.lm / vscode.chat: look the API up first (editor-apis.ts) and list the file here`);
  for (const [file, guard] of guardedBy) assert.match(fs.readFileSync(path.join(dir, file), 'utf8'), guard, `${file} looks the API up`);
});
