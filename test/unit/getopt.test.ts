/**
 * getopt.ts reads options as glibc's getopt_long does, from the tables of
 * program-options.ts. Each row says how the real program read the same words
 * on the machine the tables were written on (GNU coreutils 9.1, findutils
 * 4.9, sed 4.9), run by hand:
 *
 *   env --s='echo hi'                      prints hi (--split-string)
 *   X=1 env --uns X sh -c 'echo ${X-unset}'  prints unset (--unset)
 *   env --d true                           "option '--d' is ambiguous; possibilities: '--default-signal' '--debug'", exit 125
 *   echo a | xargs --process-slot=SLOT sh -c 'echo slot=$SLOT'   prints slot=0 (--process-slot-var)
 *   echo a | xargs --max echo             "option '--max' is ambiguous", exit 1
 *   sort --outp=f in                       writes f (--output)
 *   sort -uof2 in                          writes f2 (-u, then -o takes the rest of the cluster)
 *   sed -ie s/a/b/ g                       rewrites g and keeps ge (-i takes `e` as its suffix)
 *   timeout --s=KILL 5 true; nice -10 true  exit 0
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalWords, getopt } from '../../src/engine/shell/getopt';
import { CHMOD_OPTIONS, CP_OPTIONS, RM_OPTIONS, TOUCH_OPTIONS } from '../../src/engine/shell/file-options';
import { SUDO_OPTIONS } from '../../src/engine/shell/sudo-options';
import { ENV_OPTIONS, NICE_OPTIONS, SED_OPTIONS, SORT_OPTIONS, TIMEOUT_OPTIONS, XARGS_OPTIONS } from '../../src/engine/shell/program-options';
import type { ProgramOptions } from '../../src/engine/shell/option-spec';
import type { Word } from '../../src/engine/shell/words';

const words = (...vs: string[]): Word[] => vs.map((v) => ({ value: v, dynamic: /[$*{]/.test(v), text: v }));

/** Each option as `full name=value` (or the name alone), then `| operands`, or `error: ...`. */
function reading(t: ProgramOptions, ws: Word[]): string {
  const r = getopt(t, ws);
  if (!r.ok) return `error: ${r.error}`;
  const opts = r.options.map((o) => `${o.spec.long?.[0] ?? o.spec.short?.[0]}${o.value ? `=${o.value.value}` : ''}`);
  return [...opts, '|', ...r.operands.map((o) => o.word.value)].join(' ');
}

