/**
 * Arguments that turn an allowed command into any command (issue 12, part 4):
 * each row is a command, the state's allowed_commands, and the verdict (with a
 * fragment of the reason for a denial). The allowed rows are the everyday
 * spellings that must keep passing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseCommand } from '../../src/engine/shell/analyse';
import { commandRisksMarkdown } from '../../src/engine/shell/command-risks-doc';
import { dynamicShape } from '../../src/engine/shell/command-args';

type Row = readonly [command: string, allowed: readonly string[], verdict: true | RegExp];

const denied: Row[] = [
  // npm: config flags in every spelling, before or after the subcommand
  ['npm test --script-shell=/tmp/evil.sh', ['npm test'], /npm --script-shell: runs every package script.*naming it \(e\.g\. "npm test --script-shell=\/tmp\/evil\.sh"\)/],
  ['npm test --script-shell /tmp/evil.sh', ['npm test'], /naming it \(e\.g\. "npm test --script-shell \/tmp\/evil\.sh"\)/],
  ['npm --script-shell x test', ['npm'], /npm --script-shell/],
  ['npm test --script_shell=./evil.sh', ['npm test'], /npm --script_shell/],
  ['npm test --SCRIPT-SHELL=./evil.sh', ['npm test'], /npm --SCRIPT-SHELL/],
  ['npm test --scri=./evil.sh', ['npm test'], /npm --scri: runs every package script/],
  ['npm test --node-options=--require=./evil.js', ['npm test'], /npm --node-options/],
  ['npm test --prefix=/tmp/other', ['npm test'], /npm --prefix: runs the scripts of another folder/],
  ['npm test -C /tmp/other', ['npm test'], /npm -C/],
  ['npm test --userconfig ./evil.npmrc', ['npm test'], /reads an npmrc/],
  ['npm exec --call "sh -c whoami"', ['npm exec'], /npm --call: runs the shell command/],
  // what follows `--` goes to the script: a test runner's or linter's options
  ['npm test -- --setupFiles=./evil.js', ['npm test'], /--setupFiles: modules run before/],
  ['npm test -- --setup-files ./evil.js', ['npm test'], /--setup-files/],
  ['npm test -- -c ./evil.config.js', ['npm test'], /-c: a config file is code/],
  ['npm test -- --reporter=./evil.js', ['npm test'], /--reporter/],
  ['npm test -- --reporter=verbose', ['npm test'], /--reporter: a reporter module \(mocha/],
  ['npm test -- -r ./evil.js', ['npm test'], /-r/],
  ['yarn test --setupFiles=./evil.js', ['yarn test'], /--setupFiles/],
  ['pnpm test -- --config evil.js', ['pnpm test'], /--config/],
  ['pnpm --dir /tmp/other test', ['pnpm'], /pnpm --dir/],
  ['bun test --preload ./evil.ts', ['bun test'], /bun --preload: loads a module/],
  ['bun run --preload ./evil.ts dev', ['bun run'], /bun --preload/],
  ['yarn run jest --config ./evil.js', ['yarn run'], /jest --config/],
  ['go build -ldflags="-linkmode=external -extldflags=-fuse-ld=./evil"', ['go build'], /go -ldflags/],
  ['npx jest --config ./evil.js', ['npx jest'], /jest --config/],
  ['npx --package=evil jest', ['npx'], /npx --package: installs the package/],
  ['npx -c "sh -c whoami"', ['npx'], /npx -c: runs the shell command/],
  ['npm exec -- jest --setupFiles ./evil.js', ['npm exec'], /jest --setupFiles/],
  ['npx vitest --root /tmp/other', ['npx vitest'], /vitest --root/],
  ['mocha --require ./evil.js', ['mocha'], /mocha --require/],
  ['mocha -R ./evil.js', ['mocha'], /mocha -R/],
  ['eslint --rulesdir ./rules .', ['eslint'], /eslint --rulesdir/],
  ['eslint --plugin evil .', ['eslint'], /eslint --plugin/],
  ['eslint -f ./evil.js .', ['eslint'], /eslint -f: a formatter module/],
  ['eslint -c evil.config.js .', ['eslint'], /eslint -c/],
  ['jest --testEnvironment=./evil.js', ['jest'], /jest --testEnvironment/],
  // cargo
  ['cargo test --config build.rustc-wrapper=./evil', ['cargo test'], /cargo --config: sets configuration/],
  ["cargo test --config 'target.x86_64-unknown-linux-gnu.runner=\"./evil\"'", ['cargo test'], /cargo --config/],
  ['cargo test --config evil.toml', ['cargo test'], /cargo --config/],
  ['cargo test --manifest-path /tmp/other/Cargo.toml', ['cargo test'], /builds another crate/],
  ['cargo +/tmp/toolchain test', ['cargo'], /cargo `\+TOOLCHAIN`/],
  ['RUSTC_WRAPPER=./evil cargo test', ['cargo test'], /sets RUSTC_WRAPPER.*programs cargo runs/],
  ["RUSTFLAGS='-C linker=./evil' cargo test", ['cargo test'], /sets RUSTFLAGS/],
  ['CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=./evil cargo test', ['cargo test'], /CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER/],
  // pytest, python -m pytest, python
  ['pytest -p evil_plugin', ['pytest'], /pytest -p: imports the module it names as a plugin.*naming it \(e\.g\. "pytest -p evil_plugin"\)/],
  ['pytest -pevil_plugin', ['pytest'], /pytest -p/],
  ['pytest -qp evil_plugin', ['pytest'], /pytest -p/],
  ['pytest -p=evil_plugin', ['pytest'], /pytest -p/],
  ['pytest -o addopts="-p evil"', ['pytest'], /pytest -o: addopts adds options/],
  ['pytest -W ignore::evil.EvilWarning', ['pytest'], /pytest -W: a warning category/],
  ['pytest --pdbcls=evil:Debugger --pdb', ['pytest'], /pytest --pdbcls/],
  ['pytest -c evil.ini', ['pytest'], /reads another ini file/],
  ['pytest --basetemp=.stategate', ['pytest'], /deletes the folder/],
  ['python -m pytest -p evil', ['python -m pytest'], /pytest -p/],
  ['python3 -m pytest -p evil', ['python3 -m pytest'], /pytest -p/],
  ['python3.12 -mpytest -p evil', ['python3.12'], /pytest -p/],
  ['PYTEST_ADDOPTS="-p evil" pytest', ['pytest'], /sets PYTEST_ADDOPTS.*pytest reads options from it.*it holds -p: imports the module/],
  ['PYTEST_PLUGINS=evil pytest', ['pytest'], /sets PYTEST_PLUGINS/],
  ['PYTHONPATH=/tmp/evil pytest', ['pytest'], /sets PYTHONPATH/],
  ['PYTHONWARNINGS=ignore::evil.W pytest', ['pytest'], /sets PYTHONWARNINGS/],
  ["python -c 'import os'", ['python'], /python -c: runs the Python code/],
  ['python -W ignore::evil.W x.py', ['python'], /python -W/],
  ['python', ['python'], /python without a script: reads the program from its input; name the script/],
  ['python - < x.py', ['python'], /reads the program from its input/],
  // git
  ['git -c core.sshCommand=./evil fetch', ['git'], /git -c: sets configuration, and many keys run programs/],
  ['git -c core.pager=./evil log', ['git'], /git -c/],
  ["git -c alias.x='!sh' x", ['git'], /git -c/],
  ['git -c core.fsmonitor=./evil status', ['git'], /git -c/],
  ['git -c include.path=/tmp/evil.cfg status', ['git'], /git -c/],
  ['git --exec-path=/tmp/evil status', ['git'], /git --exec-path: runs git's commands from the folder/],
  ['git --config-env=core.pager=EVIL log', ['git'], /git --config-env/],
  ['git fetch --upload-pack=./evil origin', ['git fetch'], /git fetch --upload-pack/],
  ['git ls-remote --upload-p=./evil .', ['git ls-remote'], /git ls-remote --upload-p: the program/],
  ["git rebase -x 'sh evil' main", ['git rebase'], /git rebase -x: runs the shell command/],
  ['git rebase --exec=./evil main', ['git rebase'], /git rebase --exec/],
  ['git rebase -ix ./evil main', ['git rebase'], /git rebase -x/],
  ['git clone -u ./evil repo', ['git clone'], /git clone -u/],
  ['git clone --template=/tmp/hooks repo', ['git clone'], /copies hooks/],
  ['git clone -c core.fsmonitor=./evil repo', ['git clone'], /git clone -c/],
  ['git push --receive-pack=./evil origin', ['git push'], /git push --receive-pack/],
  ['git bisect run ./evil.sh', ['git bisect'], /git bisect `run`: runs the command/],
  ['git submodule foreach ./evil.sh', ['git submodule'], /git submodule `foreach`/],
  ['git config core.pager ./evil', ['git config'], /git config `KEY VALUE`/],
  ["git config --global alias.x '!sh'", ['git config'], /writes configuration/],
  ['git grep -O./evil pattern', ['git grep'], /git grep -O: opens the matches/],
  ['git grep --open-files-in-pager pattern', ['git grep'], /git grep --open-files-in-pager/],
  ['git difftool -x ./evil', ['git difftool'], /git difftool -x/],
  ["git filter-branch --tree-filter 'sh evil' HEAD", ['git filter-branch'], /shell commands run for every commit/],
  ['GIT_SSH_COMMAND=./evil git fetch', ['git fetch'], /sets GIT_SSH_COMMAND/],
  ['GIT_EXTERNAL_DIFF=./evil git diff', ['git diff'], /sets GIT_EXTERNAL_DIFF/],
  ['PAGER=./evil git log', ['git log'], /sets PAGER/],
  ['XDG_CONFIG_HOME=/tmp/evil git log', ['git log'], /sets XDG_CONFIG_HOME/],
  // make
  ['make -f other.mk test', ['make'], /make -f: reads another makefile/],
  ['make -sf other.mk', ['make'], /make -f/],
  ['make test SHELL=/tmp/evil.sh', ['make test'], /make `VAR=value`: overrides a makefile variable/],
  ['make test PYTHON=./evil', ['make test'], /make `VAR=value`/],
  ['make -- SHELL=./evil test', ['make'], /make `VAR=value`/],
  ["make --eval='$(info x)' test", ['make'], /make --eval/],
  ['make --ev=x test', ['make'], /make --ev: evaluates/],
  ['make -C /tmp/other test', ['make'], /make -C: runs the makefile of another folder/],
  ['MAKEFILES=evil.mk make test', ['make test'], /sets MAKEFILES/],
  // node
  ["node -e 'require(\"child_process\")'", ['node'], /node -e: runs the JavaScript/],
  ['node -pe 1', ['node'], /node -p/],
  ['node --require ./evil.js app.js', ['node'], /node --require: loads a module/],
  ['node -r ./evil.js app.js', ['node'], /node -r/],
  ['node --import=./evil.mjs app.js', ['node'], /node --import/],
  ['node --loader ./evil.mjs app.js', ['node'], /node --loader/],
  ['node --experimental_loader ./evil.mjs app.js', ['node'], /node --experimental_loader/],
  ['node --env-file=.env app.js', ['node'], /node --env-file: reads variables/],
  ['node --test --test-reporter=./evil.mjs', ['node --test*'], /node --test-reporter: a reporter module/],
  ['node --test-reporter=./evil.mjs --test', ['node --test*'], /node --test-reporter/],
  ['node --test-name-pattern=x', ['node --test*'], /node without a script: reads the program from its input/],
  ['node', ['node'], /reads the program from its input/],
  ['node - < x.js', ['node'], /reads the program from its input/],
  ['NODE_OPTIONS=--require=./evil.js npm test', ['npm test'], /sets NODE_OPTIONS.*node reads options from it.*it holds --require: loads a module/],
  ["NODE_OPTIONS='--max-old-space-size=4096 -r ./evil.js' npm test", ['npm test'], /sets NODE_OPTIONS/],
  ['NODE_OPTIONS="$X" npm test', ['npm test'], /sets NODE_OPTIONS.*only known when it runs/],
  ['env NODE_OPTIONS=--require=./x.js npm test', ['npm test'], /sets NODE_OPTIONS/],
  ['export NODE_OPTIONS=--import=./x.mjs; npm test', ['npm test', 'export'], /sets NODE_OPTIONS/],
  // go
  ['go test -toolexec=./evil ./...', ['go test'], /go -toolexec: runs every compiler/],
  ['go test -exec ./evil ./...', ['go test'], /go -exec/],
  ['go build -ldflags=-extld=./evil', ['go build'], /go -ldflags/],
  ['go vet -vettool=./evil ./...', ['go vet'], /go -vettool/],
  ['GOFLAGS=-toolexec=./evil go test', ['go test'], /sets GOFLAGS/],
  // maven, gradle
  ['mvn test exec:exec -Dexec.executable=sh', ['mvn test'], /mvn `exec:\*`/],
  ['mvn test org.example:evil-plugin:1.0:run', ['mvn test'], /plugin fetched by its coordinates/],
  ['mvn -f /tmp/other/pom.xml test', ['mvn'], /mvn -f: builds another project/],
  ['mvn test -Dmaven.ext.class.path=evil.jar', ['mvn test'], /mvn -D: loads extension jars/],
  ['MAVEN_OPTS=-javaagent:evil.jar mvn test', ['mvn test'], /sets MAVEN_OPTS/],
  ['gradle test --init-script evil.gradle', ['gradle test'], /gradle --init-script/],
  ['./gradlew test -I evil.gradle', ['./gradlew test'], /gradle -I/],
  ['gradle test -Dorg.gradle.java.home=/tmp/evil', ['gradle test'], /gradle -D/],
  // run-time words where the tool reads options, and xargs adding words
  ['pytest $X', ['pytest'], /`\$X` is only known when it runs, and pytest reads options there.*end its options with `--`/],
  ['pytest tests/$X', ['pytest'], /only known when it runs/],
  ['pytest "$X"', ['pytest'], /only known when it runs/],
  ['pytest -k$X', ['pytest'], /`-k\$X` is only known when it runs/],
  ['pytest --tb=$X', ['pytest'], /`--tb=\$X` is only known when it runs/],
  ['pytest --unknown-option=$X', ['pytest'], /only known when it runs/],
  ['npm test -- $ARGS', ['npm test'], /only known when it runs/],
  ['git rebase "$X"', ['git rebase'], /only known when it runs/],
  ['make test "$X"', ['make test'], /`"\$X"` is only known when it runs/],
  ['git "$SUB" -x ./evil', ['git'], /`"\$SUB"` is only known when it runs/],
  ['git st"$X" -x ./evil', ['git'], /only known when it runs, where git reads a command/],
  ['printf "%s\\n" -p evil | xargs pytest', ['printf', 'pytest'], /xargs reads from its input/],
  // an entry that names the flag allows exactly what it names
  ['npm test --script-shell=/tmp/evil.sh', ['npm test --script-shell=bash'], /is not an allowed command here/],
  ['NODE_OPTIONS=--require=./evil.js npm test', ['NODE_OPTIONS=--require=./setup.js npm test'], /is not an allowed command here/],
  ['NODE_OPTIONS=--require=./evil.js npm test', ['NODE_OPTIONS=--require=./setup.js npm test', 'npm test'], /sets NODE_OPTIONS/],
];

const allowed: Row[] = [
  ['npm test -- -w', ['npm test'], true],
  ['npm test -- --watch=false --reporter=dot', ['npm test'], true],
  ['npm test -- -u', ['npm test'], true],
  ['npm test --silent', ['npm test'], true],
  ['npm test -- "tests/unit/$NAME.test.ts"', ['npm test'], true],
  ['npm test --script-shell=bash', ['npm test --script-shell=bash'], true],
  ['npm test --script-shell=bash', ['npm test', 'npm test --script-shell=*'], true],
  ['npm install --global typescript', ['npm install'], true],
  ['npm ci', ['npm'], true],
  ['npm --prefix plugins/opencode test', ['npm --prefix plugins/opencode test'], true],
  ['npx jest --ci --coverage', ['npx jest'], true],
  ['npx tsc --noEmit -p tsconfig.json', ['npx tsc'], true],
  ['yarn test --watch', ['yarn test'], true],
  ['pnpm install --reporter=append-only', ['pnpm install'], true],
  ['jest --ci --reporters=default', ['jest'], true],
  ['vitest run --reporter=verbose', ['vitest'], true],
  ['mocha --reporter dot', ['mocha'], true],
  ['eslint -f json .', ['eslint'], true],
  ['tsc --noEmit -p tsconfig.json', ['tsc'], true],
  ['cargo test --release', ['cargo test'], true],
  ['cargo test -p core -- --nocapture', ['cargo test'], true],
  ['cargo +nightly test', ['cargo'], true],
  ['cargo test --config profile.dev.opt-level=1', ['cargo test'], true],
  ['CARGO_TARGET_DIR=target cargo test', ['CARGO_TARGET_DIR=* cargo test'], true],
  ['pytest -k name', ['pytest'], true],
  ['pytest -x -q --maxfail=1 -n 4', ['pytest'], true],
  ['pytest -p no:cacheprovider', ['pytest'], true],
  ['pytest -k "$T"', ['pytest'], true],
  ['pytest -k"$T" --tb="$TB"', ['pytest'], true],
  ['pytest -n $((2*4))', ['pytest'], true],
  ['pytest -W ignore::DeprecationWarning', ['pytest'], true],
  ['pytest -o cache_dir=/tmp/cache', ['pytest'], true],
  ['pytest tests/*.py', ['pytest'], true],
  ['pytest -- $FILES', ['pytest'], true],
  ['pytest -p evil_plugin', ['pytest -p evil_plugin'], true],
  ['PYTEST_ADDOPTS="-x --tb=short" pytest', ['pytest'], true],
  ['PYTHONWARNINGS=ignore::DeprecationWarning pytest', ['pytest'], true],
  ['python -m pytest -q', ['python -m pytest'], true],
  ['python3 -m pytest -k login', ['python3 -m pytest'], true],
  ['python script.py -c x', ['python'], true],
  ['python -V', ['python'], true],
  ['git status', ['git status'], true],
  ['git -c color.ui=never diff --stat', ['git'], true],
  ['git -c core.quotepath=off status --short', ['git'], true],
  ['git -c user.name=Bot -c user.email=bot@example.com commit -m x', ['git'], true],
  ['git log --oneline -5', ['git log'], true],
  ['git commit -m "fix: x"', ['git commit'], true],
  ['git config user.name "Bob"', ['git config'], true],
  ['git config --get core.pager', ['git config'], true],
  ['git rebase --onto main topic', ['git rebase'], true],
  ['git --exec-path', ['git'], true],
  ['git diff --name-only | xargs pytest --', ['git diff', 'pytest'], true],
  ['make test', ['make test'], true],
  ['make -j4 -k test', ['make'], true],
  ['make test V=1', ['make test V=*'], true],
  ['node --test', ['node --test*'], true],
  ['node --test --test-reporter=spec', ['node --test*'], true],
  ['node --test --test-name-pattern=login', ['node --test*'], true],
  ['node app.js -e x --require y', ['node'], true],
  ['node --title srv app.js', ['node'], true],
  ['node -v', ['node'], true],
  ["node -e 'console.log(1)'", ['node -e'], true],
  ['node -pe 1+1', ['node -pe'], true],
  ["python -Ic 'print(1)'", ['python -Ic'], true],
  ['node --import tsx --test test/x.test.ts', ['node --import tsx --test*'], true],
  ['NODE_OPTIONS=--max-old-space-size=4096 npm test', ['npm test'], true],
  ['NODE_OPTIONS=--require=./setup.js npm test', ['NODE_OPTIONS=--require=./setup.js npm test'], true],
  ['go test ./... -run TestX -v', ['go test'], true],
  ['go build -ldflags="-s -w" ./cmd/x', ['go build'], true],
  ['mvn test -DskipTests', ['mvn test'], true],
  ['mvn -pl :core -rf :core -fae test', ['mvn'], true],
  ['mvn dependency:tree', ['mvn'], true],
  ['gradle test --offline -Dorg.gradle.parallel=true', ['gradle test'], true],
  ['bun test --watch', ['bun test'], true],
];

for (const [command, allowedCommands, verdict] of [...denied, ...allowed]) {
  test(`${verdict === true ? 'allows' : 'denies'} ${JSON.stringify(command)} under ${JSON.stringify(allowedCommands)}`, async () => {
    const v = await analyseCommand(command, { allowedCommands, blockedEnv: [], writeAllowed: true });
    // What a command writes is the path rules' business (git rebase changes the whole tree: shell-options.test.ts).
    if (verdict === true) assert.deepEqual({ ...v, writes: undefined }, { ok: true, writes: undefined });
    else {
      assert.equal(v.ok, false, 'was allowed');
      if (!v.ok) assert.match(v.reason, verdict);
    }
  });
}

const shapes: [string, boolean, string | undefined][] = [
  ['$X', true, undefined],
  ['"$X"', false, undefined],
  ['"tests/$X"', false, 't'],
  ['tests/$X', true, 't'],
  ['*.py', false, undefined],
  ["'-'$X", true, '-'],
  ['$((1+2))', false, undefined],
  ['{a,b}', true, undefined],
  // brace expansion after a literal start gives words that all start with it (pytest tests/{a,b}.py)
  ['tests/{a,b}.py', false, 't'],
  ['-x{,-p}', true, '-'],
  ['{}', false, '{'],
];
for (const [text, splits, first] of shapes) {
  test(`dynamicShape(${text})`, () => assert.deepEqual(dynamicShape(text), { splits, first }));
}

const DOCS = join(__dirname, '..', '..', 'docs', 'enforcement.md');
const BEGIN = '<!-- command-risks: generated from src/engine/shell/command-risks.ts -->';
const END = '<!-- command-risks: end -->';

test('docs/enforcement.md lists exactly the table of command-risks.ts', () => {
  const text = readFileSync(DOCS, 'utf8');
  const from = text.indexOf(BEGIN);
  const to = text.indexOf(END);
  assert.ok(from >= 0 && to > from, `docs/enforcement.md has no ${BEGIN} ... ${END} section`);
  const want = `${BEGIN}\n${commandRisksMarkdown()}\n${END}`;
  if (process.env.UPDATE_RISK_DOCS === '1') writeFileSync(DOCS, text.slice(0, from) + want + text.slice(to + END.length));
  else assert.equal(text.slice(from, to + END.length), want, 'run UPDATE_RISK_DOCS=1 node --import tsx --test test/unit/command-risks.test.ts');
});
