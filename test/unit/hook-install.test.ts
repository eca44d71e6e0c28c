/**
 * The hook files "stategate: Enable Agent Enforcement" writes: VS Code's flat
 * file, Claude Code's merged settings (other keys kept), removal of exactly
 * what was written, and command lines that a shell runs as intended.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './helpers/temp-dir';
import { cliCommandLine, cliInvocation, quoteWord, type HostRuntime } from '../../src/vscode/agents/cli-launch';
import {
  HOOK_EVENTS,
  hookCommand,
  isOurVscodeHookFile,
  isStategateHookCommand,
  mergeClaudeSettings,
  removeFromClaudeSettings,
  repointHookEntries,
  vscodeHookFile,
} from '../../src/vscode/agents/hook-install';
import { cli, CLI, REPO_ROOT } from './helpers/cli';
import { CLAUDE_ONLY_HOOK_EVENTS } from '../../src/engine/clients/hook-install';


/** The line older versions wrote (no guard): still recognised, and re-pointed on activation. */
const PLAIN_VSCODE = `'/opt/VS Code/code' '/home/a b/.vscode/extensions/stategate.stategate-0.1.0/dist/cli.js' hook --client vscode`;
const PLAIN_CLAUDE = `ELECTRON_RUN_AS_NODE=1 '/opt/VS Code/code' '/home/a b/.vscode/extensions/stategate.stategate-0.1.0/dist/cli.js' hook --client claude`;

const RT: HostRuntime = { execPath: '/opt/VS Code/code', extensionPath: "/home/a b/.vscode/extensions/stategate.stategate-0.1.0", platform: 'linux' };

