/**
 * The command line's flow effects (src/engine/flow/effects/): the real bash
 * with its process group, and the vendor CLIs, Claude Code and gh as scripted
 * stand-ins written into a temporary bin folder (the programs are found on
 * PATH or through their STATEGATE_*_BIN variable, as for a user).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { tempDir } from './helpers/temp-dir.js';
import { alive, eventually, groupMembers, killAfter, pidsIn as readPids } from './helpers/processes.js';
import type { FlowSink, ModelVendor, PromptRequest } from '../../src/engine/flow/host.js';
import { runBash } from '../../src/engine/flow/effects/bash.js';
import { promptModelCli } from '../../src/engine/flow/effects/vendor-cli.js';
import { claudeHookSettings, runClaudeCode } from '../../src/engine/flow/effects/claude-code.js';
import { GH_ISSUE_FIELDS, readGhIssue } from '../../src/engine/flow/effects/gh-issue.js';
import { askInTerminal } from '../../src/engine/flow/effects/ask-terminal.js';
import { nodeFlowHost } from '../../src/engine/flow/effects/node-host.js';

interface Recorded {
  readonly sink: FlowSink;
  readonly chunks: { state: string; chunk: string; stream: 'stdout' | 'stderr' }[];
}

function recordingSink(): Recorded {
  const chunks: Recorded['chunks'] = [];
  return { chunks, sink: { progress: () => undefined, output: (state, chunk, stream) => chunks.push({ state, chunk, stream }) } };
}

const text = (r: Recorded, stream: 'stdout' | 'stderr'): string =>
  r.chunks
    .filter((c) => c.stream === stream)
    .map((c) => c.chunk)
    .join('');

function bashRequest(cwd: string, command: string, signal = new AbortController().signal, onStarted?: (pgid: number) => void) {
  return { state: 'step', command, cwd, signal, ...(onStarted ? { onStarted } : {}) };
}

test('bash: stdout captured, stderr streamed, the exit code returned, in the workspace folder with extra env', async (t) => {
  const dir = tempDir('sg-fx-bash-', t);
  const rec = recordingSink();
  const out = await runBash({ ...bashRequest(dir, 'pwd; echo "v=$FLOW_X"; echo oops >&2; exit 3'), env: { FLOW_X: 'x1' } }, rec.sink);
  assert.equal(out.exitCode, 3);
  assert.equal(out.stdout, `${fs.realpathSync(dir)}\nv=x1\n`);
  assert.equal(text(rec, 'stderr'), 'oops\n');
  assert.equal(text(rec, 'stdout'), out.stdout, 'stdout is shown live too, tagged stdout');
  assert.ok(rec.chunks.every((c) => c.state === 'step'));
});

test('bash: a death by signal is 128+n', async (t) => {
  const dir = tempDir('sg-fx-sig-', t);
  const { sink } = recordingSink();
  assert.equal((await runBash(bashRequest(dir, 'kill -KILL $$'), sink)).exitCode, 137);
  assert.equal((await runBash(bashRequest(dir, 'kill -TERM $$'), sink)).exitCode, 143);
});

test('bash: abort kills the whole process group, background children too; onStarted names the group', async (t) => {
  const dir = tempDir('sg-fx-group-', t);
  const pidFile = path.join(dir, 'pids');
  const ctl = new AbortController();
  let pgid = 0;
  killAfter(t, () => [...readPids(pidFile), pgid]);
  const running = runBash(bashRequest(dir, `sleep 1000 & echo $! >> pids; sleep 1000 & echo $! >> pids; sleep 1000`, ctl.signal, (g) => (pgid = g)), recordingSink().sink);
  assert.ok(await eventually(() => readPids(pidFile).length === 2), 'the two background sleeps started');
  const children = readPids(pidFile);
  // Polled, not read once: a fresh-clone CI run at load 9 read 0 here once, with both sleeps already started.
  assert.ok(await eventually(() => pgid > 0), 'onStarted named the process group');
  assert.ok(children.every(alive));
  ctl.abort();
  const out = await running;
  assert.equal(out.exitCode, 143, 'the group was ended with SIGTERM');
  assert.match(out.message ?? '', /stopped/);
  assert.ok(await eventually(() => !children.some(alive)), `background children ${children.join(', ')} are gone`);
  // Zombies waiting for init to reap them still answer kill(-pgid, 0): /proc tells the living apart.
  assert.ok(await eventually(() => groupMembers(pgid).length === 0), 'no process of the group is left');
});

test('bash: children that ignore SIGTERM are killed after the grace', async (t) => {
  const dir = tempDir('sg-fx-kill-', t);
  const pidFile = path.join(dir, 'pids');
  const ctl = new AbortController();
  killAfter(t, () => readPids(pidFile));
  const running = runBash(bashRequest(dir, `trap '' TERM; sleep 1000 & echo $! >> pids; sleep 1000 & echo $! >> pids; wait`, ctl.signal), recordingSink().sink, { killGraceMs: 100 });
  assert.ok(await eventually(() => readPids(pidFile).length === 2));
  const children = readPids(pidFile);
  ctl.abort();
  await running;
  assert.ok(await eventually(() => !children.some(alive)), 'SIGKILL ended what ignored SIGTERM');
});

test('bash: a background child that keeps stdout open does not hold the state forever', async (t) => {
  const dir = tempDir('sg-fx-bg-', t);
  let pgid = 0;
  const out = await runBash(bashRequest(dir, 'sleep 1000 & echo $! > bg.pid; echo started', undefined, (g) => (pgid = g)), recordingSink().sink);
  killAfter(t, () => [pgid, ...readPids(path.join(dir, 'bg.pid'))]);
  assert.equal(out.exitCode, 0);
  assert.equal(out.stdout, 'started\n');
  assert.ok(alive(readPids(path.join(dir, 'bg.pid'))[0]!), 'the background child was left running (it is not part of the state)');
});

test('bash: an aborted signal before the start runs nothing; a missing bash or folder is 127 with the reason', async (t) => {
  const dir = tempDir('sg-fx-miss-', t);
  const ctl = new AbortController();
  ctl.abort();
  const early = await runBash(bashRequest(dir, 'touch ran', ctl.signal), recordingSink().sink);
  assert.equal(early.exitCode, 143);
  assert.equal(fs.existsSync(path.join(dir, 'ran')), false);
  const noBash = await runBash(bashRequest(dir, 'true'), recordingSink().sink, { env: { ...process.env, STATEGATE_BASH_BIN: path.join(dir, 'no-bash') } });
  assert.equal(noBash.exitCode, 127);
  assert.match(noBash.message ?? '', /no-bash is not installed .*STATEGATE_BASH_BIN/);
  const noDir = await runBash(bashRequest(path.join(dir, 'gone'), 'true'), recordingSink().sink);
  assert.equal(noDir.exitCode, 127);
  assert.match(noDir.message ?? '', /gone does not exist/);
});

/** A bin folder with scripted stand-ins: each logs its arguments (one a line) and stdin, then answers. */
function fakeBin(t: { after(fn: () => void): unknown }, scripts: Record<string, string>): { bin: string; log: string; env: NodeJS.ProcessEnv } {
  const root = tempDir('sg-fx-bin-', t);
  const bin = path.join(root, 'bin');
  const log = path.join(root, 'log');
  fs.mkdirSync(bin);
  fs.mkdirSync(log);
  for (const [name, body] of Object.entries(scripts)) {
    const file = path.join(bin, name);
    fs.writeFileSync(file, `#!/bin/bash\nprintf '%s\\n' "$@" > "$FAKE_LOG/${name}.args"\n${body}\n`);
    fs.chmodSync(file, 0o755);
  }
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}`, FAKE_LOG: log };
  for (const v of ['STATEGATE_CLAUDE_BIN', 'STATEGATE_CODEX_BIN', 'STATEGATE_GEMINI_BIN', 'STATEGATE_GH_BIN']) delete env[v];
  return { bin, log, env };
}

const argsOf = (log: string, name: string): string[] => fs.readFileSync(path.join(log, `${name}.args`), 'utf8').split('\n').slice(0, -1);

function promptRequest(cwd: string, vendor: ModelVendor, prompt: string, model?: string): PromptRequest {
  return { state: 'plan', vendor, prompt, cwd, signal: new AbortController().signal, ...(model ? { model } : {}) };
}

const ANSWERING = (name: string): string => `cat > "$FAKE_LOG/${name}.stdin"\necho "progress" >&2\necho "answer from ${name}"`;

test('claude, codex, gemini: the vendor CLI, non-interactive, the prompt on stdin, the answer on stdout', async (t) => {
  const fake = fakeBin(t, { claude: ANSWERING('claude'), codex: ANSWERING('codex'), gemini: ANSWERING('gemini') });
  const cwd = tempDir('sg-fx-ws-', t);
  const expected: Record<ModelVendor, string[]> = {
    claude: ['-p', '--model', 'm1'],
    codex: ['exec', '--skip-git-repo-check', '--model', 'm1', '-'],
    gemini: ['--model', 'm1'],
  };
  for (const vendor of ['claude', 'codex', 'gemini'] as const) {
    const rec = recordingSink();
    // A prompt that starts like an option and holds quotes: it goes on stdin, never as an argument.
    const prompt = `--help "why" $(did) 'the tests' fail?\n`;
    const out = await promptModelCli(promptRequest(cwd, vendor, prompt, 'm1'), rec.sink, { env: fake.env });
    assert.equal(out.exitCode, 0, out.message);
    assert.equal(out.stdout, `answer from ${vendor}\n`);
    assert.deepEqual(argsOf(fake.log, vendor), expected[vendor]);
    assert.equal(fs.readFileSync(path.join(fake.log, `${vendor}.stdin`), 'utf8'), prompt);
    assert.equal(text(rec, 'stdout'), `answer from ${vendor}\n`, 'the answer is streamed');
    assert.equal(text(rec, 'stderr'), 'progress\n');
  }
  const noModel = await promptModelCli(promptRequest(cwd, 'claude', 'hi'), recordingSink().sink, { env: fake.env });
  assert.equal(noModel.exitCode, 0);
  assert.deepEqual(argsOf(fake.log, 'claude'), ['-p']);
});

test('claude, codex, gemini: a failing CLI routes on its exit code; STATEGATE_<VENDOR>_BIN names another program', async (t) => {
  const fake = fakeBin(t, { 'my-gemini': 'cat > /dev/null\necho "quota exceeded" >&2\nexit 4' });
  const cwd = tempDir('sg-fx-ws-', t);
  const rec = recordingSink();
  const out = await promptModelCli(promptRequest(cwd, 'gemini', 'hi'), rec.sink, { env: { ...fake.env, STATEGATE_GEMINI_BIN: path.join(fake.bin, 'my-gemini') } });
  assert.equal(out.exitCode, 4);
  assert.equal(text(rec, 'stderr'), 'quota exceeded\n');
});

test('claude, codex, gemini: not installed is 127 with a message naming the CLI, how to get it, and VS Code', async (t) => {
  const empty = tempDir('sg-fx-empty-', t);
  const cwd = tempDir('sg-fx-ws-', t);
  const env: NodeJS.ProcessEnv = { PATH: empty };
  for (const [vendor, variable] of [
    ['claude', 'STATEGATE_CLAUDE_BIN'],
    ['codex', 'STATEGATE_CODEX_BIN'],
    ['gemini', 'STATEGATE_GEMINI_BIN'],
  ] as const) {
    const out = await promptModelCli(promptRequest(cwd, vendor, 'hi'), recordingSink().sink, { env });
    assert.equal(out.exitCode, 127);
    assert.match(out.message ?? '', new RegExp(`the ${vendor} tool needs ${vendor} .*not installed.*npm install -g .*${variable}.*VS Code's language models`));
  }
});

