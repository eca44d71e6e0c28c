/**
 * The flows in examples/ validate clean and run end to end with the CLI,
 * offline: `claude` is a scripted stand-in on PATH (a fix plan for a prompt,
 * a file written for Claude Code), the issue a file, the project's tests a
 * script that fails until the fix is there, and "push" a command that leaves
 * a mark. And as they are, in a copy of examples/: they run examples/' own
 * tests (its package.json) and push nowhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, CLI, REPO_ROOT } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dir.js';

const EXAMPLES = path.join(REPO_ROOT, 'examples');
const FLOWS = ['fix-failing-tests.flow.yaml', 'pre-push-check.flow.yaml'];

const ISSUE_42 = '{"number":42,"title":"Widget crashes on start","body":"npm test fails since yesterday","labels":[],"state":"OPEN","url":"u","comments":[]}\n';

/** A plain prompt (`claude -p`) answers with a plan; Claude Code (`--permission-mode`) "applies" it by writing fixed.txt. */
const FAKE_CLAUDE = `#!/bin/bash
prompt=$(cat)
if [[ " $* " == *" --permission-mode "* ]]; then
  printf '%s' "$prompt" > "$FAKE_LOG/claude-code.prompt"
  printf '%s\n' "$@" > "$FAKE_LOG/claude-code.args"
  touch fixed.txt
  echo "applied the plan"
else
  printf '%s' "$prompt" > "$FAKE_LOG/claude.prompt"
  printf '## Fix plan\\n1. Create fixed.txt.\\n'
fi
`;

const TESTS = `[ -f fixed.txt ] || { echo "FAIL: widget is broken"; exit 1; }; echo "all tests pass"\n`;

interface Project {
  readonly ws: string;
  readonly log: string;
  readonly env: Record<string, string>;
}

function project(t: { after(fn: () => void): unknown }, flow: string): Project {
  const root = tempDir('sg-example-flow-', t);
  const ws = path.join(root, 'ws');
  const bin = path.join(root, 'bin');
  const log = path.join(root, 'log');
  for (const d of [ws, bin, log]) fs.mkdirSync(d);
  fs.copyFileSync(path.join(EXAMPLES, flow), path.join(ws, flow));
  fs.writeFileSync(path.join(ws, 'test.sh'), TESTS);
  fs.mkdirSync(path.join(ws, 'issues'));
  fs.writeFileSync(path.join(ws, 'issues', '42.json'), ISSUE_42);
  fs.writeFileSync(path.join(bin, 'claude'), FAKE_CLAUDE);
  fs.chmodSync(path.join(bin, 'claude'), 0o755);
  return { ws, log, env: { PATH: `${bin}:${process.env.PATH}`, FAKE_LOG: log, STATEGATE_CLAUDE_BIN: '' } };
}

for (const flow of FLOWS) {
  test(`examples/${flow} validates with no diagnostics`, () => {
    const r = cli(['validate', path.join(EXAMPLES, flow), '--json'], { cwd: REPO_ROOT });
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.json.files[0].format, 'flow');
    assert.deepEqual(r.json.files[0].diagnostics, []);
  });
}

const FIX_VARS = ['--var', 'issue=42', '--var', 'test_command=bash test.sh', '--var', 'push_command=echo pushed > pushed.txt'];

test('fix-failing-tests: issue read, tests fail, a plan in fix-plan.md, "yes" applies it, tests pass, pushed', (t) => {
  const p = project(t, 'fix-failing-tests.flow.yaml');
  const r = cli(['flow', 'run', 'fix-failing-tests.flow.yaml', ...FIX_VARS, '--answers', '{"confirm": "yes"}'], { cwd: p.ws, env: p.env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.status, 'completed');
  assert.equal(r.json.state, 'push');
  assert.equal(JSON.parse(r.json.variables.issue_json).title, 'Widget crashes on start');
  assert.match(r.json.variables.test_output, /FAIL: widget is broken/);
  assert.equal(fs.readFileSync(path.join(p.ws, 'fix-plan.md'), 'utf8'), '## Fix plan\n1. Create fixed.txt.\n');
  const planPrompt = fs.readFileSync(path.join(p.log, 'claude.prompt'), 'utf8');
  assert.match(planPrompt, /Widget crashes on start/);
  assert.match(planPrompt, /FAIL: widget is broken/);
  assert.match(fs.readFileSync(path.join(p.log, 'claude-code.prompt'), 'utf8'), /fix plan in fix-plan\.md .* issue 42/);
  // Claude Code ran under this CLI's own hook (the workspace has none installed).
  const ccArgs = fs.readFileSync(path.join(p.log, 'claude-code.args'), 'utf8').split('\n');
  const settings = JSON.parse(ccArgs[ccArgs.indexOf('--settings') + 1]!);
  assert.equal(settings.hooks.PreToolUse[0].hooks[0].command, `'${process.execPath}' '${CLI}' hook --client claude`);
  assert.equal(fs.readFileSync(path.join(p.ws, 'pushed.txt'), 'utf8'), 'pushed\n');
  assert.match(r.stderr, /▶ plan-fix \(claude\)[\s\S]*▶ apply-fix \(claude-code\)[\s\S]*✓ retest/);
});

test('fix-failing-tests: "no" leaves the plan and pushes nothing; passing tests end at all-green', (t) => {
  const p = project(t, 'fix-failing-tests.flow.yaml');
  const no = cli(['flow', 'run', 'fix-failing-tests.flow.yaml', ...FIX_VARS, '--answers', '{"confirm": "no"}'], { cwd: p.ws, env: p.env });
  assert.equal(no.code, 0, no.stderr);
  assert.equal(no.json.state, 'not-applied');
  assert.ok(fs.existsSync(path.join(p.ws, 'fix-plan.md')));
  assert.equal(fs.existsSync(path.join(p.ws, 'pushed.txt')), false);
  fs.writeFileSync(path.join(p.ws, 'fixed.txt'), '');
  const green = cli(['flow', 'run', 'fix-failing-tests.flow.yaml', ...FIX_VARS], { cwd: p.ws, env: p.env });
  assert.equal(green.code, 0, green.stderr);
  assert.equal(green.json.state, 'all-green');
  assert.match(green.stderr, /The tests pass; nothing to fix for issue 42/);
});

const PRE_PUSH_VARS = ['--var', 'lint_command=echo lint clean', '--var', 'typecheck_command=echo types ok', '--var', 'test_command=bash test.sh', '--var', 'push_command=echo pushed > pushed.txt'];

test('pre-push-check: a failing check is explained in preflight-report.md and the flow fails', (t) => {
  const p = project(t, 'pre-push-check.flow.yaml');
  const r = cli(['flow', 'run', 'pre-push-check.flow.yaml', ...PRE_PUSH_VARS], { cwd: p.ws, env: p.env });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.json.status, 'failed');
  assert.equal(r.json.state, 'failed');
  assert.match(fs.readFileSync(path.join(p.ws, 'preflight-report.md'), 'utf8'), /Fix plan/);
  const prompt = fs.readFileSync(path.join(p.log, 'claude.prompt'), 'utf8');
  assert.match(prompt, /Lint:\nlint clean\n[\s\S]*Type check:\ntypes ok\n[\s\S]*Tests:\nFAIL: widget is broken/);
  assert.equal(fs.existsSync(path.join(p.ws, 'pushed.txt')), false);
});

