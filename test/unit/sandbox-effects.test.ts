/**
 * The kernel boundary under an allowed command, end to end (issue 29,
 * Deliver 4): the state allows `node`, the agent wrote a script (its Write
 * tool may), and the script tries to switch the gate off. The command the
 * hook hands back is run as the client runs it (`bash -c` in the workspace):
 * every write to a gate file or outside the workspace fails and leaves the
 * file byte-identical; a write inside the workspace succeeds. Also: each
 * client's reply (rewrite without approving; none where the client cannot),
 * the environment rewrite composed with the sandbox, and the boundary off
 * (no bwrap) saying why in `run tool` and `run state`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { cli, REPO_ROOT } from './helpers/cli';
import { bwrapOrSkip } from './helpers/sandbox';
import { TEST_STATE_DIR } from './helpers/state-dir';
import { tempDir } from './helpers/temp-dir';

const WORKFLOW = {
  id: 'sandboxed',
  initial: 'build',
  states: {
    build: { allowed_tools: ['Read', 'Write', 'Edit', 'Bash'], allowed_commands: ['node', 'sh', 'echo', 'printenv'], network: false, on: { ENV: 'env' } },
    env: { allowed_tools: ['Bash'], allowed_commands: ['node', 'printenv'], blocked_env: ['SECRET_TOKEN'], on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};

/** A workspace with a started run (under os.tmpdir(): the plan binds the workspace itself over the private /tmp). */
function workspace(t: TestContext, state = 'build'): string {
  const ws = fs.realpathSync(tempDir('sg-sandbox-', t));
  fs.writeFileSync(path.join(ws, 'x.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'x.workflow.json'], { cwd: ws }).code, 0);
  if (state !== 'build') assert.equal(cli(['run', 'send', state.toUpperCase()], { cwd: ws }).code, 0);
  return ws;
}

type Client = 'claude' | 'vscode' | 'codex' | 'opencode';
const EVENT: Record<Client, (ws: string, command: string) => object> = {
  claude: (ws, command) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd: ws, tool_name: 'Bash', tool_input: { command, description: 'd' } }),
  vscode: (ws, command) => ({ hookEventName: 'PreToolUse', sessionId: 's', cwd: ws, tool_name: 'run_in_terminal', tool_input: { command, explanation: 'x', isBackground: false } }),
  codex: (ws, command) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd: ws, tool_name: 'Bash', tool_input: { command } }),
  opencode: (ws, command) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd: ws, tool_name: 'bash', tool_input: { command, description: 'd' } }),
};

function hook(client: Client, ws: string, command: string, env: Record<string, string> = {}): { code: number; json: any } {
  const r = cli(['hook', '--client', client], { cwd: ws, input: JSON.stringify(EVENT[client](ws, command)), env });
  return { code: r.code, json: r.json };
}

/** The command Claude Code would run: the hook's updatedInput. */
function wrapped(ws: string, command: string): string {
  const r = hook('claude', ws, command);
  assert.equal(r.code, 0);
  const out = r.json?.hookSpecificOutput;
  assert.equal(out?.permissionDecision, undefined, `no decision: the person's prompt stays (${JSON.stringify(r.json)})`);
  assert.equal(typeof out?.updatedInput?.command, 'string', `a rewritten command: ${JSON.stringify(r.json)}`);
  assert.equal(out.updatedInput.description, 'd', 'the rest of the input is kept');
  return out.updatedInput.command as string;
}

function runAsClient(ws: string, command: string, env: NodeJS.ProcessEnv = process.env): { status: number | null; stdout: string; stderr: string } {
  return spawnSync('bash', ['-c', command], { cwd: ws, encoding: 'utf8', env, timeout: 60_000 });
}

/** Each target: write it from inside; report the error code or OK. */
const ATTACK = `
const fs = require('fs');
const out = {};
for (const f of JSON.parse(process.argv[2])) {
  try { fs.writeFileSync(f, 'pwned'); out[f] = 'OK'; } catch (e) { out[f] = e.code; }
}
console.log(JSON.stringify(out));
`;

