import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sedEffects, sedScripts } from '../../src/engine/shell/sed-script';

const effectRows: [string, boolean, boolean, string[]?][] = [
  ['1,40p', false, false],
  ['/error/p', false, false],
  ['s/a/b/g', false, false],
  ['s|a|b|; s#c#d#g', false, false],
  ['/foo/,/bar/{p;q}', false, false],
  ['$!d', false, false],
  ['y/abc/xyz/', false, false],
  ['\\,x,p', false, false],
  ['a text with e and w in it', false, false],
  ['# a comment with e\np', false, false],
  ['1e whoami', true, false],
  ['s/x/whoami/e', true, false],
  ['s/a/b/;e', true, false],
  ['/foo/{e id\n}', true, false],
  ['w out', false, true, ['out']],
  ['s/x/y/w out', false, true, ['out']],
  ['2W out', false, true, ['out']],
  ['s/x/y/gw .claude/settings.json\np', false, true, ['.claude/settings.json']],
  ['/a/w one\n/b/w  two', false, true, ['one', 'two']],
  ['s/unterminated', true, false],
  ['K', true, false],
  // Labels end at a blank or `;` (GNU sed 4.9 runs `echo X` for `:a e echo X` and `ta e echo X`):
  // before, the rest of the line was taken as the label and the `e` was not seen.
  [':a e echo X', true, false],
  [':a;e id', true, false],
  ['ta e id\n:a', true, false],
  ['b end;e id', true, false],
  [':a;N;$!ba;s/\\n/ /g', false, false],
  ['/x/b end\ns/a/b/\n:end', false, false],
  // a/i/c text goes on while a line ends in an odd number of backslashes (GNU sed 4.9: `1a hello\`
  // NEWLINE `e echo X` appends the line `e echo X`; after `hello\\` NEWLINE it runs it).
  ['1a\\\nhello', false, false],
  ['1a hello\\\ne echo X', false, false],
  ['1a\\\nhello\\\\\ne echo X', true, false],
];
for (const [script, runs, writes, files = []] of effectRows) {
  // `files`: what w / W / s///w write (the path rules check them).
  test(`sedEffects(${JSON.stringify(script)})`, () => assert.deepEqual(sedEffects(script), { runs, writes, files }));
}

const scriptRows: [string[], string[] | undefined][] = [
  [['-n', '1p', 'f'], ['1p']],
  // -e pieces are the lines of one script (GNU sed: `sed -e '1a\' -e hello` appends hello).
  [['-e', 's/a/b/', '-e', 'p', 'f'], ['s/a/b/\np']],
  [['-e', '1a\\', '-e', 'hello', '-e', 'e id', 'f'], ['1a\\\nhello\ne id']],
  [['--expression=1e id', 'f'], ['1e id']],
  [['-ne', '2p', 'f'], ['2p']],
  [['-f', 's.sed', 'f'], undefined],
  [['-nf', 's.sed'], undefined],
];
for (const [args, want] of scriptRows) test(`sedScripts(${JSON.stringify(args)})`, () => assert.deepEqual(sedScripts(args), want));
