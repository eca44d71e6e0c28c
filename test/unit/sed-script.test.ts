import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sedEffects, sedScripts } from '../../src/engine/sed-script';

const effectRows: [string, boolean, boolean][] = [
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
  ['w out', false, true],
  ['s/x/y/w out', false, true],
  ['2W out', false, true],
  ['s/unterminated', true, false],
  ['K', true, false],
];
for (const [script, runs, writes] of effectRows) {
  test(`sedEffects(${JSON.stringify(script)})`, () => assert.deepEqual(sedEffects(script), { runs, writes }));
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