test('the VS Code hook file has every event, the host runtime, env and a timeout', () => {
  const file = vscodeHookFile(RT) as { hooks: Record<string, { type: string; command: string; env: Record<string, string>; timeout: number }[]> };
  assert.deepEqual(Object.keys(file.hooks), [...HOOK_EVENTS]);
  for (const event of HOOK_EVENTS) {
    const [entry] = file.hooks[event]!;
    assert.equal(entry!.type, 'command');
    // The plain line, behind the check that the CLI and the runtime are there.
    assert.ok(entry!.command.endsWith(`; ${PLAIN_VSCODE}`), entry!.command);
    assert.match(entry!.command, /^\[ -f '\/home\/a b\/\.vscode\/extensions\/stategate\.stategate-0\.1\.0\/dist\/cli\.js' \] \|\| \{ printf/);
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
  assert.equal(ours.hooks[0]!.command, hookCommand(RT, 'claude'));
  assert.ok(ours.hooks[0]!.command.endsWith(`; ${PLAIN_CLAUDE}`));
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
  // Claude Code's settings also get PostToolUseFailure (a failing command's exit code: evidence).
  assert.equal(back.removed, HOOK_EVENTS.length + CLAUDE_ONLY_HOOK_EVENTS.length);
  assert.deepEqual(back.settings, mine);
  const fresh = removeFromClaudeSettings(mergeClaudeSettings(undefined, RT));
  assert.equal(fresh.settings, undefined);
  assert.deepEqual(removeFromClaudeSettings({ a: 1 }), { settings: { a: 1 }, removed: 0 });
  assert.deepEqual(removeFromClaudeSettings('garbage').settings, undefined);
});

test('our commands are recognised in every quoting, plain (older versions) and guarded; other commands are not', () => {
  assert.ok(isStategateHookCommand(PLAIN_VSCODE));
  assert.ok(isStategateHookCommand(PLAIN_CLAUDE));
  assert.ok(isStategateHookCommand(hookCommand(RT, 'vscode')));
  assert.ok(isStategateHookCommand(hookCommand(RT, 'claude')));
  assert.ok(isStategateHookCommand(hookCommand({ execPath: 'C:\\Code\\Code.exe', extensionPath: 'C:\\ext', platform: 'win32' }, 'vscode')));
  // Disable takes back the guarded entries too.
  assert.equal(removeFromClaudeSettings(mergeClaudeSettings({}, RT)).settings, undefined);
  assert.ok(isOurVscodeHookFile(vscodeHookFile(RT)));
  assert.ok(isStategateHookCommand(`'/a/code' '/b/dist/cli.js' hook --client vscode`));
  assert.ok(isStategateHookCommand(`"C:\\a\\code.exe" "C:\\b\\dist\\cli.js" hook --client claude`));
  assert.ok(!isStategateHookCommand('node cli.js hook'));
  assert.ok(!isStategateHookCommand('lint.sh --client vscode'));
  assert.ok(!isStategateHookCommand(42));
});

test('quoting survives spaces, quotes and $ in paths when a real shell runs the line, plain and guarded', () => {
  const dir = tempDir("sg q'uote $HOME ");
  fs.mkdirSync(path.join(dir, 'dist'));
  // A stand-in for dist/cli.js: prints its arguments and the variable.
  fs.writeFileSync(path.join(dir, 'dist', 'cli.js'), 'console.log(JSON.stringify([process.argv.slice(2), process.env.ELECTRON_RUN_AS_NODE]))');
  const rt: HostRuntime = { execPath: process.execPath, extensionPath: dir, platform: 'linux' };
  for (const line of [cliCommandLine(rt, ['hook', '--client', 'claude'], { inlineEnv: true }), hookCommand(rt, 'claude')]) {
    const out = execFileSync('/bin/sh', ['-c', line], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    assert.deepEqual(JSON.parse(out), [['hook', '--client', 'claude'], '1']);
  }
  // The guard's message quotes the same path: it reaches stderr intact.
  fs.rmSync(path.join(dir, 'dist', 'cli.js'));
  const r = spawnSync('/bin/sh', ['-c', hookCommand(rt, 'claude')], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  assert.equal(r.status, 2);
  assert.ok(r.stderr.includes(`its CLI ${path.join(dir, 'dist', 'cli.js')} is missing`), r.stderr);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('Windows paths are double-quoted; the MCP launch is program + args + env', () => {
  assert.equal(quoteWord('C:\\Program Files\\Code\\Code.exe', 'win32'), '"C:\\Program Files\\Code\\Code.exe"');
  const inv = cliInvocation({ execPath: 'C:\\Code.exe', extensionPath: 'C:\\ext', platform: 'win32' }, ['mcp']);
  assert.deepEqual(inv, { command: 'C:\\Code.exe', args: ['C:\\ext\\dist\\cli.js', 'mcp'], env: { ELECTRON_RUN_AS_NODE: '1' } });
});

// ---------------------------------------------------------------------------
// A missing CLI or runtime denies (exit 2 blocks in both clients; 1 or 127 would let the tool run)
// ---------------------------------------------------------------------------

const GATE = {
  id: 'gate',
  initial: 'reading',
  states: { reading: { allowed_tools: ['Read'], on: { DONE: 'done' } }, done: { type: 'final' } },
};

/** An installed extension: a copy of the built CLI (dist/cli.js, its per-command bundles, the engine they share, the parser's wasm). */
function installedExtension(): string {
  const ext = path.join(tempDir('sg-ext-'), 'stategate.stategate-0.1.0');
  const dist = path.join(ext, 'dist');
  fs.mkdirSync(dist, { recursive: true });
  fs.cpSync(CLI, path.join(dist, 'cli.js'));
  fs.cpSync(path.join(REPO_ROOT, 'dist', 'cli'), path.join(dist, 'cli'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  for (const f of fs.readdirSync(path.join(REPO_ROOT, 'dist'))) if (f.endsWith('.wasm') || f === 'engine.js' || f === 'elk.js') fs.cpSync(path.join(REPO_ROOT, 'dist', f), path.join(dist, f));
  return ext;
}

/** Each client's PreToolUse entry as the extension writes it: the command line, and the env VS Code adds. */
function entries(rt: HostRuntime): { client: 'vscode' | 'claude'; command: string; env: Record<string, string>; input: (cwd: string) => string }[] {
  const vs = (vscodeHookFile(rt) as { hooks: Record<string, { command: string; env: Record<string, string> }[]> }).hooks['PreToolUse']![0]!;
  const cc = (mergeClaudeSettings(undefined, rt) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks['PreToolUse']![0]!.hooks[0]!;
  return [
    { client: 'vscode', command: vs.command, env: vs.env, input: (cwd) => JSON.stringify({ hookEventName: 'PreToolUse', sessionId: 's', timestamp: '2026-11-22T20:00:00.000Z', cwd, tool_name: 'create_file', tool_input: { filePath: path.join(cwd, 'x.ts'), content: 'x' } }) },
    { client: 'claude', command: cc.command, env: {}, input: (cwd) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd, tool_name: 'Write', tool_input: { file_path: path.join(cwd, 'x.ts'), content: 'x' } }) },
  ];
}

/** Run a hook command as the clients do: `sh -c` (spawn with `shell: true`), cwd the workspace, the entry's env added. */
function runHook(command: string, env: Record<string, string>, cwd: string, input: string) {
  const r = spawnSync('/bin/sh', ['-c', command], { cwd, input, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('the hook command written into each client\'s file runs the CLI when it is there, and exits 2 saying what is missing and how to repair when the extension moved or the runtime is gone', () => {
  const ext = installedExtension();
  const cwd = tempDir('sg-hookcmd-');
  fs.writeFileSync(path.join(cwd, 'gate.workflow.json'), JSON.stringify(GATE));
  assert.equal(cli(['run', 'start', 'gate.workflow.json'], { cwd }).code, 0);
  const rt: HostRuntime = { execPath: process.execPath, extensionPath: ext, platform: 'linux' };

  for (const e of entries(rt)) {
    const r = runHook(e.command, e.env, cwd, e.input(cwd));
    assert.equal(r.code, 0, `${e.client}: ${r.stderr}`);
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny', `${e.client}: the workflow's own denial: ${r.stdout}`);
  }

  // An update to a new version folder (or an uninstall): the folder the entries name is gone.
  fs.renameSync(ext, `${ext}-moved`);
  for (const e of entries(rt)) {
    const r = runHook(e.command, e.env, cwd, e.input(cwd));
    assert.equal(r.code, 2, `${e.client}: exit 2 blocks the call (got ${r.code}: ${r.stderr})`);
    assert.match(r.stderr, new RegExp(`its CLI ${ext.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/dist/cli\\.js is missing`));
    assert.match(r.stderr, /'stategate: Enable Agent Enforcement' again/);
    assert.match(r.stderr, e.client === 'vscode' ? /\.github\/hooks\/stategate\.json/ : /\.claude\/settings\.local\.json/);
  }
  fs.renameSync(`${ext}-moved`, ext);

  // The runtime gone (VS Code moved or uninstalled).
  for (const e of entries({ ...rt, execPath: path.join(cwd, 'no-such-code') })) {
    const r = runHook(e.command, e.env, cwd, e.input(cwd));
    assert.equal(r.code, 2, `${e.client}: ${r.stderr}`);
    assert.match(r.stderr, /the runtime .*no-such-code that runs its CLI is missing/);
  }
});

test('on Windows VS Code runs hook commands with cmd.exe: the same check in its syntax (Claude Code\'s Git Bash gets the POSIX line)', () => {
  const rt: HostRuntime = { execPath: 'C:\\Program Files\\Microsoft VS Code\\Code.exe', extensionPath: 'C:\\Users\\a\\.vscode\\extensions\\stategate.stategate-0.1.0', platform: 'win32' };
  const line = hookCommand(rt, 'vscode');
  assert.ok(line.startsWith('(if not exist "C:\\Users\\a\\.vscode\\extensions\\stategate.stategate-0.1.0\\dist\\cli.js" (echo "stategate: '), line);
  assert.ok(line.endsWith(') & "C:\\Program Files\\Microsoft VS Code\\Code.exe" "C:\\Users\\a\\.vscode\\extensions\\stategate.stategate-0.1.0\\dist\\cli.js" hook --client vscode'), line);
  assert.match(line, /1>&2 & exit \/b 2\)\) & \(if not exist "C:\\Program Files\\Microsoft VS Code\\Code\.exe"/);
  // Nothing cmd.exe would expand or split inside the echoed text.
  for (const m of line.matchAll(/echo "([^"]*)"/g)) assert.doesNotMatch(m[1]!, /[%"]/);
  assert.match(hookCommand(rt, 'claude'), /^\[ -f "C:\\Users.*cli\.js" \] \|\| \{ printf/);
});

test('on activation, our entries are re-pointed at the current CLI in place; the person\'s content is left byte for byte', () => {
  const old = `{
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "guard.sh" } ] },
      { "matcher": "*", "hooks": [ { "type": "command", "command": ${JSON.stringify(PLAIN_CLAUDE)}, "timeout": 10 } ] }
    ],
    "Stop": [ { "hooks": [ { "type": "command", "command": ${JSON.stringify(PLAIN_CLAUDE)}, "timeout": 10 } ] } ]
  },
  "model":   "opus"
}
`;
  const rt: HostRuntime = { ...RT, extensionPath: '/home/a b/.vscode/extensions/stategate.stategate-0.2.0' };
  const next = repointHookEntries(old, rt)!;
  assert.ok(next, 'an update moved the extension: the entries change');
  const parsed = JSON.parse(next) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  assert.equal(parsed.hooks['PreToolUse']![1]!.hooks[0]!.command, hookCommand(rt, 'claude'));
  assert.equal(parsed.hooks['Stop']![0]!.hooks[0]!.command, hookCommand(rt, 'claude'));
  // Everything else is the same text: only the two command strings differ.
  assert.equal(next.replaceAll(JSON.stringify(hookCommand(rt, 'claude')), 'X'), old.replaceAll(JSON.stringify(PLAIN_CLAUDE), 'X'));
  assert.equal(repointHookEntries(next, rt), undefined, 'current entries: nothing to do');

  const vscodeFile = `${JSON.stringify({ hooks: { PreToolUse: [{ type: 'command', command: PLAIN_VSCODE, env: { ELECTRON_RUN_AS_NODE: '1' }, timeout: 10 }] } }, null, 2)}\n`;
  const vsNext = JSON.parse(repointHookEntries(vscodeFile, rt)!) as { hooks: { PreToolUse: { command: string; env: object }[] } };
  assert.equal(vsNext.hooks.PreToolUse[0]!.command, hookCommand(rt, 'vscode'));
  assert.deepEqual(vsNext.hooks.PreToolUse[0]!.env, { ELECTRON_RUN_AS_NODE: '1' });

  assert.equal(repointHookEntries('{"hooks": {"PreToolUse": [{"type": "command", "command": "lint.sh"}]}}', rt), undefined, 'no entry of ours');
  assert.equal(repointHookEntries('{ not json', rt), undefined, 'a broken file is left alone');
});
