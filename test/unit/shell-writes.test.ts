/**
 * What the shell analysis reports a command writes and where it changes
 * folder (shell.ts + shell-write-targets.ts), and how those become paths
 * (shell-write-paths.ts). The policy checks them: hook-writes.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseCommand, type ShellRules } from '../../src/engine/shell/analyse';
import { startFolders } from '../../src/engine/shell/write-paths';
import type { DirChange } from '../../src/engine/shell/write-targets';

const FREE: ShellRules = { blockedEnv: [], writeAllowed: true };
const STRICT: ShellRules = { allowedCommands: ['cp', 'mv', 'rm', 'echo', 'cd', 'tar', 'find', 'xargs', 'sed', 'tee', 'curl', 'mktemp', 'ln', 'touch', 'env'], blockedEnv: [], writeAllowed: true };

/** `value` for a known target, `?text` for a run-time one, `/**` after a tree. */
async function writes(command: string, rules: ShellRules = FREE): Promise<string[]> {
  const v = await analyseCommand(command, rules);
  return (v.writes ?? []).map((w) => `${w.word.dynamic ? `?${w.word.text}` : w.word.value}${w.tree ? '/**' : ''}${w.unlessFolder ? ' (unless a folder)' : ''}${w.inTmp ? ' (in tmp)' : ''}`);
}

const rows: Array<[string, string[]]> = [
  ['echo x > .claude/settings.json', ['.claude/settings.json']],
  ['echo x >> a 2>&1 > /dev/null', ['a']],
  ['cp forged.json .stategate/runs/r/run.json', ['.stategate/runs/r/run.json (unless a folder)', '.stategate/runs/r/run.json/forged.json']],
  ['cp ~/template.txt src/', ['src/ (unless a folder)', 'src//template.txt']],
  ['cp -r evil/.stategate .', ['./** (unless a folder)', './.stategate/**']],
  ['cp -t dest a b', ['dest/a', 'dest/b']],
  ['mv .github/hooks/x.json /tmp/', ['/tmp//** (unless a folder)', '/tmp//x.json/**', '.github/hooks/x.json/**']],
  ['rm -rf .stategate build', ['.stategate/**', 'build/**']],
  ['rm -f -- -weird', ['-weird']],
  ['touch -d yesterday a.code-workspace', ['a.code-workspace']],
  ['tar xzf a.tgz', ['./**']],
  ['tar -C out -xf a.tar', ['out/**']],
  ['tar czf backup.tgz src', ['backup.tgz']],
  ['find . -name "*.pyc" -delete', ['./**']],
  ['sed -i s/a/b/ .vscode/settings.json', ['.vscode/settings.json']],
  ['sed -n "w .claude/settings.json" notes.txt', ['.claude/settings.json']],
  ['sed -i -e s/a/b/ -e s/c/d/ f g', ['f', 'g']],
  ['echo x | tee -a log.txt /dev/stderr', ['log.txt']],
  ['curl -sSLo out.bin http://localhost/x', ['out.bin']],
  ['curl -O http://localhost/files/settings.json', ['./settings.json']],
  ['mktemp', ['tmp.XXXXXXXXXX (in tmp)']],
  ['ln -sf /tmp/evil .stategate/active', ['.stategate/active (unless a folder)', '.stategate/active/evil']],
  ['echo x > "$F"', ['?"$F"']],
  ['echo x > ~/.bashrc', ['?~/.bashrc']],
  ['find . -name x | xargs rm', ['?(a path only known when it runs)/**']],
  ['find . -exec rm {} +', ['?{}']],
  ['cat a > /dev/null; echo ok', []],
  ['git status', []],
];
for (const [command, want] of rows) {
  test(`writes of ${JSON.stringify(command)}`, async () => assert.deepEqual(await writes(command), want));
}

test('a free state: what cannot be analysed is skipped, the writes around it are still seen', async () => {
  const v = await analyseCommand('$CMD x; echo $((n+1)) > .claude/settings.json; eval "$X"; rm -rf .github', FREE);
  assert.equal(v.ok, true);
  assert.deepEqual(await writes('$CMD x; echo $((n+1)) > .claude/settings.json; eval "$X"; rm -rf .github'), ['.claude/settings.json', '.github/**']);
  // Unparsable text passes in a free state (there is nothing to see).
  assert.equal((await analyseCommand('echo (', FREE)).ok, true);
});

test('restricted commands: the walk still stops at the first problem, and reports the writes before it', async () => {
  const v = await analyseCommand('echo x > .claude/settings.json; $CMD', STRICT);
  assert.equal(v.ok, false);
  assert.deepEqual(v.writes?.map((w) => w.word.value), ['.claude/settings.json']);
});

const dirsOf = async (command: string, rules = STRICT): Promise<readonly DirChange[]> => (await analyseCommand(command, rules)).dirs ?? [];

test('directory changes: literal ones are followed, repeated or run-time ones are not', async () => {
  assert.deepEqual((await dirsOf('cd .claude && echo {} > settings.json')).map((d) => ('to' in d ? d.to.value : '?')), ['.claude']);
  assert.deepEqual((await dirsOf('env -C sub touch x')).map((d) => ('to' in d ? d.to.value : '?')), ['sub']);
  assert.deepEqual(await dirsOf('for d in a b; do cd $d; done', FREE), [{ unknown: true }]);
  assert.deepEqual(await dirsOf('f() { cd ..; }; f; f', FREE), [{ unknown: true }]);
  assert.deepEqual(await dirsOf('while true; do cd ..; done', FREE), [{ unknown: true }]);
});

test('startFolders: every folder a cd may lead to, or undefined where stategate cannot follow', () => {
  const to = (value: string, dynamic = false): DirChange => ({ to: { value, dynamic, text: value } });
  assert.deepEqual(startFolders('/ws', [], '/home/me', false), ['/ws']);
  assert.deepEqual(startFolders('/ws', [to('.claude')], '/home/me', false), ['/ws', '/ws/.claude']);
  assert.deepEqual(startFolders('/ws', [to('a'), to('..')], '/home/me', false), ['/ws', '/ws/a', '/']);
  assert.deepEqual(startFolders('/ws', [to('~', true)], '/home/me', false), ['/ws', '/home/me']);
  assert.equal(startFolders('/ws', [to('$D', true)], '/home/me', false), undefined);
  assert.equal(startFolders('/ws', [{ unknown: true }], '/home/me', false), undefined);
  // A free state follows what it can and lets the rest go.
  assert.deepEqual(startFolders('/ws', [{ unknown: true }, to('b')], '/home/me', true), ['/ws', '/ws/b']);
});
