/**
 * What a client reports after a sandboxed call is the command it ran (Claude
 * Code's PostToolUse carries the hook's rewrite: `bwrap ... -- /bin/bash -c
 * '<command>'`). Evidence, written files and interrupts are about the agent's
 * command, so the Runner takes the command back out of the wrap, but only a
 * wrap it would have made itself for the state: a command shaped like one by
 * hand (a bind of the agent's own over `node`) is never credited to the
 * command inside it. Without the unwrap a guard on
 * `evidence.commands["node t.js"]` never passed under Claude Code.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { cli } from './helpers/cli';
import { bwrapOrSkip } from './helpers/sandbox';
import { tempDir } from './helpers/temp-dir';
import { envRewrittenCommand, quotedWords, sandboxedCommand } from '../../src/engine/sandbox/unwrap';

const WORKFLOW = {
  id: 'verified-node',
  initial: 'testing',
  states: {
    testing: { allowed_tools: ['Read', 'Write', 'Bash'], allowed_commands: ['node t.js'], blocked_env: ['SECRET_TOKEN'], on: { SHIP: { target: 'done', guards: ['passed'] } } },
    done: { type: 'final' },
  },
  guards: { passed: { field: 'evidence.commands["node t.js"].exit_code', op: 'eq', value: 0 } },
};

function workspace(t: TestContext): string {
  const ws = fs.realpathSync(tempDir('sg-unwrap-', t));
  fs.writeFileSync(path.join(ws, 'x.workflow.json'), JSON.stringify(WORKFLOW));
  fs.writeFileSync(path.join(ws, 't.js'), 'process.exit(0)\n');
  assert.equal(cli(['run', 'start', 'x.workflow.json'], { cwd: ws }).code, 0);
  return ws;
}

const event = (ws: string, name: string, command: string): string => JSON.stringify({ hook_event_name: name, session_id: 's', cwd: ws, tool_name: 'Bash', tool_use_id: `t-${name}-${command.length}`, tool_input: { command }, ...(name === 'PostToolUse' ? { tool_response: { stdout: '', stderr: '', interrupted: false } } : {}) });

test('a sandboxed command reported back wrapped counts as the agent\'s command for a guard on its evidence', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t);
  const pre = cli(['hook', '--client', 'claude'], { cwd: ws, input: event(ws, 'PreToolUse', 'node t.js') });
  const wrapped = pre.json?.hookSpecificOutput?.updatedInput?.command as string;
  assert.equal(typeof wrapped, 'string', pre.stdout);
  assert.equal(spawnSync('bash', ['-c', wrapped], { cwd: ws }).status, 0);
  assert.equal(cli(['run', 'send', 'SHIP'], { cwd: ws }).code, 1, 'nothing observed yet');
  assert.equal(cli(['hook', '--client', 'claude'], { cwd: ws, input: event(ws, 'PostToolUse', wrapped) }).code, 0);
  const sent = cli(['run', 'send', 'SHIP'], { cwd: ws });
  assert.equal(sent.code, 0, sent.stdout + sent.stderr);
});

test('a command shaped like a wrap by hand is not credited to the command inside it', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t);
  const pre = cli(['hook', '--client', 'claude'], { cwd: ws, input: event(ws, 'PreToolUse', 'node t.js') });
  const wrapped = pre.json?.hookSpecificOutput?.updatedInput?.command as string;
  // The same wrap with a bind of the agent's own in front of its last words.
  const forged = wrapped.replace(" '--' '/bin/bash'", " '--bind' '/bin/true' '/usr/bin/node' '--' '/bin/bash'");
  assert.notEqual(forged, wrapped);
  assert.equal(sandboxedCommand(forged)?.startsWith('env '), true, 'the forged line still parses as a wrap');
  assert.equal(cli(['hook', '--client', 'claude'], { cwd: ws, input: event(ws, 'PostToolUse', forged) }).code, 0);
  assert.equal(cli(['run', 'send', 'SHIP'], { cwd: ws }).code, 1, 'the forged wrap passed the guard');
});

test('quotedWords / sandboxedCommand / envRewrittenCommand read only lines of plain and single-quoted words', () => {
  assert.deepEqual(quotedWords(`'a b' c 'it'\\''s' K='v w'`), ['a b', 'c', "it's", 'K=v w']);
  for (const line of ['a; b', 'a $(b)', "'open", 'a "b"', 'a|b', 'a > f']) assert.equal(quotedWords(line), undefined, line);
  assert.equal(sandboxedCommand(`'/usr/bin/bwrap' '--ro-bind' '/' '/' '--' '/bin/bash' '-c' 'npm test'`), 'npm test');
  assert.equal(sandboxedCommand(`'/usr/bin/sudo' '--' '/bin/bash' '-c' 'npm test'`), undefined);
  assert.equal(envRewrittenCommand(`env -u SECRET K='1' bash -c 'npm test'`), 'npm test');
  assert.equal(envRewrittenCommand(`nice bash -c 'npm test'`), undefined);
});
