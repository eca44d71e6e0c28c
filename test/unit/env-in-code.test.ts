/**
 * Issue 29, leftovers: under `blocked_env`, programs that read the
 * environment from inside their own language (awk's ENVIRON, perl's %ENV,
 * python's os.environ / os.getenv, node's process.env, ruby's ENV, jq's
 * env / $ENV) are denied with a reason; each `reads` row was allowed before
 * (os.environ was denied, but as "process information under /proc"). The
 * `lists` rows (printenv, env, export -p, declare -x, set) were denied
 * already and are kept so they stay denied. Everyday rows pass.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseCommand, type ShellRules } from '../../src/engine/shell/analyse';

const BLOCKED: ShellRules = { allowedCommands: undefined, blockedEnv: ['SECRET'], writeAllowed: true };

const reads: Array<[string, RegExp]> = [
  ["awk 'BEGIN{print ENVIRON[\"SECRET\"]}'", /its awk program reads the environment \(awk's ENVIRON/],
  ["gawk -e 'BEGIN{for (k in ENVIRON) print k}'", /its awk program reads the environment/],
  ["awk -F: 'BEGIN{system(\"printenv\")}'", /the awk program runs commands.*can print the environment/],
  ['awk "$PROG" f', /its awk program text \("\$PROG"\) is only known when it runs/],
  ["perl -e 'print $ENV{SECRET}'", /its perl program reads the environment \(perl's %ENV/],
  ["perl -le 'print for %ENV'", /its perl program reads the environment/],
  ["perl -E 'say join q(,), keys %main::ENV'", /its perl program/],
  ["python3 -c 'import os; print(os.getenv(\"SECRET\"))'", /its python program reads the environment \(python's os.environ \/ os.getenv/],
  ["python -c 'from os import getenv as g; print(g(\"SECRET\"))'", /its python program reads the environment/],
  ["python -c 'import os; print(os.environ[\"SECRET\"])'", /it names `environ` \(a program's environment/],
  ['python -c "$CODE"', /its python program text \("\$CODE"\) is only known when it runs/],
  ["node -e 'console.log(process.env.SECRET)'", /its node program reads the environment \(node's process.env/],
  ["node -pe 'process.env'", /its node program reads the environment/],
  ["node --eval='const {env} = process; console.log(env)'", /its node program/],
  ["node -p 'process[\"en\" + \"v\"]'", /its node program/],
  ["ruby -e 'puts ENV[\"SECRET\"]'", /its ruby program reads the environment \(ruby's ENV/],
  ["ruby -ne 'print ENV.to_h' f", /its ruby program/],
  ['jq -n env', /its jq program reads the environment \(jq's `env` and `\$ENV`/],
  ["jq -n '$ENV.SECRET'", /its jq program reads the environment/],
  ["jq -r --arg k v 'env | keys' f.json", /its jq program/],
  ["env python3 -c 'import os; print(os.getenv(\"SECRET\"))'", /its python program reads the environment/],
];

const lists: Array<[string, RegExp]> = [
  ['printenv', /it prints environment variables/],
  ['printenv SECRET', /it prints environment variables/],
  ['env', /it prints the environment/],
  ['env -u HOME', /it prints the environment/],
  ['export -p', /it lists variables/],
  ['declare -x', /it lists variables/],
  ['set', /it prints every shell variable/],
];

const everyday = [
  "awk '{print $1}' f",
  "awk -F: '{print $1}' /etc/passwd",
  'awk \'{print $1}\' "$FILE"',
  'awk -f prog.awk f',
  "perl -ne 'print if /x/' f",
  "perl -0777 -pi -e 's/a/b/' f",
  "python -c 'print(1)'",
  'python -m pytest -k env',
  'python script.py',
  "node -e 'console.log(1)'",
  'node --test test/',
  "ruby -e 'puts 1'",
  'jq .name f.json',
  "jq '.env' f.json",
  "jq --arg env prod '.x' f.json",
  'printenv HOME',
  'env FOO=1 pytest',
  'set -e',
];

for (const [command, why] of [...reads, ...lists]) {
  test(`blocked_env denies ${JSON.stringify(command)}`, async () => {
    const v = await analyseCommand(command, BLOCKED);
    assert.equal(v.ok, false, 'was allowed');
    if (!v.ok) assert.match(v.reason, why);
  });
}

for (const command of everyday) {
  test(`blocked_env allows ${JSON.stringify(command)}`, async () => {
    const v = await analyseCommand(command, BLOCKED);
    assert.equal(v.ok, true, v.ok ? '' : v.reason);
  });
}
