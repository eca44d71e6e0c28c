/**
 * The hook files "stategate: Enable Agent Enforcement" writes: VS Code's flat
 * file, Claude Code's merged settings (other keys kept), removal of exactly
 * what was written, and command lines that a shell runs as intended.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliCommandLine, cliInvocation, quoteWord, type HostRuntime } from '../../src/vscode/agents/cli-launch';
import {
  HOOK_EVENTS,
  isOurVscodeHookFile,
  isStategateHookCommand,
  mergeClaudeSettings,
  removeFromClaudeSettings,
  vscodeHookFile,
} from '../../src/vscode/agents/hook-install';
import { tempDir } from './helpers/temp-dir';

const RT: HostRuntime = { execPath: '/opt/VS Code/code', extensionPath: "/home/a b/.vscode/extensions/stategate.stategate-0.1.0", platform: 'linux' };

test('the VS Code hook file has every event, the host runtime, env and a timeout', () => {
  const file = vscodeHookFile(RT) as { hooks: Record<string, { type: string; command: string; env: Record<string, string>; timeout: number }[]> };
  assert.deepEqual(Object.keys(file.hooks), [...HOOK_EVENTS]);
  for (const event of HOOK_EVENTS) {
    const [entry] = file.hooks[event]!;
    assert.equal(entry!.type, 'command');
    assert.equal(entry!.command, `'/opt/VS Code/code' '/home/a b/.vscode/extensions/stategate.stategate-0.1.0/dist/cli.js' hook --client vscode`);
    assert.deepEqual(entry!.env, { ELECTRON_RUN_AS_NODE: '1' });
    assert.ok(entry!.timeout > 0 && entry!.timeout <= 30);
  }
  assert.ok(isOurVscodeHookFile(file));
  assert.ok(!isOurVscodeHookFile({ hooks: { PreToolUse: [{ type: 'command', command: 'lint.sh' }] } }));
  assert.ok(!isOurVscodeHookFile({}));
});

test('Claude Code settings: our hooks merged in the nested shape, every other key and hook kept', () => {
  const mine = { permissions: { allow: ['Bash(npm test)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }], Notification: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }] }, model: 'opus' };
  const merged = mergeClaudeSettings(mine, RT) as typeof mine & { hooks: Record<string, { matcher?: string; hooks: { command: string; timeout?: number }[] }[]> };
  assert.deepEqual(merged.permissions, mine.permissions);
  assert.equal(merged.model, 'opus');
  assert.deepEqual(merged.hooks['Notification'], mine.hooks.Notification);
  assert.equal(merged.hooks['PreToolUse']!.length, 2);
  assert.equal(merged.hooks['PreToolUse']![0]!.hooks[0]!.command, 'guard.sh');
  const ours = merged.hooks['PreToolUse']![1]!;
  assert.equal(ours.matcher, '*');
  assert.equal(ours.hooks[0]!.command, `ELECTRON_RUN_AS_NODE=1 '/opt/VS Code/code' '/home/a b/.vscode/extensions/stategate.stategate-0.1.0/dist/cli.js' hook --client claude`);
  assert.equal(merged.hooks['SessionStart']![0]!.matcher, undefined, 'no matcher on non-tool events');
  // The input is not changed, and merging twice (or after an update to a new version folder) does not duplicate.
  assert.equal(mine.hooks.PreToolUse.length, 1);
  const again = mergeClaudeSettings(mergeClaudeSettings(merged, { ...RT, extensionPath: '/x/stategate.stategate-0.2.0' }), RT) as typeof merged;
  assert.equal(again.hooks['PreToolUse']!.length, 2);
  for (const e of HOOK_EVENTS) assert.equal(again.hooks[e]!.filter((g) => g.hooks.some((h) => isStategateHookCommand(h.command))).length, 1);
});

test('Claude Code settings: removal takes back only our entries, and reports an empty file as deletable', () => {
  const mine = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }] }, env: { A: '1' } };
  const back = removeFromClaudeSettings(mergeClaudeSettings(mine, RT));
  assert.equal(back.removed, HOOK_EVENTS.length);
  assert.deepEqual(back.settings, mine);
  const fresh = removeFromClaudeSettings(mergeClaudeSettings(undefined, RT));
  assert.equal(fresh.settings, undefined);
  assert.deepEqual(removeFromClaudeSettings({ a: 1 }), { settings: { a: 1 }, removed: 0 });
  assert.deepEqual(removeFromClaudeSettings('garbage').settings, undefined);
});

test('our commands are recognised in every quoting; other commands are not', () => {
  assert.ok(isStategateHookCommand(`'/a/code' '/b/dist/cli.js' hook --client vscode`));
  assert.ok(isStategateHookCommand(`"C:\\a\\code.exe" "C:\\b\\dist\\cli.js" hook --client claude`));
  assert.ok(!isStategateHookCommand('node cli.js hook'));
  assert.ok(!isStategateHookCommand('lint.sh --client vscode'));
  assert.ok(!isStategateHookCommand(42));
});

test('quoting survives spaces, quotes and $ in paths when a real shell runs the line', () => {
  const dir = tempDir("sg q'uote $HOME ");
  fs.mkdirSync(path.join(dir, 'dist'));
  // A stand-in for dist/cli.js: prints its arguments and the variable.
  fs.writeFileSync(path.join(dir, 'dist', 'cli.js'), 'console.log(JSON.stringify([process.argv.slice(2), process.env.ELECTRON_RUN_AS_NODE]))');
  const rt: HostRuntime = { execPath: process.execPath, extensionPath: dir, platform: 'linux' };
  const out = execFileSync('/bin/sh', ['-c', cliCommandLine(rt, ['hook', '--client', 'claude'], { inlineEnv: true })], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  assert.deepEqual(JSON.parse(out), [['hook', '--client', 'claude'], '1']);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('Windows paths are double-quoted; the MCP launch is program + args + env', () => {
  assert.equal(quoteWord('C:\\Program Files\\Code\\Code.exe', 'win32'), '"C:\\Program Files\\Code\\Code.exe"');
  const inv = cliInvocation({ execPath: 'C:\\Code.exe', extensionPath: 'C:\\ext', platform: 'win32' }, ['mcp']);
  assert.deepEqual(inv, { command: 'C:\\Code.exe', args: ['C:\\ext\\dist\\cli.js', 'mcp'], env: { ELECTRON_RUN_AS_NODE: '1' } });
});