test('claude-code: claude -p in the workspace with edits accepted, under the stategate hook passed with --settings', async (t) => {
  const fake = fakeBin(t, { claude: ANSWERING('claude') });
  const ws = tempDir('sg-fx-cc-', t);
  const hook = `'/usr/bin/node' '/opt/stategate/dist/cli.js' hook --client claude`;
  const out = await runClaudeCode(promptRequest(ws, 'claude', 'fix the tests', 'sonnet'), recordingSink().sink, { env: fake.env, claudeHookCommand: hook });
  assert.equal(out.exitCode, 0, out.message);
  const args = argsOf(fake.log, 'claude');
  assert.deepEqual(args.slice(0, 5), ['-p', '--permission-mode', 'acceptEdits', '--model', 'sonnet']);
  assert.equal(args[5], '--settings');
  const settings = JSON.parse(args[6]!);
  assert.deepEqual(Object.keys(settings.hooks).sort(), ['PostToolUse', 'PreToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit']);
  assert.deepEqual(settings.hooks.PreToolUse, [{ matcher: '*', hooks: [{ type: 'command', command: hook, timeout: 10 }] }]);
  assert.equal(args[6], claudeHookSettings(hook));
  assert.equal(fs.readFileSync(path.join(fake.log, 'claude.stdin'), 'utf8'), 'fix the tests');
});

