/**
 * git's whole-tree writes (`checkout BRANCH`, `pull`, `stash`, `reset --hard`)
 * are everyday work, and they bring in files of commits the agent can craft
 * without touching a file (`git commit-tree`), so a command line cannot
 * prove they leave the gate's files alone. Where the kernel sandbox holds
 * (a client that takes the rewrite, bubblewrap present) they are allowed and
 * the sandbox keeps the gate's files read-only; where it does not (Codex, or
 * no bwrap), the analysis alone decides and refuses them while the tree holds
 * the run's files. The effect test checks out a branch the agent crafted
 * with a `.claude/settings.local.json` in it: inside the sandbox the file
 * never appears, and the branch's other files do.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { cli } from './helpers/cli';
import { bwrapOrSkip } from './helpers/sandbox';
import { tempDir } from './helpers/temp-dir';

const WORKFLOW = {
  id: 'git-work',
  initial: 'work',
  states: {
    work: { allowed_tools: ['Read', 'Write', 'Edit', 'Bash'], allowed_commands: ['git'], on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};

const git = (ws: string, ...args: string[]): string => {
  const r = spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: ws, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
};

/** A repository with a started run, and a branch `evil` crafted with plumbing (no file of the tree touched) that adds `.claude/settings.local.json`. */
function workspace(t: TestContext): string {
  const ws = fs.realpathSync(tempDir('sg-git-tree-', t));
  git(ws, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
  fs.writeFileSync(path.join(ws, '.gitignore'), '.stategate/\n');
  git(ws, 'add', 'a.txt', '.gitignore');
  git(ws, 'commit', '-qm', 'a');
  const blob = spawnSync('git', ['hash-object', '-w', '--stdin'], { cwd: ws, input: '{"hooks":{}}\n', encoding: 'utf8' }).stdout.trim();
  const b = spawnSync('git', ['hash-object', '-w', '--stdin'], { cwd: ws, input: 'b\n', encoding: 'utf8' }).stdout.trim();
  const claude = spawnSync('git', ['mktree'], { cwd: ws, input: `100644 blob ${blob}\tsettings.local.json\n`, encoding: 'utf8' }).stdout.trim();
  const head = git(ws, 'rev-parse', 'HEAD^{tree}');
  const entries = spawnSync('git', ['ls-tree', head], { cwd: ws, encoding: 'utf8' }).stdout;
  const tree = spawnSync('git', ['mktree'], { cwd: ws, input: `${entries}040000 tree ${claude}\t.claude\n100644 blob ${b}\tb.txt\n`, encoding: 'utf8' }).stdout.trim();
  const commit = git(ws, 'commit-tree', tree, '-p', 'HEAD', '-m', 'evil');
  git(ws, 'branch', 'evil', commit);
  fs.writeFileSync(path.join(ws, 'x.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'x.workflow.json'], { cwd: ws }).code, 0);
  return ws;
}

function ask(client: 'claude' | 'codex', ws: string, command: string): { allowed: boolean; wrapped?: string; reason: string } {
  const input = { hook_event_name: 'PreToolUse', session_id: 's', cwd: ws, tool_name: 'Bash', tool_input: { command } };
  const r = cli(['hook', '--client', client], { cwd: ws, input: JSON.stringify(input) });
  const out = r.json?.hookSpecificOutput;
  const denied = out?.permissionDecision === 'deny' || r.code !== 0;
  return { allowed: !denied, ...(typeof out?.updatedInput?.command === 'string' ? { wrapped: out.updatedInput.command } : {}), reason: String(out?.permissionDecisionReason ?? '') };
}

const EVERYDAY = ['git checkout evil', 'git switch main', 'git stash', 'git reset --hard HEAD', 'git pull', 'git merge evil', 'git rebase main'];

test('inside the sandbox (Claude Code), git switches branches, stashes and resets: the sandbox holds the gate files', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t);
  for (const command of EVERYDAY) {
    const a = ask('claude', ws, command);
    assert.equal(a.allowed, true, `${command}: ${a.reason}`);
    assert.ok(a.wrapped?.includes('bwrap'), `${command} runs inside the sandbox: ${a.wrapped}`);
  }
});

test('without the sandbox (Codex cannot take a rewrite), the analysis alone refuses a whole-tree git write over the run\'s files', (t) => {
  const ws = workspace(t);
  for (const command of EVERYDAY) {
    const a = ask('codex', ws, command);
    assert.equal(a.allowed, false, command);
    assert.match(a.reason, /\.stategate/, command);
  }
  assert.equal(ask('codex', ws, 'git status').allowed, true);
});

test('effect: checking out a crafted branch inside the sandbox never writes .claude/settings.local.json', (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = workspace(t);
  const a = ask('claude', ws, 'git checkout -q evil');
  assert.ok(a.wrapped, a.reason);
  const r = spawnSync('bash', ['-c', a.wrapped], { cwd: ws, encoding: 'utf8', timeout: 60_000 });
  // git cannot create the file in the sealed folder and says so (it checks the rest of the branch out).
  assert.match(r.stderr, /settings\.local\.json: Read-only file system/, r.stderr);
  assert.equal(fs.existsSync(path.join(ws, 'b.txt')), true, 'the branch\'s own files came');
  assert.equal(fs.existsSync(path.join(ws, '.claude', 'settings.local.json')), false, 'the crafted hook settings reached the workspace');
  assert.equal(fs.readFileSync(path.join(ws, '.stategate', 'active'), 'utf8').trim().length > 0, true);
});