const rows: Array<[ProgramOptions, string[], string | RegExp]> = [
  [ENV_OPTIONS, ['env', "--s=echo hi"], 'split-string=echo hi |'],
  [ENV_OPTIONS, ['env', '--uns', 'X', 'true'], 'unset=X | true'],
  [ENV_OPTIONS, ['env', '-iuX', 'true'], 'ignore-environment unset=X | true'],
  [ENV_OPTIONS, ['env', '--d', 'true'], /error: env --d is ambiguous/],
  [ENV_OPTIONS, ['env', '--debug=x', 'true'], /error: env --debug takes no value/],
  [ENV_OPTIONS, ['env', '--block-signal', 'INT', 'true'], 'block-signal | INT true'],
  [ENV_OPTIONS, ['env', '--block-signal=INT', 'true'], 'block-signal=INT | true'],
  [ENV_OPTIONS, ['env', 'A=1', '-i', 'true'], '| A=1 -i true'],
  [ENV_OPTIONS, ['env', '-u'], /error: env -u needs a value/],
  [ENV_OPTIONS, ['env', '-q', 'true'], /error: env -q is not an option stategate knows for env/],
  [ENV_OPTIONS, ['env', '$X', 'true'], /error: `\$X` is only known when it runs/],
  [XARGS_OPTIONS, ['xargs', '--process-slot=SLOT', 'sh'], 'process-slot-var=SLOT | sh'],
  [XARGS_OPTIONS, ['xargs', '--max', 'echo'], /error: xargs --max is ambiguous/],
  [XARGS_OPTIONS, ['xargs', '-i', 'echo', '{}'], 'replace | echo {}'],
  [XARGS_OPTIONS, ['xargs', '-iX', 'echo', 'X'], 'replace=X | echo X'],
  [XARGS_OPTIONS, ['xargs', '-I', 'X', 'echo', 'X'], 'I=X | echo X'],
  [XARGS_OPTIONS, ['xargs', '-e', 'echo'], 'eof | echo'],
  [SORT_OPTIONS, ['sort', '--outp=f', 'in'], 'output=f | in'],
  [SORT_OPTIONS, ['sort', 'in', '--output', 'f'], 'output=f | in'],
  [SORT_OPTIONS, ['sort', '-uof2', 'in'], 'unique output=f2 | in'],
  [SORT_OPTIONS, ['sort', '--co=gzip', 'in'], 'compress-program=gzip | in'],
  [SORT_OPTIONS, ['sort', '--c', 'in'], /error: sort --c is ambiguous/],
  [SORT_OPTIONS, ['sort', '--', '-o', 'x'], '| -o x'],
  [SED_OPTIONS, ['sed', '-ie', 's/a/b/', 'g'], 'in-place=e | s/a/b/ g'],
  [SED_OPTIONS, ['sed', '--in-pl', 's/a/b/', 'g'], 'in-place | s/a/b/ g'],
  [SED_OPTIONS, ['sed', '--exp=1e id', '-n', 'f'], 'expression=1e id quiet | f'],
  [TIMEOUT_OPTIONS, ['timeout', '--s=KILL', '5', 'true'], 'signal=KILL | 5 true'],
  [NICE_OPTIONS, ['nice', '-10', 'true'], '| true'],
  // file commands (coreutils 9.1): `cp --targ D a` copies a into D; `chmod -x f` takes -x as the mode
  [CP_OPTIONS, ['cp', '--targ', 'D', 'a'], 'target-directory=D | a'],
  [CP_OPTIONS, ['cp', '-rt', 'D', 'a'], 'recursive target-directory=D | a'],
  [CP_OPTIONS, ['cp', 'a', 'b', '-v'], 'verbose | a b'],
  [RM_OPTIONS, ['rm', '-rf', '--', '-x'], 'recursive force | -x'],
  [TOUCH_OPTIONS, ['touch', '-d', '1 day ago', 'f'], 'date=1 day ago | f'],
  // (the mode letters share one entry, shown by its first letter: -x is `r`, -Rrwx is -R then `r` with `wx`)
  [CHMOD_OPTIONS, ['chmod', '-x', 'f'], 'r | f'],
  [CHMOD_OPTIONS, ['chmod', '-Rrwx', 'f'], 'recursive r=wx | f'],
  [CHMOD_OPTIONS, ['chmod', '+x', 'f'], '| +x f'],
  // sudo (1.9): options end at the command; `-h` alone is help, --preserve-env takes an attached list
  [SUDO_OPTIONS, ['sudo', '-u', 'www', 'ls', '-l'], 'user=www | ls -l'],
  [SUDO_OPTIONS, ['sudo', '--preserve-env=PATH', 'ls'], 'preserve-env=PATH | ls'],
  [SUDO_OPTIONS, ['sudo', '--pr', 'ls'], /error: sudo --pr is ambiguous/],
];

for (const [t, ws, want] of rows) {
  test(`getopt ${t.program}: ${JSON.stringify(ws.slice(1))}`, () => {
    const got = reading(t, words(...ws));
    if (typeof want === 'string') assert.equal(got, want);
    else assert.match(got, want);
  });
}

test('canonicalWords spells each option in full, a required value as a word of its own, and keeps operands that look like options after --', () => {
  const ws = words('sort', '--outp=f', '-uk2', 'in');
  const r = getopt(SORT_OPTIONS, ws);
  assert.ok(r.ok);
  if (r.ok) assert.deepEqual(canonicalWords(ws, r).map((w) => w.value), ['sort', '--output', 'f', '--unique', '--key', '2', 'in']);
  const sed = words('sed', '-i.bak', '-n', 's/a/b/', 'f');
  const rs = getopt(SED_OPTIONS, sed);
  assert.ok(rs.ok);
  if (rs.ok) assert.deepEqual(canonicalWords(sed, rs).map((w) => w.value), ['sed', '--in-place=.bak', '--quiet', 's/a/b/', 'f']);
  // A letter with no long name stays as written (chmod's mode letters share one table entry).
  const chmod = words('chmod', '-x', '-R', 'f');
  const rc = getopt(CHMOD_OPTIONS, chmod);
  assert.ok(rc.ok);
  if (rc.ok) assert.deepEqual(canonicalWords(chmod, rc).map((w) => w.value), ['chmod', '-x', '--recursive', 'f']);
});
