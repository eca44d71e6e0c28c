/**
 * Everyday work passes inside the sandbox (issue 29: a boundary that breaks
 * `npm test` is a bug too). Each row runs for real through the command the
 * hook hands back, as the client runs it (`bash -c` in the workspace): a unit
 * test file of this project, its build (writes dist/ in the workspace), git
 * (status, add, commit), `npm run <script>`, and pytest when python3 has it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { cli, REPO_ROOT } from './helpers/cli';
import { bwrapOrSkip } from './helpers/sandbox';
import { tempDir } from './helpers/temp-dir';

const WORKFLOW = {
  id: 'everyday',
  initial: 'work',
  states: { work: { allowed_tools: ['Read', 'Write', 'Edit', 'Bash'], on: { DONE: 'done' } }, done: { type: 'final' } },
};

function startRun(ws: string): void {
  fs.writeFileSync(path.join(ws, 'x.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'x.workflow.json'], { cwd: ws }).code, 0);
}

/** Run `command` the way Claude Code would after the hook: its updatedInput, with bash -c, in the workspace. */
function runWrapped(ws: string, command: string, timeout = 300_000): { status: number | null; stdout: string; stderr: string } {
  const r = cli(['hook', '--client', 'claude'], { cwd: ws, input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: ws, tool_name: 'Bash', tool_input: { command } }) });
  const wrapped = r.json?.hookSpecificOutput?.updatedInput?.command;
  assert.equal(typeof wrapped, 'string', `the hook wrapped it: ${r.stdout}${r.stderr}`);
  assert.match(wrapped, /bwrap/);
  // NODE_TEST_CONTEXT would make a `node --test` inside report to this test runner instead of printing.
  const { NODE_TEST_CONTEXT: _inner, ...env } = process.env;
  return spawnSync('bash', ['-c', wrapped], { cwd: ws, encoding: 'utf8', timeout, env });
}

/** A workspace that is a copy of this project's sources (node_modules linked): the installed stategate stays outside it. */
function projectCopy(t: TestContext): string {
  const ws = fs.realpathSync(tempDir('sg-everyday-', t));
  for (const entry of ['src', 'scripts', 'schemas', 'webview', 'media', 'test', 'package.json', 'tsconfig.json']) {
    fs.cpSync(path.join(REPO_ROOT, entry), path.join(ws, entry), { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
  }
  const modules = fs.realpathSync(path.join(REPO_ROOT, 'node_modules'));
  const tmp = fs.realpathSync('/tmp');
  if (modules.startsWith(`${tmp}${path.sep}`)) {
    // A checkout under /tmp: the sandbox's /tmp is private, so a link to it would lead nowhere inside.
    // Hard links (the same disk) make the copy a real folder of the workspace in about a second.
    const cp = spawnSync('cp', ['-al', modules, path.join(ws, 'node_modules')], { encoding: 'utf8' });
    assert.equal(cp.status, 0, cp.stderr);
  } else {
    fs.symlinkSync(modules, path.join(ws, 'node_modules'));
  }
  startRun(ws);
  return ws;
}

test('everyday: a unit test file of this project and its build run inside', { timeout: 600_000 }, (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = projectCopy(t);
  const build = runWrapped(ws, 'node scripts/build.mjs');
  assert.equal(build.status, 0, build.stderr);
  assert.ok(fs.existsSync(path.join(ws, 'dist', 'cli.js')), 'the build wrote dist/ in the workspace');
  const unit = runWrapped(ws, 'node --import tsx --import ./test/unit/helpers/state-dir.ts --test test/unit/own-cli.test.ts');
  assert.equal(unit.status, 0, `${unit.stdout.slice(-2000)}${unit.stderr}`);
  assert.match(unit.stdout, /# fail 0/);
});

test('everyday: git status, add and commit', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = fs.realpathSync(tempDir('sg-everyday-git-', t));
  startRun(ws);
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
  const r = runWrapped(ws, 'git init -q && git status --short && git add a.txt && git -c user.name=t -c user.email=t@example.com commit -qm first && git log --oneline | wc -l');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /\?\? a\.txt/);
  assert.equal(r.stdout.trim().split('\n').at(-1), '1');
});

test('everyday: npm run <script>', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = fs.realpathSync(tempDir('sg-everyday-npm-', t));
  startRun(ws);
  fs.writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', scripts: { hello: 'node -e "require(\'fs\').writeFileSync(\'made.txt\', \'ok\')" && echo said-hello' } }));
  const r = runWrapped(ws, 'npm run hello');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /said-hello/);
  assert.equal(fs.readFileSync(path.join(ws, 'made.txt'), 'utf8'), 'ok');
});

test('everyday: pytest', (t) => {
  if (!bwrapOrSkip(t)) return;
  const has = spawnSync('python3', ['-c', 'import pytest'], { encoding: 'utf8' });
  if (has.status !== 0) {
    t.skip('python3 with pytest is not installed here');
    return;
  }
  const ws = fs.realpathSync(tempDir('sg-everyday-py-', t));
  startRun(ws);
  fs.mkdirSync(path.join(ws, 'tests'));
  fs.writeFileSync(path.join(ws, 'tests', 'test_a.py'), 'def test_a():\n    assert 1 + 1 == 2\n');
  fs.writeFileSync(path.join(ws, 'tests', 'test_b.py'), 'def test_b(tmp_path):\n    (tmp_path / "x").write_text("y")\n');
  const r = runWrapped(ws, 'python3 -m pytest -q tests/{test_a,test_b}.py');
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /2 passed/);
});