test('pre-push-check: all checks pass, the flow pauses for review, and resuming pushes', (t) => {
  const p = project(t, 'pre-push-check.flow.yaml');
  fs.writeFileSync(path.join(p.ws, 'fixed.txt'), '');
  const paused = cli(['flow', 'run', 'pre-push-check.flow.yaml', '--name', 'pre-push', ...PRE_PUSH_VARS], { cwd: p.ws, env: p.env });
  assert.equal(paused.code, 0, paused.stderr);
  assert.equal(paused.json.status, 'paused');
  assert.equal(paused.json.state, 'review');
  assert.equal(fs.existsSync(path.join(p.ws, 'pushed.txt')), false);
  const resumed = cli(['flow', 'resume', 'pre-push'], { cwd: p.ws, env: p.env });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.json.status, 'completed');
  assert.equal(fs.readFileSync(path.join(p.ws, 'pushed.txt'), 'utf8'), 'pushed\n');
});

/** A copy of examples/ as it is (its package.json, greet.js, its test, issues/), with no git remote and nothing on PATH faked. */
function examplesCopy(t: { after(fn: () => void): unknown }): string {
  const ws = path.join(tempDir('sg-examples-as-is-', t), 'examples');
  fs.cpSync(EXAMPLES, ws, { recursive: true, filter: (f) => !f.includes(`${path.sep}.stategate`) });
  return ws;
}

const NOT_PUSHED = /Not pushed - an example pushes nowhere/;

/** The CLI as a person runs it: without this test runner's NODE_TEST_CONTEXT, which makes the example's own `node --test` skip its files. */
function asPerson(args: readonly string[], cwd: string): ReturnType<typeof cli> {
  const context = process.env.NODE_TEST_CONTEXT;
  delete process.env.NODE_TEST_CONTEXT;
  try {
    return cli(args, { cwd });
  } finally {
    if (context !== undefined) process.env.NODE_TEST_CONTEXT = context;
  }
}

test('fix-failing-tests as it is, in examples/: reads issues/1.json, runs examples/\' own test, ends green', (t) => {
  const ws = examplesCopy(t);
  const r = asPerson(['flow', 'run', 'fix-failing-tests.flow.yaml'], ws);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.status, 'completed');
  assert.equal(r.json.state, 'all-green');
  assert.equal(JSON.parse(r.json.variables.issue_json).number, 1);
  assert.match(r.json.variables.test_output, /> stategate-examples@0\.0\.0 test[\s\S]*ok 1 - greet names the person/);
});

test('pre-push-check as it is, in examples/: its lint, typecheck and test pass, and the push step pushes nothing', (t) => {
  const ws = examplesCopy(t);
  const paused = asPerson(['flow', 'run', 'pre-push-check.flow.yaml', '--name', 'pre-push'], ws);
  assert.equal(paused.code, 0, paused.stderr);
  assert.equal(paused.json.state, 'review');
  assert.match(paused.json.variables.test_output, /greet names the person/);
  const resumed = asPerson(['flow', 'resume', 'pre-push'], ws);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.json.status, 'completed');
  assert.match(resumed.stderr, NOT_PUSHED);
});

test('no example flow runs git push, gh, or a command that leaves examples/', () => {
  for (const flow of FLOWS) {
    const text = fs.readFileSync(path.join(EXAMPLES, flow), 'utf8').split('\n').filter((l) => !l.trimStart().startsWith('#')).join('\n');
    assert.doesNotMatch(text, /git push(?! *\.")|\bgh\b|get-gh-issue|curl|wget|\.\.\/|npx /, flow);
  }
});
