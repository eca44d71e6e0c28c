/**
 * `stategate flow ...` driven as a person or a script drives it: the bundled
 * CLI (dist/cli.js) in a temporary workspace, one process per command. Covers
 * the JSON summary and exit codes, progress on stderr, headless answers, a
 * pause resumed by another process, a kill -9 of the runner (status names the
 * interrupted state, resume --rerun continues), and `flow stop` / Ctrl-C
 * ending a running command's whole process group.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, CLI, requireBuiltCli, type CliResult } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dir.js';
import { alive, eventually, killAfter, pidsIn as pidIn } from './helpers/processes.js';
import { instanceFile } from '../../src/engine/flow/instance-store.js';

type Owner = { after(fn: () => void): unknown };

function workspace(t: Owner, files: Record<string, string>): string {
  const dir = tempDir('sg-flow-run-', t);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** The CLI started in the background (a runner another command talks to). */
function start(args: readonly string[], cwd: string): { pid: number; done: Promise<CliResult>; kill(signal: NodeJS.Signals): void } {
  requireBuiltCli();
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: code ?? (signal ? -1 : -2), stdout, stderr, json });
    });
  });
  return { pid: child.pid!, done, kill: (s) => child.kill(s) };
}

const THREE_STEPS = `name: three
start-at: a
variables:
  who: world
states:
  a:
    tool: bash
    arguments:
      command: echo "hi {{ who }} {{ extra }}"; echo "to stderr" >&2
    output: var(greeting)
    next: b
  b:
    tool: bash
    arguments:
      command: printf 'x%.0s' 1 2 3
    output: file(out/b.txt)
    next: c
  c:
    tool: bash
    arguments:
      command: echo done
`;

test('flow run: one JSON summary on stdout, progress with timings and the tools\' output on stderr, exit 0', (t) => {
  const ws = workspace(t, { 'three.flow.yaml': THREE_STEPS });
  const r = cli(['flow', 'run', 'three.flow.yaml', '--name', 'one', '--var', 'who=you', '--var', 'extra=a=b'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json, { instance: 'one', flow: 'three', status: 'completed', state: 'c', exit_code: 0, variables: { who: 'you', extra: 'a=b', greeting: 'hi you a=b' } });
  assert.match(r.stderr, /▶ a \(bash\)\n[\s\S]*hi you a=b\n[\s\S]*to stderr\n[\s\S]*✓ a \d+\.\d s\n▶ b \(bash\)/);
  assert.match(r.stderr, /✓ c \d+\.\d s/);
  assert.equal(fs.readFileSync(path.join(ws, 'out', 'b.txt'), 'utf8'), 'xxx');
  const status = cli(['flow', 'status', 'one'], { cwd: ws });
  assert.equal(status.code, 0);
  assert.deepEqual(status.json.log.map((e: { state: string; exit_code: number; bytes: number }) => [e.state, e.exit_code, e.bytes]), [
    ['a', 0, Buffer.byteLength('hi you a=b\n')],
    ['b', 0, 3],
    ['c', 0, 5],
  ]);
  for (const e of status.json.log) assert.ok(!Number.isNaN(Date.parse(e.started)) && e.started <= e.ended);
  const list = cli(['flow', 'list'], { cwd: ws });
  assert.deepEqual(list.json.instances.map((s: { instance: string; status: string }) => [s.instance, s.status]), [['one', 'completed']]);
  assert.deepEqual(cli(['flow', 'status'], { cwd: ws }).json, list.json, '`flow status` without an instance lists them');
});

test('flow run: exit code = the flow\'s; a handled failure completes with 0', (t) => {
  const ws = workspace(t, {
    'fail.flow.yaml': `start-at: a\nstates:\n  a:\n    tool: bash\n    arguments:\n      command: echo bad >&2; exit 7\n`,
    'handled.flow.yaml': `start-at: a\nstates:\n  a:\n    tool: bash\n    arguments:\n      command: exit 7\n    on-error:\n      7: fix\n  fix:\n    tool: bash\n    arguments:\n      command: echo fixed\n`,
  });
  const failed = cli(['flow', 'run', 'fail.flow.yaml'], { cwd: ws });
  assert.equal(failed.code, 7);
  assert.equal(failed.json.status, 'failed');
  assert.equal(failed.json.exit_code, 7);
  assert.match(failed.stderr, /bad\n/);
  const handled = cli(['flow', 'run', 'handled.flow.yaml'], { cwd: ws });
  assert.equal(handled.code, 0, handled.stderr);
  assert.equal(handled.json.status, 'completed');
  assert.equal(handled.json.state, 'fix');
});

test('flow run: refusals are one JSON error, a line on stderr, a non-zero exit, and nothing runs', (t) => {
  const ws = workspace(t, {
    'bad.flow.yaml': `start-at: a\nstates:\n  a:\n    tool: bashh\n    arguments:\n      command: touch ran\n`,
    'ok.flow.yaml': `start-at: a\nstates:\n  a:\n    tool: bash\n    arguments:\n      command: touch ran\n`,
  });
  const missing = cli(['flow', 'run', 'nope.flow.yaml'], { cwd: ws });
  assert.equal(missing.code, 2);
  assert.equal(missing.json.error.code, 'not_found');
  assert.match(missing.stderr, /^stategate: .*nope\.flow\.yaml/m);
  const invalid = cli(['flow', 'run', 'bad.flow.yaml'], { cwd: ws });
  assert.equal(invalid.code, 1);
  assert.equal(invalid.json.error.code, 'invalid_flow');
  assert.match(invalid.json.error.message, /bashh/);
  const badVar = cli(['flow', 'run', 'ok.flow.yaml', '--var', 'novalue'], { cwd: ws });
  assert.equal(badVar.code, 2);
  assert.equal(badVar.json.error.code, 'usage');
  const badAnswers = cli(['flow', 'run', 'ok.flow.yaml', '--answers', '[1]'], { cwd: ws });
  assert.equal(badAnswers.code, 2);
  assert.equal(badAnswers.json.error.code, 'invalid_json');
  assert.equal(fs.existsSync(path.join(ws, 'ran')), false);
  const unknown = cli(['flow', 'status', 'ghost'], { cwd: ws });
  assert.equal(unknown.code, 1);
  assert.equal(unknown.json.error.code, 'no_instance');
  assert.equal(cli(['flow', 'frobnicate'], { cwd: ws }).code, 2);
  const help = cli(['flow', '--help'], { cwd: ws });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /stategate flow run FLOW_FILE/);
});

