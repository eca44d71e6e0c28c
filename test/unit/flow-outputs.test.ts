/**
 * `var()` and `file()`: one trailing newline removed from a variable, the
 * whole stdout written to a workspace-relative file, and a file() that leaves
 * the workspace (absolute, `..`, a symlinked folder or file pointing outside)
 * refused before anything runs, with nothing written.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FlowError, startFlow } from '../../src/engine/index.js';
import { captured, outputFilePath } from '../../src/engine/flow/outputs.js';
import { bash, flowWorkspace, listing } from './helpers/flow-workspace.js';
import { testHost } from './helpers/flow-host.js';
import { tempDir } from './helpers/temp-dir.js';

describe('captured', () => {
  const cases: [string, string][] = [
    ['a\n', 'a'],
    ['a\n\n', 'a\n'],
    ['a\r\n', 'a'],
    ['a', 'a'],
    ['', ''],
    ['\n', ''],
    [' a \n', ' a '],
  ];
  for (const [stdout, value] of cases) it(JSON.stringify(stdout), () => assert.equal(captured(stdout), value));
});

describe('outputFilePath', () => {
  it('inside, outside, and through symlinks', (t) => {
    const ws = tempDir('sg-flow-out-', t);
    const outside = tempDir('sg-flow-outside-', t);
    fs.mkdirSync(path.join(ws, 'in'));
    fs.symlinkSync(outside, path.join(ws, 'away'));
    fs.symlinkSync(path.join(outside, 'f.txt'), path.join(ws, 'away.txt'));
    fs.symlinkSync(path.join(ws, 'in'), path.join(ws, 'near'));
    fs.symlinkSync(path.join(ws, 'in', 'nothing', 'x'), path.join(ws, 'dangling.txt'));
    const cases: [string, boolean][] = [
      ['out.txt', true],
      ['logs/deep/out.txt', true],
      ['./in/../out.txt', true],
      ['near/x.txt', true],
      ['../x.txt', false],
      ['in/../../x.txt', false],
      [path.join(outside, 'x.txt'), false],
      ['away/x.txt', false],
      ['away/new/deeper/x.txt', false],
      ['away.txt', false],
      ['dangling.txt', false],
    ];
    for (const [rel, ok] of cases) assert.equal('abs' in outputFilePath(ws, rel), ok, rel);
  });
});

describe('outputs in a run', () => {
  it('var() drops one trailing newline; file() writes stdout whole, making folders', async (t) => {
    const ws = flowWorkspace(t, {
      'o.flow.yaml': { 'start-at': 'a', states: { a: bash("printf 'x\\n\\n'", { output: 'var(v)', next: 'b' }), b: bash("printf 'y\\n\\n'", { output: 'file(logs/b/out.txt)' }) } },
    });
    const s = await startFlow(testHost(ws), { file: 'o.flow.yaml' });
    assert.equal(s.status, 'completed');
    assert.equal(s.variables.v, 'x\n');
    assert.equal(fs.readFileSync(path.join(ws, 'logs/b/out.txt'), 'utf8'), 'y\n\n');
  });

  it('output is captured from a failing state too (a handler reads it)', async (t) => {
    const ws = flowWorkspace(t, {
      'o.flow.yaml': { 'start-at': 'a', states: { a: bash('echo broken; exit 2', { output: 'var(v)', 'on-error': { _: 'b' } }), b: bash('echo "got {{ v }}"', { output: 'var(w)' }) } },
    });
    const s = await startFlow(testHost(ws), { file: 'o.flow.yaml' });
    assert.equal(s.variables.w, 'got broken');
  });

  for (const [name, out, code] of [
    ['a `..` out of the workspace', '../escape.txt', 'invalid_flow'],
    ['an absolute path', '/tmp/escape.txt', 'invalid_flow'],
    ['a symlinked folder pointing outside', 'away/escape.txt', 'invalid_flow'],
  ] as const) {
    it(`${name} is refused before anything runs, nothing written`, async (t) => {
      const outside = tempDir('sg-flow-outside-', t);
      const ws = flowWorkspace(t, {
        'o.flow.yaml': { 'start-at': 'a', states: { a: bash('touch ran.txt; echo hi', { output: `file(${out})` }) } },
      });
      fs.symlinkSync(outside, path.join(ws, 'away'));
      const before = listing(ws);
      await assert.rejects(startFlow(testHost(ws), { file: 'o.flow.yaml' }), (err: unknown) => err instanceof FlowError && err.code === code && /outside the workspace/.test(err.message));
      assert.deepEqual(listing(ws), before);
      assert.deepEqual(fs.readdirSync(outside), []);
    });
  }

  it('a symlink made during the run is refused when writing: the state fails, nothing lands outside', async (t) => {
    const outside = tempDir('sg-flow-outside-', t);
    const ws = flowWorkspace(t, {
      'o.flow.yaml': { 'start-at': 'a', states: { a: bash(`ln -s ${outside} later; echo hi`, { output: 'file(later/x.txt)' }) } },
    });
    const s = await startFlow(testHost(ws), { file: 'o.flow.yaml' });
    assert.equal(s.status, 'failed');
    assert.match(s.message ?? '', /output not written: `file\(later\/x\.txt\)` is outside the workspace/);
    assert.deepEqual(fs.readdirSync(outside), []);
  });
});
