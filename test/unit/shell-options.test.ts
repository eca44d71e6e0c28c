/**
 * Issue 29, "The gate holds", Deliver 2 and 3: options read as the programs
 * read them (getopt_long prefixes, values, clusters) and commands that run
 * code or write files through an option or their program text. Each denied
 * row was allowed before (an agent with only `pytest`, `sort` or `awk`
 * allowed could run its own program or write a protected file); each allowed
 * row is everyday work that must keep passing; each writes row is what the
 * path rules now see.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseCommand, type ShellRules } from '../../src/engine/shell/analyse';
import { commandRisksMarkdown } from '../../src/engine/shell/command-risks-doc';

type Row = readonly [command: string, allowed: readonly string[], verdict: true | RegExp];

const denied: Row[] = [
  // GNU env and xargs take unique prefixes of long options (getopt_long): on this machine (coreutils 9.1)
  // `env --s='echo hi'` prints hi (--split-string) and `env --uns X true` unsets X (--unset).
  ['env --s=\'sh -c "stategate run approve"\' pytest', ['pytest'], /env with `--s=.*` runs something that cannot be analysed \(splits its argument into a command line/],
  ["env --split='sh -c whoami' pytest", ['pytest'], /env with `--split=/],
  ['env --frobnicate pytest', ['pytest'], /env --frobnicate is not an option stategate knows for env/],
  ['env --d pytest', ['pytest'], /env --d is ambiguous/],
  ['env $OPT pytest', ['pytest'], /`\$OPT` is only known when it runs, where env reads its options/],
  ['xargs --foo pytest', ['pytest'], /xargs --foo is not an option stategate knows for xargs/],
  ['xargs --max pytest', ['pytest'], /xargs --max is ambiguous/],
  ['timeout --frob 5 pytest', ['pytest'], /timeout --frob is not an option/],
  // wrappers that run shell text, or run something with no command
  ["watch 'sh -c id'", ['watch'], /`id` is not an allowed command here/],
  ["flock /tmp/l -c 'id'", ['flock', 'make test'], /`id` is not an allowed command here/],
  ['flock -c id /tmp/l', ['flock'], /flock with `-c id` runs something that cannot be analysed/],
  ['chroot /tmp/r', ['chroot'], /with no command it runs `\$SHELL -i`/],
  // awk's program text and options
  ["awk 'BEGIN{system(\"id\")}'", ['awk'], /awk the program: runs commands \(`system\(\)`/],
  ["awk '{print | \"sh\"}' f", ['awk'], /awk the program/],
  // strings and regular expressions are emptied before looking: a quote inside a regex or a division cannot hide the pipe
  ["awk '/\"/ { print | \"sh\" }' f", ['awk'], /awk the program/],
  ["awk '{ x = 4 / 2; print x | \"sh\"; y = 1 / 1 }' f", ['awk'], /awk the program/],
  ["awk '{\"id\" | getline x}' f", ['awk'], /awk the program/],
  ["awk '{print > \".claude/settings.json\"}' f", ['awk'], /writes files \(`print > FILE`\)/],
  ["awk '@load \"x\"; {}' f", ['awk'], /loads code \(`@load`/],
  ['awk -f evil.awk f', ['awk'], /awk -f: runs the awk program in the file/],
  ["awk -- 'BEGIN{system(\"id\")}'", ['awk'], /awk the program/],
  ['awk --exe=evil.awk f', ['awk'], /awk --exe: runs the awk program in the file/],
  ["awk -e 'BEGIN{system(\"id\")}' f", ['awk'], /awk -e: awk program text that runs commands/],
  ['awk -W exec evil.awk', ['awk'], /awk -W/],
  ['gawk -l evil.so f', ['gawk'], /loads the shared library/],
  // sort, sed, tar, rsync, zip, pagers, editors
  ['sort --compress-program=./evil f', ['sort'], /sort --compress-program: sort runs the program it names/],
  ['sort --compress=./evil f', ['sort'], /sort --compress:/],
  ['sort --co=./evil f', ['sort'], /sort --co:/],
  ['sort --frob f', ['sort'], /cannot be read as sort reads it: sort --frob is not an option stategate knows for sort.*write the option in full/],
  ['sort $FILES', ['sort'], /`\$FILES` is only known when it runs, where sort reads its options.*double quotes after a literal start/],
  ["sed --exp='1e id' -n p f", ['sed'], /the sed script `1e id` runs commands/],
  ['tar --to-command=./evil -xf a.tar', ['tar'], /tar --to-command: runs the command it gives/],
  ['tar --to-c=./evil -xf a.tar', ['tar'], /tar --to-c:/],
  ['tar -I ./evil -cf a.tar src', ['tar'], /tar -I: runs the program it names/],
  ['tar cfI a.tar ./evil src', ['tar'], /tar -I/],
  ['tar --checkpoint=1 --checkpoint-action=exec=./evil -cf a.tar src', ['tar'], /tar --checkpoint-action/],
  ['tar -cf a.tar -F ./evil src', ['tar'], /tar -F: runs the script/],
  ['tar -cf evil.host:a.tar src', ['tar'], /host:path.*rsh or ssh/],
  ['TAR_OPTIONS=--to-command=./evil tar xf a.tar', ['tar'], /sets TAR_OPTIONS.*it holds --to-command/],
  ['rsync -e ./evil a b:c', ['rsync'], /rsync -e: the program rsync runs/],
  ['rsync --rsync-path=./evil a b', ['rsync'], /rsync --rsync-path/],
  ['zip -TT ./evil a.zip f', ['zip'], /zip -T: tests the archive by running a command/],
  ["less '+!id' f", ['less'], /less `\+COMMAND`/],
  ["less '+s.claude/settings.json' f", ['less'], /`s` writes a file/],
  ['less --lesskey-src=evil f', ['less'], /less --lesskey-src/],
  ['man -P ./evil ls', ['man'], /man -P: the pager man runs/],
  ['vim f', ['vim'], /vim runs any shell command it is told to.*let the agent use the Edit and Write tools/],
  ["vi -c '!id' f", ['vi'], /vim runs any shell command/],
  ['ed f', ['ed'], /ed runs any shell command/],
  ['nano f', ['nano'], /nano runs any shell command/],
  ['emacs f', ['emacs'], /emacs runs any shell command/],
  ['split --fil="sh -c id" f', ['split'], /split --fil: writes each piece to the shell command/],
  ['install --strip-program=./evil -s a bin/', ['install'], /install --strip-program/],
  ["ssh -o ProxyCommand='sh -c id' host", ['ssh'], /ssh -o: an option that runs a local command/],
  ['scp -S ./evil a host:b', ['scp'], /ssh -S: scp and sftp run the program/],
  ["perl -e 'system(\"id\")'", ['perl'], /perl -e: runs the Perl code/],
  ['perl', ['perl'], /perl without a script: reads the program from its input/],
  ["ruby -e 'system(\"id\")'", ['ruby'], /ruby -e: runs the Ruby code/],
  // test runners, make, git
  ['pytest --pdb', ['pytest'], /pytest --pdb: stops in the Python debugger/],
  ['pytest --trace', ['pytest'], /pytest --trace/],
  ['GNUMAKEFLAGS=SHELL=./evil make test', ['make test'], /sets GNUMAKEFLAGS/],
  ['MAKESHELL=./evil make test', ['make test'], /sets MAKESHELL/],
  ['make -t', ['make'], /make -t: touches the file of every target/],
  ['git --git-dir=/tmp/evil/.git status', ['git'], /git --git-dir: reads the configuration of the repository/],
  ['AWKPATH=/tmp/evil awk -f x f', ['awk -f x'], /sets AWKPATH/],
  ['RSYNC_RSH=./evil rsync a b:c', ['rsync'], /sets RSYNC_RSH/],
  ['GCONV_PATH=/tmp/evil sort f', ['sort'], /sets GCONV_PATH/],
  // file commands, sudo, doas and bash's exec/command/builtin read with full getopt tables (file-options.ts,
  // sudo-options.ts, builtin-options.ts): an option the table does not know, or an ambiguous prefix, is denied
  // naming option and program (before, any option they did not know was skipped). On this machine
  // `cp --frob a b` says "unrecognized option '--frob'", `cp --no a b` "option '--no' is ambiguous".
  ['cp --frob a b', ['cp'], /cannot be read as cp reads it: cp --frob is not an option stategate knows for cp/],
  ['cp --no a b', ['cp'], /cp --no is ambiguous/],
  ['cp -Q a b', ['cp'], /cp -Q is not an option stategate knows for cp/],
  ['mv --frob a b', ['mv'], /mv --frob is not an option stategate knows for mv/],
  ['rm --frob x', ['rm'], /rm --frob is not an option stategate knows for rm/],
  ['rm -rfq build', ['rm'], /rm -q is not an option stategate knows for rm/],
  ['touch --frob f', ['touch'], /touch --frob is not an option/],
  ['mkdir --frob x', ['mkdir'], /mkdir --frob is not an option/],
  ['chmod --frob +x f', ['chmod'], /chmod --frob is not an option/],
  ['chown --frob u f', ['chown'], /chown --frob is not an option/],
  ['chown --re f g', ['chown'], /chown --re is ambiguous/],
  ['ln --frob a b', ['ln'], /ln --frob is not an option/],
  ['install --frob a b', ['install'], /install --frob is not an option/],
  ['install --strip-p=./evil -s a bin/', ['install'], /install --strip-p/],
  ['truncate --frob f', ['truncate'], /truncate --frob is not an option/],
  ['cp $OPTS a b', ['cp'], /`\$OPTS` is only known when it runs, where cp reads its options/],
  ['sudo --frob pytest', ['sudo', 'pytest'], /sudo --frob is not an option stategate knows for sudo/],
  ['sudo --sh pytest', ['sudo', 'pytest'], /sudo with `--sh` runs something that cannot be analysed \(runs a shell/],
  ['sudo --log pytest', ['sudo', 'pytest'], /sudo --log is ambiguous/],
  ['sudo --ed pytest', ['sudo', 'pytest'], /sudo with `--ed` runs something that cannot be analysed \(sudoedit/],
  ['sudo --chroot=/tmp/r pytest', ['sudo', 'pytest'], /sudo with `--chroot=\/tmp\/r` runs something/],
  ['sudo -iu root pytest', ['sudo', 'pytest'], /sudo with `-iu` runs something that cannot be analysed \(runs a login shell/],
  ['doas -x pytest', ['doas pytest'], /doas -x is not an option stategate knows for doas/],
  ['exec --frob pytest', ['pytest'], /exec --frob is not an option stategate knows for exec/],
  ['command -x pytest', ['pytest'], /command -x is not an option stategate knows for command/],
  ['builtin -x echo', ['echo'], /builtin -x is not an option stategate knows for builtin/],
  // sed: -e pieces joined as GNU sed joins them (newlines), labels ended as GNU sed 4.9 ends them
  ["sed -e '1a\\' -e 'hello\\\\' -e 'e id' f", ['sed'], /the sed script `1a\\\nhello\\\\\ne id` runs commands/],
  ["sed ':a e id' f", ['sed'], /the sed script `:a e id` runs commands/],
  ["sed ':a;e id' f", ['sed'], /runs commands/],
];

/** Denied before too (the old reading caught these spellings): kept so the getopt reading keeps them. */
const stillDenied: Row[] = [
  ["env -iS'sh -c whoami' pytest", ['pytest'], /env with `-iS/],
  ['env -S"$X" pytest', ['pytest'], /env with `-S"\$X"` runs something that cannot be analysed/],
  ['watch pytest', ['pytest'], /`watch pytest` is not an allowed command here/],
  ["sed --expr '1e id' -n p f", ['sed'], /the sed script `1e id` runs commands/],
  ['MANPAGER=./evil man ls', ['man'], /sets MANPAGER/],
  ["LESSOPEN='|./evil %s' less f", ['less'], /sets LESSOPEN/],
];

const allowed: Row[] = [
  ['pytest tests/{a,b}.py', ['pytest'], true],
  ['pytest -k foo -x', ['pytest'], true],
  ['npm test', ['npm test'], true],
  ['npm run build', ['npm run build'], true],
  ['node --test test/', ['node --test*'], true],
  ['git status', ['git status'], true],
  ['git diff', ['git diff'], true],
  ['git add -A && git commit -m x', ['git add', 'git commit'], true],
  ['git log --oneline | head', ['git log', 'head'], true],
  ['make test', ['make test'], true],
  ['sort -u file', ['sort'], true],
  ['sort -- "$F"', ['sort'], true],
  ['sort "data/$F"', ['sort'], true],
  ['sort -t: -k2,2n -o sorted.txt file', ['sort'], true],
  ['sort --key=2 --field-sep=: file', ['sort'], true],
  ["awk '{print $1}' file", ['awk'], true],
  ["awk -F: '{if ($3 > 100 || $1 == \"x\") print $1}' /etc/passwd", ['awk'], true],
  ["awk -v n=3 'NR<=n' file", ['awk'], true],
  ["awk '/foo|bar/ {print}' f", ['awk'], true],
  ["awk '$1 ~ /a|b/ {print $2}' f", ['awk'], true],
  ["awk '{print \"a > b\"}' f", ['awk'], true],
  ["awk -F'|' '{print $2}' f", ['awk'], true],
  ["find . -name '*.ts'", ['find'], true],
  ['xargs grep foo', ['xargs', 'grep'], true],
  ['xargs -0 -n1 -I{} pytest -- {}', ['pytest'], true],
  ['git diff --name-only | xargs -r pytest --', ['git diff', 'pytest'], true],
  ['env FOO=1 pytest', ['pytest'], true],
  ['env -u HOME pytest', ['pytest'], true],
  ['env --uns HOME pytest', ['pytest'], true],
  ['env - pytest', ['pytest'], true],
  ['timeout 60 pytest', ['pytest'], true],
  ['timeout --signal=KILL -k 5 60 pytest', ['pytest'], true],
  ['timeout --s=KILL 60 pytest', ['pytest'], true],
  ['nice -n 5 pytest', ['pytest'], true],
  ['nice -10 pytest', ['pytest'], true],
  ['nohup pytest', ['pytest'], true],
  ['time pytest', ['pytest'], true],
  ['time -p pytest', ['pytest'], true],
  ['stdbuf -oL pytest', ['pytest'], true],
  ['watch -n 5 make test', ['watch', 'make test'], true],
  ["flock /tmp/build.lock -c 'make test'", ['flock', 'make test'], true],
  ['tar czf out.tgz src', ['tar'], true],
  ['tar -xzf a.tgz -C out', ['tar'], true],
  ['tar tf a.tar', ['tar'], true],
  ['tar --checkpoint=100 --checkpoint-action=dot -cf a.tar src', ['tar'], true],
  ['rsync -av src/ dst/', ['rsync'], true],
  ['zip -r out.zip src', ['zip'], true],
  ['less README.md', ['less'], true],
  ['less +G log.txt', ['less'], true],
  ["less '+/error' log.txt", ['less'], true],
  ['man ls', ['man'], true],
  ['split -l 100 f part_', ['split'], true],
  ['install -m 755 a bin/', ['install'], true],
  ['ssh -o StrictHostKeyChecking=no host ls', ['ssh'], true],
  ['scp a host:b', ['scp'], true],
  ['perl script.pl', ['perl'], true],
  ['ruby script.rb', ['ruby'], true],
  ["sed -n '1,40p' f", ['sed'], true],
  ["sed -E 's/a+/b/g' f", ['sed'], true],
  ['uniq -c f', ['uniq'], true],
  ['tee -a log.txt', ['tee'], true],
  ['TAR_OPTIONS=--no-same-owner tar xf a.tar', ['tar'], true],
  // file commands as everyday work spells them
  ['cp -r a b', ['cp'], true],
  ['cp -a src/ dst/', ['cp'], true],
  ['cp --preserve=mode,timestamps a b', ['cp'], true],
  ['cp -t out a b', ['cp'], true],
  ['cp a b --verbose', ['cp'], true],
  ['mv -f a b', ['mv'], true],
  ['mv -n -- -a b', ['mv'], true],
  ['rm -rf build', ['rm'], true],
  ['rm -f -- -x', ['rm'], true],
  ['rm --recursive --force dist', ['rm'], true],
  ['mkdir -p x/y', ['mkdir'], true],
  ['mkdir -pm 755 x/y', ['mkdir'], true],
  ['touch f', ['touch'], true],
  ['touch -d "1 day ago" f', ['touch'], true],
  ['touch -t 202401011200 f', ['touch'], true],
  ['chmod +x s.sh', ['chmod'], true],
  ['chmod -x s.sh', ['chmod'], true],
  ['chmod -R u+w dir', ['chmod'], true],
  ['chmod 755 s.sh', ['chmod'], true],
  ['chmod -w,u+r f', ['chmod'], true],
  ['chown -R user:group dir', ['chown'], true],
  ['ln -sf a b', ['ln'], true],
  ['ln -s ../lib/a.so lib.so', ['ln'], true],
  ['install -m 755 -D a bin/a', ['install'], true],
  ['truncate -s 0 log.txt', ['truncate'], true],
  ['truncate -s -1 log.txt', ['truncate'], true],
  ['sudo -u www pytest', ['sudo', 'pytest'], true],
  ['sudo -E pytest', ['sudo', 'pytest'], true],
  ['sudo -n -- pytest', ['sudo', 'pytest'], true],
  ['exec pytest', ['pytest'], true],
  ['exec -a name pytest', ['pytest'], true],
  ['command -v pytest', ['pytest'], true],
  ['command -p pytest', ['pytest'], true],
  ['builtin echo hi', ['echo'], true],
  // text of a/i/c split over -e pieces (denied before: `hello` was read as commands, its `e` as running one)
  ["sed -e '1a\\' -e 'hello' f", ['sed'], true],
  ["sed -e 's/a/b/' -e 's/c/d/' f", ['sed'], true],
  ["sed ':a;N;$!ba;s/\\n/ /g' f", ['sed'], true],
];

const WRITES: ShellRules = { allowedCommands: undefined, blockedEnv: [], writeAllowed: true };

for (const [command, allowedCommands, verdict] of [...denied, ...stillDenied, ...allowed]) {
  test(`${verdict === true ? 'allows' : 'denies'} ${JSON.stringify(command)} under ${JSON.stringify(allowedCommands)}`, async () => {
    const v = await analyseCommand(command, { allowedCommands, blockedEnv: [], writeAllowed: true });
    if (verdict === true) assert.equal(v.ok, true, v.ok ? '' : v.reason);
    else {
      assert.equal(v.ok, false, 'was allowed');
      if (!v.ok) assert.match(v.reason, verdict);
    }
  });
}

/** `value` for a known target, `?text` for a run-time one, `/**` after a tree. */
async function writes(command: string): Promise<string[]> {
  const v = await analyseCommand(command, WRITES);
  return (v.writes ?? []).map((w) => `${w.word.dynamic ? `?${w.word.text}` : w.word.value}${w.tree ? '/**' : ''}`);
}

const writeRows: Array<[string, string[]]> = [
  // abbreviated writer options: on this machine `sort --outp=f in` writes f
  ['sort --outp=.claude/settings.json x', ['.claude/settings.json']],
  ['sort --output .claude/settings.json x', ['.claude/settings.json']], // seen before too
  // sort's temporary files go anywhere in the folder -T names
  ['sort -T .claude x', ['.claude/**']],
  ['sort --temporary-directory=.claude -o out x', ['out', '.claude/**']],
  ['sort --temp .github x', ['.github/**']],
  ['sort -uo.claude/settings.json x', ['.claude/settings.json']],
  ['sed --i s/a/b/ .claude/settings.json', ['.claude/settings.json']],
  ['sed --in-pl=.bak s/a/b/ .claude/settings.json', ['.claude/settings.json']],
  ['sed -ie s/a/b/ .claude/settings.json', ['.claude/settings.json']], // seen before too: -i takes `e` as its suffix
  ['uniq in .claude/settings.json', ['.claude/settings.json']],
  ['uniq -c -f 1 in out', ['out']],
  ['cp --target=.claude a', ['.claude/a']],
  ['\\time -o .claude/settings.json pytest', ['.claude/settings.json']],
  ['time --out=.claude/settings.json pytest', ['.claude/settings.json']],
  ["flock .claude/settings.json -c 'make test'", ['.claude/settings.json']],
  ['flock 9', []],
  ['cp --recur evil .stategate', ['.stategate/**', '.stategate/evil/**']],
  // -T: DEST is the target even when it is a folder (was reported only "unless a folder", and as .claude/evil)
  ['cp -rT evil .claude', ['.claude/**']],
  ['mv -T evil .claude', ['.claude/**', 'evil/**']],
  ['ln -sfT /tmp/evil .stategate', ['.stategate']],
  ['tar cfC a.tar out', ['a.tar']],
  // report and output flags of test runners, compilers, linters, formatters
  ['pytest --junitxml=.claude/settings.json', ['.claude/settings.json']],
  ['pytest --junit-xml .claude/settings.json', ['.claude/settings.json']],
  ['python -m pytest --cov-report=xml:.claude/settings.json', ['.claude/settings.json']],
  ['pytest --cov-report=html:htmlcov', ['htmlcov']],
  ['pytest --junitxml=/dev/null', []],
  ['node --test --test-reporter=spec --test-reporter-destination=.claude/settings.json', ['.claude/settings.json']],
  ['node --test --test_reporter_destination=.claude/settings.json', ['.claude/settings.json']],
  ['node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=junit.xml', ['junit.xml']],
  ['eslint --fix .', []],
  ['prettier --write .', []],
  ['jest --json --outputFile=.claude/settings.json', ['.claude/settings.json']],
  ['npx jest --output-file .claude/settings.json', ['.claude/settings.json']],
  ['npm test -- --outputFile=.claude/settings.json', ['.claude/settings.json']],
  ['vitest run --outputFile.junit=.claude/settings.json', ['.claude/settings.json']],
  ['mocha --reporter xunit --reporter-option output=.claude/settings.json', ['.claude/settings.json']],
  ['eslint -o .claude/settings.json .', ['.claude/settings.json']],
  ['tsc --outDir .claude', ['.claude/**']],
  ['tsc --outfile .claude/settings.json', ['.claude/settings.json']],
  ['gcc -o .claude/settings.json a.c', ['.claude/settings.json']],
  ['go build -o .claude/settings.json .', ['.claude/settings.json']],
  ['go test -coverprofile=.claude/settings.json ./...', ['.claude/settings.json']],
  ['cargo build --target-dir .claude', ['.claude/**']],
  ['coverage xml -o .claude/settings.json', ['.claude/settings.json']],
  // git subcommands that change the working tree
  ['git rm .claude/settings.json', ['.claude/settings.json']],
  ['git rm --cached .claude/settings.json', []],
  ['git mv .claude/settings.json x', ['x/**', 'x/settings.json/**', '.claude/settings.json/**']],
  ['git checkout -- .claude/settings.json', ['.claude/settings.json/**']],
  ['git checkout HEAD~1 -- .claude/settings.json', ['.claude/settings.json/**']],
  ['git restore .claude/settings.json', ['.claude/settings.json/**']],
  ['git restore --staged .claude/settings.json', []],
  ['git checkout main', ['./**']],
  ['git checkout -b feature', []],
  ['git switch main', ['./**']],
  ['git switch -c feature', []],
  ['git reset --hard', ['./**']],
  ['git reset HEAD x', []],
  ['git stash', ['./**']],
  ['git stash list', []],
  ['git clean -fdx', ['./**']],
  ['git clean -n', []],
  ['git apply x.patch', ['./**']],
  ['git apply --check x.patch', []],
  ['git worktree add ../other', ['../other/**']],
  ['git merge side', ['./**']],
  ['git pull', ['./**']],
  ['git read-tree -u -m HEAD side', ['./**']],
  ['git read-tree HEAD', []],
  ['git -C sub rm f', ['sub/f']],
  ['git status', []],
  ['git diff', []],
  ['git add -A', []],
  ['git commit -m x', []],
];

for (const [command, expected] of writeRows) {
  test(`writes of ${JSON.stringify(command)}`, async () => assert.deepEqual(await writes(command), expected));
}

test('an output flag is a write: a state that allows no Write or Edit denies it, naming the file', async () => {
  const v = await analyseCommand('pytest --junitxml=report.xml', { allowedCommands: ['pytest'], blockedEnv: [], writeAllowed: false });
  assert.equal(v.ok, false);
  if (!v.ok) assert.match(v.reason, /writes files \(--junitxml=report\.xml\), and this state allows no Write or Edit/);
  assert.deepEqual(await analyseCommand('pytest -q', { allowedCommands: ['pytest'], blockedEnv: [], writeAllowed: false }), { ok: true });
});

test('an entry that names a risky option allows exactly that spelling', async () => {
  const rules = (allowedCommands: string[]): ShellRules => ({ allowedCommands, blockedEnv: [], writeAllowed: true });
  assert.equal((await analyseCommand('sort --compress-program=gzip f', rules(['sort --compress-program=gzip']))).ok, true);
  assert.equal((await analyseCommand('sort --compress-program=./evil f', rules(['sort --compress-program=gzip']))).ok, false);
});

test("the generated docs table lists find's actions that run or write a command (-exec, -execdir, -ok, -okdir; -delete, -fprint...)", () => {
  const md = commandRisksMarkdown();
  assert.match(md, /\| \*\*find\*\* \(wrapper: the command it runs must be allowed\) \| `-exec`, `-execdir`, `-ok`, `-okdir` \|/);
  assert.match(md, /`-delete`, `-fprint`, `-fprint0`, `-fprintf`, `-fls`/);
  assert.match(md, /`--temporary-directory`, `-T` \| writes its temporary files into the folder it names/);
});

test('sort -T names a folder it writes: a state that allows no Write or Edit denies it', async () => {
  const v = await analyseCommand('sort -T /tmp/x f', { allowedCommands: ['sort'], blockedEnv: [], writeAllowed: false });
  assert.equal(v.ok, false, 'was allowed');
  if (!v.ok) assert.match(v.reason, /writes files, and this state allows no Write or Edit/);
});
