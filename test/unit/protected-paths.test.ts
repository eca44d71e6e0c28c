/** Which paths an agent's file tools may not write while a run is enforced (protected-paths.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { protectedPathReason } from '../../src/engine/util/paths/protected';

const cases: Array<[path: string, protectedPath: boolean]> = [
  ['.stategate/active', true],
  ['.stategate/runs/r1/run.json', true],
  ['.stategate/runs/r1/journal.jsonl', true],
  ['/home/me/project/.stategate/active', true],
  ['./.stategate//runs/r1/run.json', true],
  ['src/../.stategate/active', true],
  ['C:\\work\\project\\.stategate\\active', true],
  ['.STATEGATE/active', true],
  ['.stategate/workflows/../active', true],
  ['.stategate/sessions/s1.briefed', true],
  ['.stategate/workflows/review.json', false],
  ['.stategate/workflows/nested/deploy.json', false],
  ['.stategate/../src/app.ts', false],
  ['src/.stategate-notes.md', false],
  ['docs/stategate/active', false],
  ['.stategate', false],
  ['src/app.ts', false],
];

for (const [path, expected] of cases) {
  test(`${path}: ${expected ? 'the run\'s own file, refused' : 'an ordinary file'}`, () => {
    const why = protectedPathReason(path);
    if (expected) assert.match(why ?? '', /only stategate writes/);
    else assert.equal(why, undefined);
  });
}