test('effects: from inside, gate files and places outside the workspace cannot be written; the workspace can', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t);
  fs.mkdirSync(path.join(ws, '.github', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.github', 'hooks', 'stategate.json'), '{"hooks":{}}\n');
  fs.mkdirSync(path.join(ws, '.claude'));
  fs.writeFileSync(path.join(ws, '.claude', 'settings.json'), '{"hooks":{"PreToolUse":[]}}\n');
  // Outside /tmp: under /tmp the sandbox shows a private, empty folder, which would prove less.
  const outside = fs.realpathSync(tempDir('sg-outside-', t, '/var/tmp'));
  fs.writeFileSync(path.join(outside, 'notes.txt'), 'mine\n');
  const record = fs.readdirSync(path.join(TEST_STATE_DIR, 'workspaces')).map((f) => path.join(TEST_STATE_DIR, 'workspaces', f));
  assert.ok(record.length > 0, 'the run has its record outside the workspace');
  const runJson = path.join(ws, '.stategate', 'runs', fs.readFileSync(path.join(ws, '.stategate', 'active'), 'utf8').trim(), 'run.json');
  // V8's code caches beside the CLI's bundles (src/cli/code-cache.ts): code the hook runs, read-only inside like the bundles.
  const distCli = path.join(REPO_ROOT, 'dist', 'cli');
  const caches = fs.readdirSync(distCli).filter((f) => f.endsWith('.cache')).map((f) => path.join(distCli, f));
  const existing = [runJson, path.join(ws, '.stategate', 'active'), path.join(ws, '.claude', 'settings.json'), path.join(ws, '.github', 'hooks', 'stategate.json'), path.join(outside, 'notes.txt'), ...record, ...caches];
  const missing = [path.join(ws, '.claude', 'settings.local.json'), path.join(ws, '.github', 'hooks', 'new.json'), path.join(ws, '.vscode', 'settings.json'), path.join(outside, 'new.txt'), path.join(TEST_STATE_DIR, 'planted.json'), path.join(distCli, 'hook.js.0123456789abcdef.cache')];
  fs.writeFileSync(path.join(ws, 'attack.js'), ATTACK);
  const inside = path.join(ws, 'build', 'out.txt');
  fs.mkdirSync(path.dirname(inside));

  // The hook counts the call in run.json: the files are taken as they are once it has answered.
  const command = wrapped(ws, `node attack.js '${JSON.stringify([...existing, ...missing, inside])}'`);
  const before = new Map(existing.map((f) => [f, fs.readFileSync(f)]));
  const r = runAsClient(ws, command);
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as Record<string, string>;
  for (const f of [...existing, ...missing]) assert.notEqual(got[f], 'OK', `${f} was written from inside the sandbox`);
  for (const f of existing) assert.deepEqual(fs.readFileSync(f), before.get(f), `${f} is byte-identical`);
  for (const f of missing) assert.ok(!fs.existsSync(f), `${f} was not created`);
  assert.equal(got[inside], 'OK');
  assert.equal(fs.readFileSync(inside, 'utf8'), 'pwned', 'a write inside the workspace lands');
});

test('effects: a missing .claude/ cannot be made from inside (settings.local.json would switch the hook off)', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t);
  // A script the agent wrote (its Write tool may): the analysis sees only `sh make-hooks.sh`.
  fs.writeFileSync(path.join(ws, 'make-hooks.sh'), 'mkdir -p .claude && echo {} > .claude/settings.local.json\nmkdir -p .github/hooks && echo {} > .github/hooks/x.json\necho done\n');
  const r = runAsClient(ws, wrapped(ws, 'sh make-hooks.sh'));
  assert.match(r.stderr, /Read-only file system/);
  assert.ok(!fs.existsSync(path.join(ws, '.claude', 'settings.local.json')));
  assert.ok(!fs.existsSync(path.join(ws, '.github', 'hooks', 'x.json')));
});

test('effects: network: false cuts the network inside', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t);
  fs.writeFileSync(path.join(ws, 'net.js'), "require('net').connect(53, '1.1.1.1').on('connect', () => { console.log('CONNECTED'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); });");
  const r = runAsClient(ws, wrapped(ws, 'node net.js'));
  assert.equal(r.stdout.trim(), 'ENETUNREACH');
});

test('environment rules and the sandbox compose: "ask" with the wrapped env rewrite, the variable unset inside', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t, 'env');
  fs.writeFileSync(path.join(ws, 'attack.js'), ATTACK);
  fs.writeFileSync(path.join(ws, 'env.js'), "console.log(process.env.SECRET_TOKEN ?? 'unset')");
  const r = hook('claude', ws, `node env.js; node attack.js '["${path.join(ws, '.stategate', 'active')}"]'`);
  const out = r.json?.hookSpecificOutput;
  assert.equal(out?.permissionDecision, 'ask', JSON.stringify(r.json));
  const command = out.updatedInput.command as string;
  assert.match(command, /^(?:'env' (?:'-u' '[A-Z_]+' )+)?'\/[^']*bwrap' /);
  assert.match(command, /env -u SECRET_TOKEN bash -c/);
  const before = fs.readFileSync(path.join(ws, '.stategate', 'active'));
  const ran = runAsClient(ws, command, { ...process.env, SECRET_TOKEN: 'hunter2' });
  assert.equal(ran.stdout.split('\n')[0], 'unset');
  assert.match(ran.stdout, /"EROFS"/);
  assert.deepEqual(fs.readFileSync(path.join(ws, '.stategate', 'active')), before);
});

