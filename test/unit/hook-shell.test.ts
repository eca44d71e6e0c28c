/**
 * Issue 12, part 4, through `stategate hook` for both clients: an argument
 * that turns an allowed command into any command is denied, and the agent
 * cannot run stategate's own CLI to approve, stop or disable its gate, even in
 * a state with no shell rules.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const WORKFLOW = {
  id: 'shell-gate',
  initial: 'free',
  meta: { debug: true },
  states: {
    free: { allowed_tools: ['Read', 'Bash', 'run_in_terminal'], on: { TEST: 'testing', REVIEW: 'review' } },
    testing: { allowed_tools: ['Read', 'Bash', 'run_in_terminal'], allowed_commands: ['npm test', 'pytest', 'cargo test', 'npx', 'node'], on: { DONE: 'done' } },
    review: { allowed_tools: ['Read', 'Bash', 'run_in_terminal'], on: { DONE: { target: 'done', requires_approval: true } } },
    done: { type: 'final' },
  },
};

const made: string[] = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function workspace(state: string): string {
  const cwd = tempDir('sg-hook-shell-');
  made.push(cwd);
  fs.writeFileSync(path.join(cwd, 'gate.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'gate.workflow.json'], { cwd }).code, 0);
  if (state !== WORKFLOW.initial) assert.equal(cli(['run', 'force', state], { cwd }).code, 0);
  return cwd;
}

const SHELL = {
  vscode: (cwd: string, command: string) => ({ hookEventName: 'PreToolUse', sessionId: 'vs-1', cwd, tool_name: 'run_in_terminal', tool_input: { command, explanation: 'x', isBackground: false } }),
  claude: (cwd: string, command: string) => ({ hook_event_name: 'PreToolUse', session_id: 'cc-1', cwd, tool_name: 'Bash', tool_input: { command } }),
};

/** The hook's decision: 'deny' with its reason, or allowed (the hook then leaves the client's own permissions alone). */
function shell(client: keyof typeof SHELL, cwd: string, command: string): { denied: boolean; reason: string } {
  const r = cli(['hook'], { cwd, input: JSON.stringify(SHELL[client](cwd, command)) });
  assert.equal(r.code, 0, r.stderr);
  const out = r.json?.hookSpecificOutput;
  return { denied: out?.permissionDecision === 'deny', reason: String(out?.permissionDecisionReason ?? '') };
}

for (const client of ['vscode', 'claude'] as const) {
  test(`${client}: arguments that make an allowed command run other code are denied, with the flag and the way to allow it`, () => {
    const cwd = workspace('testing');
    for (const [command, reason] of [
      ['npm test --script-shell=/tmp/evil.sh', /npm --script-shell: runs every package script.*"npm test --script-shell=\/tmp\/evil\.sh"/],
      ['cargo test --config build.rustc-wrapper=./evil', /cargo --config/],
      ['pytest -p evil_plugin', /pytest -p: imports the module/],
      ['PYTEST_ADDOPTS="-p evil" pytest', /sets PYTEST_ADDOPTS/],
      ['npx jest --config ./evil.config.js', /jest --config/],
      ["node -e 'require(\"fs\")'", /node -e: runs the JavaScript/],
    ] as const) {
      const v = shell(client, cwd, command);
      assert.ok(v.denied, `${command} was allowed`);
      assert.match(v.reason, reason);
    }
    for (const command of ['npm test -- -w', 'pytest -k name', 'cargo test --release', 'node --test']) assert.equal(shell(client, cwd, command).denied, false, command);
  });

  test(`${client}: the agent cannot run stategate's own CLI to approve, stop or disable, even in a state with no shell rules`, () => {
    const cwd = workspace('free');
    for (const command of ['stategate run approve', 'npx stategate run stop', `node ${path.join('node_modules', 'stategate', 'dist', 'cli.js')} disable`, 'cd . && stategate run force done']) {
      const v = shell(client, cwd, command);
      assert.ok(v.denied, `${command} was allowed`);
      // approve / disable are never the agent's; stop / force are a person's act unless meta.agent_may grants them.
      assert.match(v.reason, /is a person's (command, not the agent's|act here: .*How: a person)/);
    }
    for (const command of ['stategate run state', 'stategate run send TEST', 'npm test --script-shell=bash', 'ls -la']) assert.equal(shell(client, cwd, command).denied, false, command);
  });

  test(`${client}: an approval parked for a person stays parked when the agent asks its shell to approve it`, () => {
    const cwd = workspace('review');
    assert.equal(cli(['run', 'send', 'DONE'], { cwd }).json?.pending_approval?.target, 'done');
    assert.ok(shell(client, cwd, 'stategate run approve').denied);
    assert.equal(cli(['run', 'state'], { cwd }).json?.state, 'review');
  });
}