const ASKING = `start-at: confirm
states:
  confirm:
    tool: ask-user
    arguments:
      question: Deploy?
    output: var(answer)
    next: show
  show:
    tool: bash
    arguments:
      command: echo "answer={{ answer }}"
`;

test('flow run: headless ask-user fails naming the state and --answers; --answers answers it', (t) => {
  const ws = workspace(t, { 'ask.flow.yaml': ASKING });
  const headless = cli(['flow', 'run', 'ask.flow.yaml'], { cwd: ws });
  assert.notEqual(headless.code, 0);
  assert.equal(headless.json.status, 'failed');
  assert.match(headless.json.message, /'confirm'.*--answers/);
  const answered = cli(['flow', 'run', 'ask.flow.yaml', '--answers', '{"confirm": "yes"}'], { cwd: ws });
  assert.equal(answered.code, 0, answered.stderr);
  assert.equal(answered.json.variables.answer, 'yes');
  assert.match(answered.stderr, /answer=yes/);
});

test('flow pause and resume across processes: the instance continues after the pause with its variables', (t) => {
  const ws = workspace(t, {
    'p.flow.yaml': `start-at: a\nstates:\n  a:\n    tool: bash\n    arguments:\n      command: echo one\n    output: var(first)\n    next: wait\n  wait:\n    tool: pause\n    arguments:\n      reason: look first\n    next: b\n  b:\n    tool: bash\n    arguments:\n      command: echo "after {{ first }}"\n    output: var(second)\n`,
  });
  const paused = cli(['flow', 'run', 'p.flow.yaml', '--name', 'p'], { cwd: ws });
  assert.equal(paused.code, 0);
  assert.equal(paused.json.status, 'paused');
  assert.equal(paused.json.state, 'wait');
  assert.equal(cli(['flow', 'status', 'p'], { cwd: ws }).json.status, 'paused');
  const resumed = cli(['flow', 'resume', 'p'], { cwd: ws });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.json.status, 'completed');
  assert.deepEqual(resumed.json.variables, { first: 'one', second: 'after one' });
  const again = cli(['flow', 'resume', 'p'], { cwd: ws });
  assert.equal(again.code, 1);
  assert.equal(again.json.error.code, 'not_resumable');
});

const WAITS_FOR_GO = `name: slow
start-at: a
states:
  a:
    tool: bash
    arguments:
      command: echo early
    output: var(early)
    next: b
  b:
    tool: bash
    arguments:
      command: echo $$ >> b.pids; while [ ! -f go ]; do sleep 0.05; done; echo "b saw {{ early }}"
    output: var(late)
    next: c
  c:
    tool: bash
    arguments:
      command: echo c
`;

test('kill -9 of the runner mid-flow: flow status names the interrupted state; resume refuses; resume --rerun continues', async (t) => {
  const ws = workspace(t, { 'slow.flow.yaml': WAITS_FOR_GO });
  killAfter(t, () => pidIn(path.join(ws, 'b.pids')));
  const runner = start(['flow', 'run', 'slow.flow.yaml', '--name', 'k'], ws);
  assert.ok(await eventually(() => pidIn(path.join(ws, 'b.pids')).length === 1), 'state b started');
  runner.kill('SIGKILL');
  await runner.done;
  const status = cli(['flow', 'status', 'k'], { cwd: ws });
  assert.equal(status.code, 0, status.stderr);
  assert.equal(status.json.status, 'interrupted');
  assert.equal(status.json.state, 'b');
  assert.deepEqual(status.json.log.map((e: { state: string }) => e.state), ['a']);
  const plain = cli(['flow', 'resume', 'k'], { cwd: ws });
  assert.equal(plain.code, 1);
  assert.equal(plain.json.error.code, 'interrupted');
  assert.match(plain.json.error.message, /`b`.*--rerun/);
  fs.writeFileSync(path.join(ws, 'go'), '');
  const rerun = cli(['flow', 'resume', 'k', '--rerun'], { cwd: ws });
  assert.equal(rerun.code, 0, rerun.stderr);
  assert.equal(rerun.json.status, 'completed');
  assert.deepEqual(rerun.json.variables, { early: 'early', late: 'b saw early' });
  assert.equal(pidIn(path.join(ws, 'b.pids')).length, 2, 'b ran again');
  assert.deepEqual(cli(['flow', 'status', 'k'], { cwd: ws }).json.log.map((e: { state: string }) => e.state), ['a', 'b', 'c']);
});