test('claude-code: a hook already installed in the workspace is not passed again (a call would count twice)', async (t) => {
  const fake = fakeBin(t, { claude: ANSWERING('claude') });
  const ws = tempDir('sg-fx-cc-', t);
  fs.mkdirSync(path.join(ws, '.claude'));
  fs.writeFileSync(
    path.join(ws, '.claude', 'settings.local.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: "node '/x/dist/cli.js' hook --client claude" }] }] } }),
  );
  const out = await runClaudeCode(promptRequest(ws, 'claude', 'go'), recordingSink().sink, { env: fake.env, claudeHookCommand: 'stategate hook --client claude' });
  assert.equal(out.exitCode, 0);
  assert.deepEqual(argsOf(fake.log, 'claude'), ['-p', '--permission-mode', 'acceptEdits']);
});

test('claude-code: with a workflow run active, no installed hook and none to pass, it refuses and runs nothing (fail closed)', async (t) => {
  const fake = fakeBin(t, { claude: ANSWERING('claude') });
  const ws = tempDir('sg-fx-cc-', t);
  fs.mkdirSync(path.join(ws, '.stategate'));
  fs.writeFileSync(path.join(ws, '.stategate', 'active'), 'run-1\n');
  const out = await runClaudeCode(promptRequest(ws, 'claude', 'go'), recordingSink().sink, { env: fake.env });
  assert.equal(out.exitCode, 1);
  assert.match(out.message ?? '', /workflow run is active.*Enable Agent Enforcement/);
  assert.equal(fs.existsSync(path.join(fake.log, 'claude.args')), false);
  // No run active: nothing to enforce, Claude Code runs.
  fs.writeFileSync(path.join(ws, '.stategate', 'active'), '');
  assert.equal((await runClaudeCode(promptRequest(ws, 'claude', 'go'), recordingSink().sink, { env: fake.env })).exitCode, 0);
});

test('claude-code: Claude Code not installed is 127 naming claude', async (t) => {
  const ws = tempDir('sg-fx-cc-', t);
  const out = await runClaudeCode(promptRequest(ws, 'claude', 'go'), recordingSink().sink, { env: { PATH: tempDir('sg-fx-empty-', t) } });
  assert.equal(out.exitCode, 127);
  assert.match(out.message ?? '', /the claude-code tool needs claude \(Claude Code\)/);
});

const GH = `if [ "$1 $2" != "issue view" ]; then exit 9; fi\necho '{"number":'"$3"',"title":"Tests fail","body":"npm test fails","labels":[],"state":"OPEN","url":"u","comments":[]}'`;

test('get-gh-issue: gh issue view N --json the fields (--repo when given), the JSON on stdout', async (t) => {
  const fake = fakeBin(t, { gh: GH });
  const cwd = tempDir('sg-fx-ws-', t);
  const signal = new AbortController().signal;
  const out = await readGhIssue({ state: 'issue', issueNumber: '#42', repo: 'acme/app', cwd, signal }, recordingSink().sink, { env: fake.env });
  assert.equal(out.exitCode, 0, out.message);
  assert.equal(JSON.parse(out.stdout).number, 42);
  assert.deepEqual(argsOf(fake.log, 'gh'), ['issue', 'view', '42', '--json', GH_ISSUE_FIELDS, '--repo', 'acme/app']);
  await readGhIssue({ state: 'issue', issueNumber: '7', cwd, signal }, recordingSink().sink, { env: fake.env });
  assert.deepEqual(argsOf(fake.log, 'gh'), ['issue', 'view', '7', '--json', GH_ISSUE_FIELDS]);
});

test('get-gh-issue: a number that is not one, or a repo that is not OWNER/NAME, is refused before gh runs', async (t) => {
  const fake = fakeBin(t, { gh: GH });
  const cwd = tempDir('sg-fx-ws-', t);
  const signal = new AbortController().signal;
  const bad = await readGhIssue({ state: 'issue', issueNumber: '--repo=evil/x', cwd, signal }, recordingSink().sink, { env: fake.env });
  assert.equal(bad.exitCode, 2);
  assert.match(bad.message ?? '', /issue-number must be/);
  const badRepo = await readGhIssue({ state: 'issue', issueNumber: '1', repo: '--web', cwd, signal }, recordingSink().sink, { env: fake.env });
  assert.equal(badRepo.exitCode, 2);
  assert.equal(fs.existsSync(path.join(fake.log, 'gh.args')), false);
});

test('get-gh-issue: gh missing is 127 with how to get it and the VS Code alternative', async (t) => {
  const cwd = tempDir('sg-fx-ws-', t);
  const out = await readGhIssue({ state: 'issue', issueNumber: '1', cwd, signal: new AbortController().signal }, recordingSink().sink, { env: { PATH: tempDir('sg-fx-empty-', t) } });
  assert.equal(out.exitCode, 127);
  assert.match(out.message ?? '', /needs gh \(the GitHub CLI\).*gh auth login.*STATEGATE_GH_BIN.*GitHub sign-in/);
});

test('ask-user: headless fails naming the state and --answers; a terminal answer is the output', async () => {
  const signal = new AbortController().signal;
  const headless = await askInTerminal({ state: 'confirm', question: 'Push?', signal }, { interactive: false, input: new PassThrough(), output: new PassThrough() });
  assert.equal(headless.exitCode, 1);
  assert.match(headless.message ?? '', /ask-user state 'confirm'.*headless.*--answers '\{"confirm":/);
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d) => (shown += d));
  const asked = askInTerminal({ state: 'confirm', question: 'Push?', signal }, { interactive: true, input, output });
  input.write('yes please\n');
  const answered = await asked;
  assert.deepEqual(answered, { exitCode: 0, stdout: 'yes please' });
  assert.match(shown, /\? Push\?/);
  const closedInput = new PassThrough();
  const closing = askInTerminal({ state: 'confirm', question: 'Push?', signal }, { interactive: true, input: closedInput, output: new PassThrough() });
  closedInput.end();
  assert.equal((await closing).exitCode, 1);
});

test('nodeFlowHost: the workspace, the effects and the clock, wired', async (t) => {
  const ws = tempDir('sg-fx-host-', t);
  const rec = recordingSink();
  const when = new Date('2026-01-02T03:04:05Z');
  const host = nodeFlowHost(ws, rec.sink, { interactive: false, now: () => when });
  assert.equal(host.workspace, ws);
  assert.equal(host.now(), when);
  const out = await host.runCommand(bashRequest(ws, 'echo hi'));
  assert.equal(out.stdout, 'hi\n');
  assert.equal((await host.askUser({ state: 'q', question: 'x', signal: new AbortController().signal })).exitCode, 1);
});
