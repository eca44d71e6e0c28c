/**
 * Issue 30, part 7, through the process: a handful of everyday rows
 * (test/fixtures/shell/everyday.txt) pass `stategate hook` with Claude Code's
 * input, and the ways the new rules keep closed are still denied there, with
 * the reason naming how.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const WORKFLOW = {
  id: 'everyday-gate',
  initial: 'testing',
  states: {
    testing: {
      allowed_tools: ['Read', 'Write', 'Edit', 'Bash'],
      allowed_commands: ['pytest', 'npm test', 'cargo test', 'git log', 'git add', 'ruff check', 'tee'],
      on: { DONE: 'done' },
    },
    done: { type: 'final' },
  },
};

const made: string[] = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function workspace(): string {
  const cwd = tempDir('sg-hook-everyday-');
  made.push(cwd);
  fs.writeFileSync(path.join(cwd, 'gate.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'gate.workflow.json'], { cwd }).code, 0);
  return cwd;
}

function hook(cwd: string, command: string): { denied: boolean; reason: string } {
  const input = { hook_event_name: 'PreToolUse', session_id: 'cc-1', cwd, tool_name: 'Bash', tool_input: { command } };
  const r = cli(['hook'], { cwd, input: JSON.stringify(input) });
  assert.equal(r.code, 0, r.stderr);
  const out = r.json?.hookSpecificOutput;
  return { denied: out?.permissionDecision === 'deny', reason: String(out?.permissionDecisionReason ?? '') };
}

test('claude: everyday commands with braces, the user\'s variables and harmless assignments pass the hook', () => {
  const cwd = workspace();
  for (const command of [
    'pytest tests/{a,b}.py',
    'pytest {tests,integration}/ -q',
    'pytest $HOME/project/tests',
    'pytest "$PWD/tests" 2>&1 | tee pytest.log',
    'PYTHONPATH=src pytest tests',
    'CI=1 NODE_ENV=test npm test -- --coverage',
    'CARGO_TERM_COLOR=always RUSTFLAGS="-D warnings" cargo test',
    'GIT_PAGER=cat git log --oneline -5',
    'ruff check {src,tests}',
  ]) {
    const v = hook(cwd, command);
    assert.equal(v.denied, false, `${command}: ${v.reason}`);
  }
});

test('claude: what the agent could choose through braces, variables or assignments is still denied by the hook', () => {
  const cwd = workspace();
  for (const [command, reason] of [
    ['pytest {-p,evil}', /`pytest -p evil` can run other code.*pytest -p/],
    ['pytest $PWD/tests', /is not quoted, so it splits/],
    ['PYTHONPATH=/tmp/evil pytest', /sets PYTHONPATH/],
    ['LD_PRELOAD=./evil.so pytest', /sets LD_PRELOAD/],
    ['GIT_PAGER=./evil git log', /sets GIT_PAGER/],
  ] as const) {
    const v = hook(cwd, command);
    assert.ok(v.denied, `${command} was allowed`);
    assert.match(v.reason, reason);
  }
});
