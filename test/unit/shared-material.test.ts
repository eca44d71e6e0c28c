/**
 * Tests that read material outside the repository (helpers/shared-material.ts),
 * run as in a user's clone: with ../shared hidden (STATEGATE_SHARED pointing at
 * a folder that does not exist) the corpus tests are skipped with the reason,
 * and under CI they fail.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './helpers/cli.js';
import { underCi } from './helpers/shared-material.js';
import { tempDir } from './helpers/temp-dir';

const tmp = tempDir('sg-shared-');
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** corpus.test.ts in a child test runner with ../shared hidden; its TAP report and exit code. */
function corpusTestsWithoutShared(ci: string): { code: number | null; out: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, STATEGATE_SHARED: path.join(tmp, 'no-such-folder'), CI: ci };
  delete env.NODE_TEST_CONTEXT; // set for children of a test runner: the child would report to us instead of printing
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', 'test/unit/corpus.test.ts'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

describe('tests that need ../shared, when it is absent', () => {
  it('are skipped with the reason on a person’s machine', () => {
    const { code, out } = corpusTestsWithoutShared('');
    assert.equal(code, 0, out);
    assert.match(out, /ok \d+ - \.\.\/shared\/corpus is present beside the repository # SKIP .*no-such-folder[/\\]corpus is absent: \.\.\/shared\/corpus is material outside the repository/);
    assert.match(out, /ok \d+ - corpus # SKIP /);
    assert.match(out, /# fail 0/);
  });

  it('fail under CI, saying what is missing', () => {
    const { code, out } = corpusTestsWithoutShared('true');
    assert.equal(code, 1, out);
    assert.match(out, /not ok \d+ - \.\.\/shared\/corpus is present beside the repository/);
    assert.match(out, /no-such-folder[/\\]corpus is absent: .*under CI \(CI=true\) it must be there/);
    assert.doesNotMatch(out, /# SKIP/);
  });
});

describe('underCi', () => {
  const rows: Array<[string | undefined, boolean]> = [
    ['true', true],
    ['1', true],
    ['TRUE', true],
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
  ];
  for (const [ci, expected] of rows) {
    it(`CI=${JSON.stringify(ci)} → ${expected}`, () => assert.equal(underCi(ci === undefined ? {} : { CI: ci }), expected));
  }
});
