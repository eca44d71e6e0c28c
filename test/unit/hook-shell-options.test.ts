/**
 * Issue 29, Deliver 2 and 3, through `stategate hook` (Claude Code and VS Code
 * input) and `stategate run tool Bash`: options read as the programs read
 * them, commands that run code through an option or their program text, and
 * output flags that write a gate file. Everyday commands still pass.
 *
 * The table goes through the hook's decision in this process
 * (helpers/hook-in-process.ts: each client's input as the hook reads it, the
 * hook's Runner); one attack and one everyday command per client go through
 * the hook process, for the answer each client reads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from './helpers/cli';
import { cliInProcess } from './helpers/cli-in-process';
import { hookDecision } from './helpers/hook-in-process';
import { tempDir } from './helpers/temp-dir';

const ALLOWED = ['pytest', 'sort', 'awk', 'node --test*', 'git status', 'git stash', 'tar', 'env'];

const WORKFLOW = {
  id: 'shell-options',
  initial: 'gated',
  meta: { debug: true },
  states: {
    gated: { allowed_tools: ['Read', 'Write', 'Edit', 'Bash', 'run_in_terminal'], allowed_commands: ALLOWED, on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};

function workspace(t: { after: (f: () => void) => void }): { cwd: string; env: Record<string, string> } {
  const base = fs.realpathSync(tempDir('sg-hook-shell-options-'));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const cwd = path.join(base, 'ws');
  const home = path.join(base, 'home');
  fs.mkdirSync(cwd);
  fs.mkdirSync(home);
  const env = { HOME: home, USERPROFILE: home, XDG_STATE_HOME: '', XDG_CONFIG_HOME: '', STATEGATE_STATE_DIR: '' };
  fs.writeFileSync(path.join(cwd, 'w.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'w.workflow.json'], { cwd, env }).code, 0);
  return { cwd, env };
}

const SHELL = {
  vscode: (cwd: string, command: string) => ({ hookEventName: 'PreToolUse', sessionId: 'vs-1', cwd, tool_name: 'run_in_terminal', tool_input: { command, explanation: 'x', isBackground: false } }),
  claude: (cwd: string, command: string) => ({ hook_event_name: 'PreToolUse', session_id: 'cc-1', cwd, tool_name: 'Bash', tool_input: { command } }),
};

function hook(client: keyof typeof SHELL, w: { cwd: string; env: Record<string, string> }, command: string): { denied: boolean; reason: string } {
  const r = cli(['hook', '--client', client], { cwd: w.cwd, input: JSON.stringify(SHELL[client](w.cwd, command)), env: w.env });
  assert.equal(r.code, 0, r.stderr);
  const out = r.json?.hookSpecificOutput;
  return { denied: out?.permissionDecision === 'deny', reason: String(out?.permissionDecisionReason ?? '') };
}

const GATE = /installs or switches on the agent gate/;

const attacks: Array<[string, RegExp]> = [
  ['env --s=\'sh -c "stategate run approve"\' pytest', /env with `--s=.*runs something that cannot be analysed/],
  ["awk 'BEGIN{system(\"stategate run approve\")}'", /awk the program: runs commands/],
  ['sort --compress-program=./evil f', /sort --compress-program: sort runs the program it names/],
  ['pytest --pdb', /pytest --pdb: stops in the Python debugger/],
  ['tar --to-command=./evil -xf a.tar', /tar --to-command/],
  ['pytest --junitxml=.claude/settings.json', GATE],
  ['node --test --test-reporter-destination=.claude/settings.json', GATE],
  ['sort --outp=.claude/settings.json f', GATE],
];
// git's whole-tree writes are left to the sandbox where it holds (git-tree-sandbox.test.ts covers both sides).


const everyday = ['pytest tests/{a,b}.py', 'pytest -k foo -x', 'pytest --junitxml=report.xml', 'sort -u f', "awk '{print $1}' f", 'node --test test/', 'git status', 'env FOO=1 pytest', 'tar czf out.tgz src', ...(fs.existsSync('/usr/bin/bwrap') ? ['git stash'] : [])];

/** A workspace with the run started, for the in-process decision (the test's own state directory). */
async function startedHere(t: { after: (f: () => void) => void }): Promise<string> {
  const cwd = fs.realpathSync(tempDir('sg-hook-shell-options-', t));
  fs.writeFileSync(path.join(cwd, 'w.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal((await cliInProcess(['run', 'start', 'w.workflow.json'], { cwd })).code, 0);
  return cwd;
}

for (const client of ['claude', 'vscode'] as const) {
  test(`${client}: hidden options, code-running commands and output flags are denied with the reason; everyday commands pass`, async (t) => {
    const cwd = await startedHere(t);
    for (const [command, why] of attacks) {
      const v = await hookDecision(client, cwd, SHELL[client](cwd, command));
      assert.ok(v.denied, `${command} was allowed`);
      assert.match(v.reason, why, command);
    }
    for (const command of everyday) {
      const v = await hookDecision(client, cwd, SHELL[client](cwd, command));
      assert.equal(v.denied, false, `${command}: ${v.reason}`);
    }
  });

  test(`${client}: the hook process answers a code-running option with the client's deny and passes an everyday command`, (t) => {
    const w = workspace(t);
    const [command, why] = attacks[1]!;
    const v = hook(client, w, command);
    assert.ok(v.denied, `${command} was allowed`);
    assert.match(v.reason, why, command);
    const everydayCall = hook(client, w, everyday[0]!);
    assert.equal(everydayCall.denied, false, everydayCall.reason);
  });
}

test('stategate run tool Bash decides the same way', async (t) => {
  const cwd = await startedHere(t);
  const tool = async (command: string) => (await cliInProcess(['run', 'tool', 'Bash', '--input', JSON.stringify({ command })], { cwd })).json;
  const split = await tool("env --s='sh -c whoami' pytest");
  assert.equal(split?.decision, 'deny');
  assert.match(split?.reason, /env with `--s=/);
  const report = await tool('pytest --junitxml=.claude/settings.json');
  assert.equal(report?.decision, 'deny');
  assert.match(report?.reason, GATE);
  assert.equal((await tool('pytest tests/{a,b}.py'))?.decision, 'allow');
});
