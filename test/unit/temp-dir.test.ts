// Tests leave nothing in the temp folder: they make their folders with
// helpers/temp-dir.ts, which removes them after the test or at exit.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const HELPER = path.join(__dirname, 'helpers', 'temp-dir.ts');

/** Runs `body` in a node process that loaded the helper, with TMPDIR=`tmp`; returns what it printed and how it ended. */
function child(tmp: string, body: string, env: Record<string, string> = {}): { status: number | null; stdout: string } {
  const code = `const { tempDir } = require(${JSON.stringify(HELPER)});\n${body}`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp, ...env } });
  return { status: r.status, stdout: r.stdout };
}

test('a folder made with a test context is gone once that test is done', async (t) => {
  let made = '';
  await t.test('makes a folder', (st) => {
    made = tempDir('sg-tempdir-', st);
    fs.writeFileSync(path.join(made, 'f'), 'x');
    assert.ok(fs.existsSync(made));
  });
  assert.ok(made && !fs.existsSync(made), `${made} was removed after its test`);
});

test('folders made without a context are gone when the process exits, also after a failure', (t) => {
  const tmp = tempDir('sg-tempdir-tmp-', t);
  const ok = child(tmp, "console.log(tempDir('sg-a-')); console.log(tempDir('sg-b-'));");
  assert.equal(ok.status, 0);
  const failed = child(tmp, "console.log(tempDir('sg-c-')); throw new Error('a failing test');");
  assert.notEqual(failed.status, 0);
  const printed = `${ok.stdout}${failed.stdout}`.trim().split('\n');
  assert.equal(printed.length, 3);
  for (const dir of printed) assert.ok(dir.startsWith(tmp) && !fs.existsSync(dir), `${dir} was removed at exit`);
  assert.deepEqual(fs.readdirSync(tmp).filter((e) => e.startsWith('sg-')), []);
});

test('STATEGATE_KEEP_TEMP=1 keeps them, to look at what a test left', (t) => {
  const tmp = tempDir('sg-tempdir-tmp-', t);
  const kept = child(tmp, "console.log(tempDir('sg-kept-'));", { STATEGATE_KEEP_TEMP: '1' }).stdout.trim();
  assert.ok(kept.startsWith(tmp) && fs.existsSync(kept));
});

test('no test makes a temp folder by itself: every one goes through helpers/temp-dir.ts', () => {
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'fixtures') walk(p);
      } else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(e.name) && p !== HELPER) {
        fs.readFileSync(p, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/\bmkdtemp(Sync)?\s*\(|mkdirSync\([^)]*tmpdir\(\)/.test(line)) offenders.push(`${path.relative(REPO_ROOT, p)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
  };
  walk(path.join(REPO_ROOT, 'test'));
  assert.deepEqual(offenders, [], 'use tempDir(prefix, t) from test/unit/helpers/temp-dir.ts, which removes the folder');
});
