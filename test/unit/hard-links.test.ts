/**
 * Issue 29, hard links: `ln .claude/settings.json x` (or `cp -l`) makes `x` a
 * second name of the protected file, and a write to `x` changes it. A write
 * to a file with more than one hard link is refused, by a file tool, a shell
 * command or an MCP tool alike, saying how to break the link; a file with one
 * name is written as before. Through `stategate hook` (Claude Code, VS Code)
 * and `stategate run tool`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const WORKFLOW = { id: 'links', initial: 'work', states: { work: { on: { DONE: 'done' } }, done: { type: 'final' } } };

/** A workspace with a running run, `.claude/settings.json`, `x` a hard link of it and `plain.json` a file of its own. */
function workspace(t: { after: (f: () => void) => void }): string {
  const ws = fs.realpathSync(tempDir('sg-hard-links-'));
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  fs.writeFileSync(path.join(ws, 'w.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'w.workflow.json'], { cwd: ws }).code, 0);
  fs.mkdirSync(path.join(ws, '.claude'));
  fs.writeFileSync(path.join(ws, '.claude', 'settings.json'), '{"hooks": {}}');
  fs.linkSync(path.join(ws, '.claude', 'settings.json'), path.join(ws, 'x'));
  fs.writeFileSync(path.join(ws, 'plain.json'), '{}');
  return ws;
}

type Row = [client: 'claude' | 'vscode', tool: string, input: (f: string) => Record<string, unknown>];
const ROWS: Row[] = [
  ['claude', 'Write', (f) => ({ file_path: f, content: '{}' })],
  ['claude', 'Edit', (f) => ({ file_path: f, old_string: '"hooks"', new_string: '"off"' })],
  ['claude', 'Bash', (f) => ({ command: `echo '{}' > ${path.basename(f)}` })],
  ['claude', 'Bash', (f) => ({ command: `sed -i s/hooks/off/ ${path.basename(f)}` })],
  ['claude', 'mcp__fs__write_file', (f) => ({ path: path.basename(f), content: '{}' })],
  ['vscode', 'create_file', (f) => ({ filePath: f, content: '{}' })],
  ['vscode', 'replace_string_in_file', (f) => ({ filePath: f, oldString: '"hooks"', newString: '"off"' })],
  ['vscode', 'run_in_terminal', (f) => ({ command: `truncate -s 0 ${path.basename(f)}`, explanation: 'x', isBackground: false })],
];

function hook(client: 'claude' | 'vscode', ws: string, tool: string, input: Record<string, unknown>): { deny: boolean; reason: string } {
  const common = client === 'vscode' ? { hookEventName: 'PreToolUse', sessionId: 's', timestamp: '2026-12-07T00:00:00.000Z' } : { hook_event_name: 'PreToolUse', session_id: 's' };
  const r = cli(['hook', '--client', client], { cwd: ws, input: JSON.stringify({ ...common, cwd: ws, tool_name: tool, tool_input: input }) });
  assert.equal(r.code, 0, r.stderr);
  const h = r.json?.hookSpecificOutput;
  return { deny: h?.permissionDecision === 'deny', reason: String(h?.permissionDecisionReason ?? '') };
}

for (const [client, tool, input] of ROWS) {
  test(`${client}: ${tool} of a second name of .claude/settings.json is refused; of a file with one name it passes`, (t) => {
    const ws = workspace(t);
    const linked = hook(client, ws, tool, input(path.join(ws, 'x')));
    assert.equal(linked.deny, true, 'allowed: the write would change .claude/settings.json');
    assert.match(linked.reason, /\bx(, which)? has 2 hard links: a write to it changes the file under every one of its names.*Copy it to a new file/);
    const plain = hook(client, ws, tool, input(path.join(ws, 'plain.json')));
    assert.equal(plain.deny, false, plain.reason);
  });
}

test('folders have many links but name no other file: writes into them pass', (t) => {
  const ws = workspace(t);
  fs.mkdirSync(path.join(ws, 'src', 'a', 'b'), { recursive: true });
  assert.ok(fs.statSync(path.join(ws, 'src')).nlink > 1);
  assert.equal(hook('claude', ws, 'Bash', { command: 'mkdir -p src && touch src/new.ts' }).deny, false);
  assert.equal(hook('claude', ws, 'mcp__git__status', { repo_path: ws, dir: 'src' }).deny, false);
  assert.equal(hook('vscode', ws, 'create_file', { filePath: path.join(ws, 'src', 'a', 'x.ts'), content: '' }).deny, false);
});

test('run tool: a hard-linked file is refused, and breaking the link makes it writable', (t) => {
  const ws = workspace(t);
  const write = () => cli(['run', 'tool', 'Write', '--input', JSON.stringify({ file_path: 'x', content: '{}' })], { cwd: ws }).json;
  assert.equal(write()?.decision, 'deny');
  assert.match(write()?.reason, /has 2 hard links/);
  // What the reason says to do: a copy has one name.
  fs.copyFileSync(path.join(ws, 'x'), path.join(ws, 'x.new'));
  fs.renameSync(path.join(ws, 'x.new'), path.join(ws, 'x'));
  assert.equal(write()?.decision, 'allow');
});
