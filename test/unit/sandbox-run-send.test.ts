/**
 * Inside stategate's sandbox the run's files are read-only, so the agent's
 * `stategate run send EVENT` (which the policy allows it) used to fail there
 * with a raw file-system error (EROFS). bwrap now sets STATEGATE_SANDBOXED=1
 * inside (bwrap-argv.ts), and the CLI's run commands that change the run
 * answer with a clear refusal naming the way that works (the
 * statewright_transition tool); `run state` still works inside. The command
 * is the one the hook hands back, run as Claude Code runs it (`bash -c` in
 * the workspace).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { CLI, cli } from './helpers/cli';
import { bwrapOrSkip } from './helpers/sandbox';
import { tempDir } from './helpers/temp-dir';

const WORKFLOW = {
  id: 'sandboxed-send',
  initial: 'build',
  states: {
    build: { allowed_tools: ['Read', 'Bash'], allowed_commands: ['node'], on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};

function workspace(t: TestContext): string {
  const ws = fs.realpathSync(tempDir('sg-sandbox-send-', t));
  fs.writeFileSync(path.join(ws, 'x.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'x.workflow.json'], { cwd: ws }).code, 0);
  return ws;
}

/** The command Claude Code runs for `command`: the hook's updatedInput. */
function wrapped(ws: string, command: string): string {
  const event = { hook_event_name: 'PreToolUse', session_id: 's', cwd: ws, tool_name: 'Bash', tool_input: { command } };
  const r = cli(['hook', '--client', 'claude'], { cwd: ws, input: JSON.stringify(event) });
  assert.equal(r.code, 0, r.stderr);
  const out = r.json?.hookSpecificOutput;
  assert.notEqual(out?.permissionDecision, 'deny', JSON.stringify(r.json));
  assert.equal(typeof out?.updatedInput?.command, 'string', `a rewritten command: ${JSON.stringify(r.json)}`);
  return out.updatedInput.command as string;
}

const runAsClient = (ws: string, command: string) => spawnSync('bash', ['-c', command], { cwd: ws, encoding: 'utf8', timeout: 60_000 });

test('inside the sandbox `run send` is refused with a clear error (code sandboxed, exit 1), the run unchanged; `run state` works', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t);
  const send = runAsClient(ws, wrapped(ws, `node ${CLI} run send DONE`));
  assert.equal(send.status, 1, send.stderr);
  const answer = JSON.parse(send.stdout) as { error?: { code?: string; message?: string } };
  assert.equal(answer.error?.code, 'sandboxed');
  assert.match(answer.error?.message ?? '', /runs inside stategate's sandbox, where the run's files are read-only; send the event with the `statewright_transition` tool \(MCP \/ VS Code\) instead/);
  assert.doesNotMatch(send.stderr, /EROFS|read-only file system/i, 'no raw file-system error');
  assert.match(send.stderr, /^stategate: `stategate run send` changes the run/);

  const state = runAsClient(ws, wrapped(ws, `node ${CLI} run state`));
  assert.equal(state.status, 0, state.stderr);
  assert.equal(JSON.parse(state.stdout).state, 'build', 'read-only commands work inside, and the refused send changed nothing');
});

test('outside the sandbox the variable is not set and `run send` moves the run', (t) => {
  const ws = workspace(t);
  const r = cli(['run', 'send', 'DONE'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(cli(['run', 'state'], { cwd: ws }).json?.state, 'done');
});

test('STATEGATE_SANDBOXED=1 refuses every run command that changes the run, and none that only reads it', (t) => {
  const ws = workspace(t);
  const env = { STATEGATE_SANDBOXED: '1' };
  for (const args of [['send', 'DONE'], ['approve'], ['stop'], ['learn', 'x'], ['tool', 'Bash', '--input', '{"command":"node -v"}']]) {
    const r = cli(['run', ...args], { cwd: ws, env });
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.json?.error?.code, 'sandboxed', args.join(' '));
  }
  for (const args of [['state'], ['list']]) {
    const r = cli(['run', ...args], { cwd: ws, env });
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  }
  assert.equal(cli(['run', 'state'], { cwd: ws }).json?.state, 'build', 'nothing was changed');
});