test('client replies: Claude Code and VS Code updatedInput without a decision, OpenCode updated_input, Codex nothing', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t);
  for (const client of ['claude', 'vscode'] as const) {
    const out = hook(client, ws, 'echo hi').json?.hookSpecificOutput;
    assert.equal(out?.permissionDecision, undefined, client);
    assert.match(out?.updatedInput?.command ?? '', /bwrap' .* '--' '\/bin\/bash' '-c' 'echo hi'$/, client);
  }
  assert.equal(hook('vscode', ws, 'echo hi').json.hookSpecificOutput.updatedInput.explanation, 'x');
  const open = hook('opencode', ws, 'echo hi').json;
  assert.equal(open.decision, 'allow');
  assert.match(open.updated_input.command, /bwrap/);
  assert.equal(open.updated_input.description, 'd');
  // Codex would take a rewrite only with "allow", which approves: it gets the plain allow (nothing printed).
  const codex = hook('codex', ws, 'echo hi');
  assert.equal(codex.code, 0);
  assert.equal(codex.json, undefined);
});

test('run tool: sandbox and updated_input; off with the reason without bwrap, and run state says so too', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t);
  const on = cli(['run', 'tool', 'Bash', '--input', JSON.stringify({ command: 'echo hi', timeout: 5 })], { cwd: ws }).json;
  assert.equal(on.decision, 'allow');
  assert.deepEqual(on.sandbox, { enforced: true });
  assert.equal(on.updated_input.timeout, 5);
  assert.match(on.updated_input.command, /'--unshare-net'/, 'network: false');
  const onState = cli(['run', 'state'], { cwd: ws }).json.sandbox;
  assert.equal(onState.enforced, true);
  // Where it is on, run state still names the clients whose calls run without it, and why.
  assert.deepEqual(Object.keys(onState.off_for).sort(), ['codex', 'copilot', 'cursor', 'gemini']);
  assert.match(onState.off_for.codex, /approve/);

  const env = { STATEGATE_BWRAP: path.join(ws, 'no-such-bwrap') };
  const off = cli(['run', 'tool', 'Bash', '--input', JSON.stringify({ command: 'echo hi' })], { cwd: ws, env }).json;
  assert.equal(off.decision, 'allow', 'the analysis alone decides');
  assert.equal(off.sandbox.enforced, false);
  assert.match(off.sandbox.reason, /bubblewrap is not installed/);
  assert.equal(off.updated_input, undefined);
  const state = cli(['run', 'state'], { cwd: ws, env }).json;
  assert.equal(state.sandbox.enforced, false);
  assert.match(state.sandbox.reason, /bubblewrap is not installed.*the command analysis alone decides/);
  // Without bwrap the hook answers a plain allow, as before.
  assert.equal(hook('claude', ws, 'echo hi', env).json, undefined);
  // A denial stays a denial, with no sandbox talk.
  const denied = cli(['run', 'tool', 'Bash', '--input', JSON.stringify({ command: 'curl x' })], { cwd: ws }).json;
  assert.equal(denied.decision, 'deny');
  assert.equal(denied.sandbox, undefined);
});

test('statecharts: network: false on an ancestor holds in a child that says network: true', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = fs.realpathSync(tempDir('sg-sandbox-chart-', t));
  fs.writeFileSync(
    path.join(ws, 'net.statechart.yaml'),
    [
      'statechart:',
      '  id: net_chart',
      '  initial: offline',
      '  states:',
      '    offline:',
      '      network: false',
      '      initial: building',
      '      states:',
      '        building:',
      '          allowed_tools: [Bash]',
      '          network: true',
      '      on:',
      '        DONE:',
      '          target: finished',
      '    finished:',
      '      type: final',
      '',
    ].join('\n'),
  );
  const started = cli(['run', 'start', 'net.statechart.yaml'], { cwd: ws });
  assert.equal(started.code, 0, started.stdout + started.stderr);
  const answer = cli(['run', 'tool', 'Bash', '--input', JSON.stringify({ command: 'echo hi' })], { cwd: ws }).json;
  assert.equal(answer.decision, 'allow', JSON.stringify(answer));
  assert.match(answer.updated_input.command, /'--unshare-net'/);
});

test('effects: the gate folders cannot be moved, deleted or hard-linked from inside', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t);
  const rows: [script: string, error: RegExp][] = [
    ['mv .stategate gone', /Device or resource busy/],
    ['mv .claude c2', /Device or resource busy/],
    ['rm -rf .stategate', /Read-only file system/],
    ['ln .stategate/active hl', /Invalid cross-device link/],
  ];
  for (const [script, error] of rows) {
    fs.writeFileSync(path.join(ws, 'try.sh'), `${script}\n`);
    const command = wrapped(ws, 'sh try.sh');
    const active = fs.readFileSync(path.join(ws, '.stategate', 'active'));
    const r = runAsClient(ws, command);
    assert.notEqual(r.status, 0, script);
    assert.match(r.stderr, error, script);
    assert.deepEqual(fs.readFileSync(path.join(ws, '.stategate', 'active')), active, script);
    assert.ok(!fs.existsSync(path.join(ws, 'gone')) && !fs.existsSync(path.join(ws, 'hl')), script);
  }
});
