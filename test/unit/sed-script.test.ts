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
];
for (const [script, runs, writes, files = []] of effectRows) {
  // `files`: what w / W / s///w write (the path rules check them).
  test(`sedEffects(${JSON.stringify(script)})`, () => assert.deepEqual(sedEffects(script), { runs, writes, files }));
}

const scriptRows: [string[], string[] | undefined][] = [
  [['-n', '1p', 'f'], ['1p']],
  [['-e', 's/a/b/', '-e', 'p', 'f'], ['s/a/b/', 'p']],
  [['--expression=1e id', 'f'], ['1e id']],
  [['-ne', '2p', 'f'], ['2p']],
  [['-f', 's.sed', 'f'], undefined],
  [['-nf', 's.sed'], undefined],
];
for (const [args, want] of scriptRows) test(`sedScripts(${JSON.stringify(args)})`, () => assert.deepEqual(sedScripts(args), want));
