/**
 * The sandbox's plan (src/engine/sandbox/plan.ts), its bwrap command line
 * (bwrap-argv.ts) and the probe of bubblewrap (bwrap-probe.ts): which folders
 * are writable, read-only or sealed; that the agent's command reaches the
 * inner bash byte for byte; and that the probe runs once per binary.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { sandboxPlan, globRoot, type SandboxSetting } from '../../src/engine/sandbox/plan';
import { sandboxCommand, bwrapArgs } from '../../src/engine/sandbox/bwrap-argv';
import { findSandbox, PROBE_FILE } from '../../src/engine/sandbox/bwrap-probe';
import { clientCannotRewrite } from '../../src/engine/sandbox/clients';
import { bwrapOrSkip } from './helpers/sandbox';
import { tempDir } from './helpers/temp-dir';

function place(t: { after(fn: () => void): unknown }, extra: Partial<SandboxSetting> = {}): { s: SandboxSetting; ws: string; root: string } {
  const root = fs.realpathSync(tempDir('sg-plan-', t));
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, '.stategate'), { recursive: true });
  const s: SandboxSetting = { workspaceRoot: ws, storeDir: path.join(ws, '.stategate'), stateDir: path.join(root, 'state'), home: path.join(root, 'home'), installDirs: [], network: true, platform: 'linux', env: {}, ...extra };
  return { s, ws, root };
}

test('globRoot: the literal folder of an absolute or ~/ glob', () => {
  const rows: [string, string | undefined][] = [
    ['/srv/out/**', '/srv/out'],
    ['/srv/out/*.log', '/srv/out'],
    ['/srv/out/file.txt', '/srv/out'],
    ['~/.cache/**', '/home/u/.cache'],
    ['src/**', undefined],
    ['/{a,b}/x', '/'],
  ];
  for (const [glob, want] of rows) assert.equal(globRoot(glob, '/home/u'), want, glob);
});

test('the plan: workspace writable, the store read-only, missing gate folders sealed, user-only folders left alone', (t) => {
  const { s, ws } = place(t);
  fs.mkdirSync(path.join(ws, '.claude'));
  fs.writeFileSync(path.join(ws, '.claude', 'settings.json'), '{}');
  fs.mkdirSync(path.join(ws, '.github', 'workflows'), { recursive: true });
  const plan = sandboxPlan(s);
  assert.deepEqual(plan.writable, [ws]);
  assert.ok(plan.readOnly.includes(path.join(ws, '.stategate')), 'the store is read-only');
  // .claude/settings.local.json is missing but .claude/ exists: the folder is read-only (covers settings.json too).
  assert.ok(plan.readOnly.includes(path.join(ws, '.claude')), `.claude read-only: ${plan.readOnly}`);
  // .github holds something, .github/hooks does not exist: an empty read-only folder there.
  assert.ok(plan.sealed.includes(path.join(ws, '.github', 'hooks')), `.github/hooks sealed: ${plan.sealed}`);
  for (const dir of ['.vscode', '.codex', '.gemini', '.cursor', '.opencode']) assert.ok(plan.sealed.includes(path.join(ws, dir)), `${dir} sealed: ${plan.sealed}`);
  for (const dir of ['User', '.copilot', 'Machine', 'claude-code', 'ClaudeCode']) assert.ok(!plan.sealed.includes(path.join(ws, dir)), `${dir} is not read from a workspace`);
  assert.deepEqual(plan.uncovered.map((p) => path.basename(p)), ['.mcp.json', 'opencode.json', 'opencode.jsonc']);
  assert.equal(plan.network, true);
});

test('the plan: allowed_paths outside the workspace become writable, their gate files read-only again; /tmp stays private', (t) => {
  const { s } = place(t);
  // Outside /tmp: a folder under /tmp would only be the sandbox's private, empty one.
  const out = fs.realpathSync(tempDir('sg-out-', t, '/var/tmp'));
  fs.mkdirSync(path.join(out, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(out, '.claude', 'settings.local.json'), '{}');
  const plan = sandboxPlan({ ...s, allowedPaths: [`${out}/**`, 'src/**', '/tmp/**', '/nonexistent/**'], network: false });
  assert.deepEqual(new Set(plan.writable), new Set([s.workspaceRoot, out]));
  // .claude/settings.json is missing there: the whole .claude folder is read-only again.
  assert.ok(plan.readOnly.includes(path.join(out, '.claude')), `its gate files read-only again: ${plan.readOnly}`);
  assert.equal(plan.network, false);
  assert.deepEqual(bwrapArgs(plan).filter((a) => a === '--unshare-net'), ['--unshare-net']);
});

test('the argv: inside, STATEGATE_SANDBOXED=1 tells stategate\'s own CLI that the run\'s files are read-only (run send refuses with the way that works)', (t) => {
  const { s } = place(t);
  const args = bwrapArgs(sandboxPlan(s));
  const at = args.indexOf('--setenv');
  assert.ok(at >= 0, `no --setenv: ${args.join(' ')}`);
  assert.deepEqual(args.slice(at, at + 3), ['--setenv', 'STATEGATE_SANDBOXED', '1']);
});

test('the plan: a protected folder holding the whole workspace (stategate developed in itself) does not make it read-only', (t) => {
  const { s, ws } = place(t);
  const plan = sandboxPlan({ ...s, installDirs: [ws, path.join(ws, 'dist')] });
  assert.ok(!plan.readOnly.includes(ws));
  assert.ok(plan.sealed.includes(path.join(ws, 'dist')), 'the bundle folder is protected even before it exists');
});

const QUOTING: string[] = [
  `printf '%s\\n' "a'b" 'c"d' "it's"`,
  'echo one\necho two',
  'echo $(echo sub) `echo tick` $((1+2))',
  "cat <<'EOF'\n$HOME `x` $(y) 'q' \"d\"\nEOF",
  'cat <<EOF\n$((6*7))\nEOF',
  "echo '\\' \\\\ \\n",
  'x=1; echo "${x}" ; echo $\'tab\\there\'',
  'echo "ünïcödé ✓"',
  "echo ''",
];

test('quoting: the agent\'s command reaches the inner bash byte for byte', (t) => {
  const bwrap = bwrapOrSkip(t);
  if (!bwrap) return;
  const { s, ws } = place(t);
  const plan = sandboxPlan(s);
  for (const command of QUOTING) {
    const plain = spawnSync('bash', ['-c', command], { cwd: ws, encoding: 'utf8', env: { ...process.env, HOME: '/h' } });
    const wrapped: SpawnSyncReturns<string> = spawnSync('bash', ['-c', sandboxCommand(bwrap, plan, command)], { cwd: ws, encoding: 'utf8', env: { ...process.env, HOME: '/h' } });
    assert.equal(wrapped.stderr, plain.stderr, command);
    assert.equal(wrapped.stdout, plain.stdout, command);
    assert.equal(wrapped.status, plain.status, command);
  }
});

test('clients: those that take a rewrite without approving it, and why the others cannot', () => {
  const rows: [string | undefined, RegExp | undefined][] = [
    ['claude', undefined],
    ['vscode', undefined],
    ['opencode', undefined],
    [undefined, undefined],
    ['codex', /permissionDecision "allow"/],
    ['cursor', /permission "allow"/],
    ['gemini', /Gemini CLI/],
    ['copilot', /Copilot CLI/],
  ];
  for (const [client, why] of rows) {
    const got = clientCannotRewrite(client);
    if (why) assert.match(got ?? '', why, String(client));
    else assert.equal(got, undefined, String(client));
  }
});

test('probe: not Linux, or no bwrap, is off with the reason', (t) => {
  const stateDir = tempDir('sg-probe-', t);
  const mac = findSandbox({ platform: 'darwin', stateDir });
  assert.deepEqual(mac, { kind: 'none', reason: "no kernel sandbox on darwin: stategate's sandbox is bubblewrap, which runs on Linux only" });
  const missing = findSandbox({ platform: 'linux', stateDir, candidates: [path.join(stateDir, 'no-bwrap')] });
  assert.equal(missing.kind, 'none');
  assert.match(missing.kind === 'none' ? missing.reason : '', /bubblewrap is not installed .*install the bubblewrap package/);
});

test('probe: one run per binary (path, size, mtime), kept in the state folder; a failing bwrap is off with its message', (t) => {
  const dir = tempDir('sg-probe-', t);
  const log = path.join(dir, 'runs.log');
  const fake = path.join(dir, 'bwrap');
  fs.writeFileSync(fake, `#!/bin/sh\necho run >> '${log}'\nexit 0\n`, { mode: 0o755 });
  const runs = (): number => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0);
  const stateDir = path.join(dir, 'state');
  assert.deepEqual(findSandbox({ platform: 'linux', stateDir, candidates: [fake] }), { kind: 'bwrap', path: fake });
  assert.deepEqual(findSandbox({ platform: 'linux', stateDir, candidates: [fake] }), { kind: 'bwrap', path: fake });
  assert.equal(runs(), 1, 'the second call read the kept answer');
  assert.ok(fs.existsSync(path.join(stateDir, PROBE_FILE)));
  // A new binary (another mtime) is probed again; this one fails.
  fs.writeFileSync(fake, `#!/bin/sh\necho run >> '${log}'\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n`, { mode: 0o755 });
  fs.utimesSync(fake, new Date(), new Date(Date.now() + 5000));
  const broken = findSandbox({ platform: 'linux', stateDir, candidates: [fake] });
  assert.equal(runs(), 2);
  assert.equal(broken.kind, 'none');
  assert.match(broken.kind === 'none' ? broken.reason : '', /cannot make a sandbox here \(bwrap: setting up uid map: Permission denied\)/);
});

test('the plan: an empty gate folder (what an earlier seal left) is sealed as a missing one is, so the wrap of a command stays the same', (t) => {
  const { s, ws } = place(t);
  const before = sandboxPlan(s);
  for (const dir of before.sealed) fs.mkdirSync(dir, { recursive: true });
  const after = sandboxPlan(s);
  assert.deepEqual(after, before);
  assert.ok(before.sealed.includes(path.join(ws, '.github')), `${before.sealed}`);
});

test('the plan: stategate\'s own files and the ssh agent\'s socket under the real /tmp stay visible (read-only) in the private one', (t) => {
  const { s, root, ws } = place(t);
  // tempDir is under the real /tmp: a checkout there runs its CLI from there.
  const dist = path.join(root, 'checkout', 'dist');
  const agent = path.join(root, 'ssh-XXXX');
  fs.mkdirSync(dist, { recursive: true });
  fs.mkdirSync(agent);
  const plan = sandboxPlan({ ...s, installDirs: [dist], env: { SSH_AUTH_SOCK: path.join(agent, 'agent.1') } });
  if (!root.startsWith('/tmp/')) return t.skip(`the temporary folder is not under /tmp here (${root})`);
  assert.deepEqual(plan.visible, [agent, dist].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b)));
  const args = bwrapArgs(plan);
  const at = args.indexOf(dist);
  assert.equal(args[at - 1], '--ro-bind');
  assert.ok(at > args.indexOf('/tmp'), 'bound after the private /tmp is mounted');
  // The workspace itself is never in this list: it is bound writable.
  assert.equal(plan.visible.includes(ws), false);
});