const ORPHANS_ON_KILL = `name: orphans
start-at: a
states:
  a:
    tool: bash
    arguments:
      command: if [ -f once ]; then echo again; else touch once; echo $$ >> a.pids; sleep 1000 & echo $! >> a.pids; wait; fi
`;

test('resume --rerun after a kill -9 first ends the process group the dead runner left running', async (t) => {
  const ws = workspace(t, { 'orphans.flow.yaml': ORPHANS_ON_KILL });
  killAfter(t, () => pidIn(path.join(ws, 'a.pids')));
  const runner = start(['flow', 'run', 'orphans.flow.yaml', '--name', 'o'], ws);
  assert.ok(await eventually(() => pidIn(path.join(ws, 'a.pids')).length === 2), 'state a and its background sleep started');
  // The runner records the command's process group just after spawning it; on a loaded machine the shell
  // can write a.pids first. Killed in that window, nothing names the group (there is no record to act on),
  // so wait until the instance record holds it: that is the state this test is about.
  const recorded = () => (JSON.parse(fs.readFileSync(instanceFile(ws, 'o'), 'utf8')) as { pgids: number[] }).pgids.length > 0;
  assert.ok(await eventually(recorded), 'the runner recorded the process group of state a');
  runner.kill('SIGKILL');
  await runner.done;
  const orphans = pidIn(path.join(ws, 'a.pids'));
  assert.ok(orphans.every(alive), 'the killed runner left its state running');
  const rerun = cli(['flow', 'resume', 'o', '--rerun'], { cwd: ws });
  assert.equal(rerun.code, 0, rerun.stderr);
  assert.deepEqual(rerun.json.variables, {});
  assert.ok(await eventually(() => !orphans.some(alive)), `the left-over processes ${orphans.join(', ')} are gone`);
});

const LONG_RUNNING = `name: long
start-at: a
states:
  a:
    tool: bash
    arguments:
      command: sleep 1000 & echo $! >> bg.pids; sleep 1000 & echo $! >> bg.pids; wait
    next: b
  b:
    tool: bash
    arguments:
      command: touch b-ran
`;

test('flow stop from another process kills the running command\'s whole process group and leaves the instance stopped', async (t) => {
  const ws = workspace(t, { 'long.flow.yaml': LONG_RUNNING });
  killAfter(t, () => pidIn(path.join(ws, 'bg.pids')));
  const runner = start(['flow', 'run', 'long.flow.yaml', '--name', 's'], ws);
  killAfter(t, () => [runner.pid]);
  assert.ok(await eventually(() => pidIn(path.join(ws, 'bg.pids')).length === 2), 'the background sleeps started');
  const children = pidIn(path.join(ws, 'bg.pids'));
  const stop = cli(['flow', 'stop', 's'], { cwd: ws });
  assert.equal(stop.json.status, 'stopped', stop.stderr);
  assert.equal(stop.code, 130, "flow stop exits with the flow's exit code");
  const ran = await runner.done;
  assert.equal(ran.json?.status, 'stopped', ran.stderr);
  assert.equal(ran.code, 130);
  assert.ok(await eventually(() => !children.some(alive)), `background children ${children.join(', ')} are gone`);
  assert.equal(fs.existsSync(path.join(ws, 'b-ran')), false, 'the next state never ran');
  assert.equal(cli(['flow', 'status', 's'], { cwd: ws }).json.status, 'stopped');
});

test('Ctrl-C (SIGINT) of the runner stops the instance and its process group, and prints the stopped summary', async (t) => {
  const ws = workspace(t, { 'long.flow.yaml': LONG_RUNNING });
  killAfter(t, () => pidIn(path.join(ws, 'bg.pids')));
  const runner = start(['flow', 'run', 'long.flow.yaml'], ws);
  killAfter(t, () => [runner.pid]);
  assert.ok(await eventually(() => pidIn(path.join(ws, 'bg.pids')).length === 2));
  const children = pidIn(path.join(ws, 'bg.pids'));
  runner.kill('SIGINT');
  const ran = await runner.done;
  assert.equal(ran.json?.status, 'stopped', ran.stderr);
  assert.equal(ran.code, 130);
  assert.ok(await eventually(() => !children.some(alive)));
  assert.equal(fs.existsSync(path.join(ws, 'b-ran')), false);
  assert.equal(cli(['flow', 'status', ran.json.instance], { cwd: ws }).json.status, 'stopped');
});
