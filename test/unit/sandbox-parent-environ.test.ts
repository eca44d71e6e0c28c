/**
 * Blocked variables read through a parent process's environment (issue 29):
 * the environment rewrite (`env -u SECRET_TOKEN bash -c '<command>'`) keeps a
 * variable out of the command's own environment, but the client that runs it
 * still holds it, and an opaque program can read `/proc/<parent>/environ`
 * (the analysis denies the spellings it can see; `node p.js` it cannot).
 * Inside the sandbox the command has its own PID namespace: no process
 * outside it, the client included, is visible. The hook's rewritten command
 * is run as Claude Code runs it, from a shell that holds the secret.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cli } from './helpers/cli';
import { bwrapOrSkip } from './helpers/sandbox';
import { tempDir } from './helpers/temp-dir';

const WORKFLOW = {
  id: 'secrets',
  initial: 'work',
  states: { work: { allowed_tools: ['Read', 'Bash'], allowed_commands: ['node p.js'], blocked_env: ['SECRET_TOKEN'], on: { DONE: 'done' } }, done: { type: 'final' } },
};

// Every ancestor's environment this process can read, looking for the secret.
const PROBE = `
const fs = require('fs');
const seen = [];
let pid = process.ppid, found = false;
while (pid > 0 && seen.length < 20) {
  seen.push(pid);
  try { if (fs.readFileSync('/proc/' + pid + '/environ', 'latin1').includes('SECRET_TOKEN=')) found = true; } catch {}
  try { pid = Number(fs.readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1].split(' ')[1]); } catch { break; }
}
console.log(JSON.stringify({ found, seen, own: 'SECRET_TOKEN' in process.env }));
`;

test("a blocked variable cannot be read from the client's environment through /proc inside the sandbox", (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = fs.realpathSync(tempDir('sg-parent-env-', t));
  fs.writeFileSync(path.join(ws, 'x.workflow.json'), JSON.stringify(WORKFLOW));
  fs.writeFileSync(path.join(ws, 'p.js'), PROBE);
  assert.equal(cli(['run', 'start', 'x.workflow.json'], { cwd: ws }).code, 0);
  const r = cli(['hook', '--client', 'claude'], { cwd: ws, input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: ws, tool_name: 'Bash', tool_input: { command: 'node p.js' } }) });
  const command = r.json?.hookSpecificOutput?.updatedInput?.command as string;
  assert.equal(typeof command, 'string', r.stdout);
  assert.match(command, /bwrap/);
  // The client: a shell that holds the secret and stays alive while the command runs (`; true`: bash
  // would otherwise exec the last command in its own place).
  const ran = spawnSync('bash', ['-c', `${command}; true`], { cwd: ws, encoding: 'utf8', env: { ...process.env, SECRET_TOKEN: 's3cret' } });
  assert.equal(ran.status, 0, ran.stderr);
  const seen = JSON.parse(ran.stdout.trim()) as { found: boolean; own: boolean; seen: number[] };
  assert.equal(seen.own, false, 'the command itself holds the variable');
  assert.equal(seen.found, false, `an ancestor's environment holds it (pids ${seen.seen.join(', ')})`);
  // Without the sandbox the same probe, run under the environment rewrite alone, finds it in the client.
  const bare = spawnSync('bash', ['-c', "env -u SECRET_TOKEN bash -c 'node p.js'; true"], { cwd: ws, encoding: 'utf8', env: { ...process.env, SECRET_TOKEN: 's3cret' } });
  assert.equal((JSON.parse(bare.stdout.trim()) as { found: boolean }).found, true, 'the probe finds the secret without the sandbox (the test can fail)');
});
