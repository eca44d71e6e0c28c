/**
 * Invoke resolution on disk: by workflow id beside the file and in the nearest
 * `.stategate/workflows/`, by names registered in a manifest.json (a broken one
 * is reported, never read as empty), and the invoke rules that depend on it
 * (unknown workflow, broken manifest, cycles across files).
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { WorkflowRegistry } from '../../src/engine/formats/registry.js';
import { lit, withCode } from './support/ranges.js';
import { tempDir } from './helpers/temp-dir';

function workflow(id: string, invoke?: string): string {
  const start = invoke ? { on: { GO: { invoke, on_complete: 'done' } } } : { on: { GO: 'done' } };
  return JSON.stringify({ id, initial: 'start', states: { start, done: { type: 'final' } } });
}

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

/** A temporary tree: { 'relative/path.json': text }. */
function tree(files: Record<string, string>): string {
  const root = tempDir('sg-registry-');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

describe('WorkflowRegistry', () => {
  it('finds a workflow by id in the same folder', () => {
    const root = tree({ 'flows/main.json': workflow('main', 'child'), 'flows/child.json': workflow('child') });
    const found = new WorkflowRegistry().resolve('child', path.join(root, 'flows/main.json'));
    assert.equal(found?.file, path.join(root, 'flows/child.json'));
  });

  it('finds a workflow by a name registered in manifest.json', () => {
    const manifest = JSON.stringify({ workflows: [{ name: '[kit] child v1', file: 'impl/child.json' }] });
    const root = tree({ 'main.json': workflow('main'), 'manifest.json': manifest, 'impl/child.json': workflow('child') });
    const found = new WorkflowRegistry().resolve('[kit] child v1', path.join(root, 'main.json'));
    assert.equal(found?.workflow.id, 'child');
  });

  it('finds a workflow in the nearest .stategate/workflows/ above the file', () => {
    const root = tree({ 'src/deep/main.json': workflow('main'), '.stategate/workflows/shared.json': workflow('shared') });
    const found = new WorkflowRegistry().resolve('shared', path.join(root, 'src/deep/main.json'));
    assert.equal(found?.file, path.join(root, '.stategate/workflows/shared.json'));
  });

  it('finds nothing for an unknown name, and ignores files that are not workflows', () => {
    const root = tree({ 'main.json': workflow('main'), 'package.json': '{"name": "x"}', 'broken.json': '{' });
    assert.equal(new WorkflowRegistry().resolve('child', path.join(root, 'main.json')), undefined);
  });

  it('rereads a file whose content changed', () => {
    const root = tree({ 'main.json': workflow('main'), 'child.json': workflow('child') });
    const registry = new WorkflowRegistry();
    assert.ok(registry.resolve('child', path.join(root, 'main.json')));
    fs.writeFileSync(path.join(root, 'child.json'), workflow('renamed-child'));
    assert.equal(registry.resolve('child', path.join(root, 'main.json')), undefined);
    assert.ok(registry.resolve('renamed-child', path.join(root, 'main.json')));
  });
});

describe('WorkflowRegistry with a broken manifest', () => {
  const main = (root: string) => path.join(root, 'main.json');

  it('reports a malformed manifest, naming the file and what is wrong, instead of reading it as empty', () => {
    const root = tree({ 'main.json': workflow('main'), 'manifest.json': '{"workflows": 3}', 'child.json': workflow('child') });
    const found = new WorkflowRegistry().lookup('[kit] child v1', main(root));
    assert.ok(found && 'problem' in found, JSON.stringify(found));
    assert.match(found.problem, /manifest\.json is malformed at line 1, column 15: `workflows` must be an array/);
    assert.ok(found.problem.includes(path.join(root, 'manifest.json')));
    assert.equal(new WorkflowRegistry().resolve('[kit] child v1', main(root)), undefined);
  });

  it('reports a manifest that cannot be read', () => {
    const root = tree({ 'main.json': workflow('main') });
    fs.mkdirSync(path.join(root, 'manifest.json'));
    const found = new WorkflowRegistry().lookup('[kit] child v1', main(root));
    assert.match(found && 'problem' in found ? found.problem : '', /manifest\.json cannot be read \(EISDIR\)/);
  });

  it('reports a registered file that does not exist', () => {
    const root = tree({ 'main.json': workflow('main'), 'manifest.json': JSON.stringify({ workflows: [{ name: '[kit] x', file: 'gone.json' }] }) });
    const found = new WorkflowRegistry().lookup('[kit] x', main(root));
    assert.match(found && 'problem' in found ? found.problem : '', /registers `\[kit\] x` as .*gone\.json, which does not exist/);
  });

  it('still finds a workflow by id beside a broken manifest (ids are looked up first)', () => {
    const root = tree({ 'main.json': workflow('main'), 'manifest.json': '{', 'child.json': workflow('child') });
    assert.equal(new WorkflowRegistry().resolve('child', main(root))?.file, path.join(root, 'child.json'));
  });

  it('takes a workflow called manifest.json, or another tool\'s manifest.json, for no registry at all', () => {
    for (const other of [workflow('odd'), '{"name": "my web app", "icons": []}']) {
      const root = tree({ 'main.json': workflow('main'), 'manifest.json': other });
      assert.equal(new WorkflowRegistry().lookup('ghost', main(root)), undefined);
    }
  });

  it('reports a manifest.json too broken to tell what it is', () => {
    const root = tree({ 'main.json': workflow('main'), 'manifest.json': '{"name": ' });
    const found = new WorkflowRegistry().lookup('ghost', main(root));
    assert.match(found && 'problem' in found ? found.problem : '', /manifest\.json is malformed at line 1, column \d+: JSON syntax error/);
  });
});

describe('checkWorkflowFile with invokes on disk', () => {
  it('reports an invoke looked up through a broken manifest as an error at the name', () => {
    const text = workflow('main', '[kit] child v1');
    const root = tree({ 'main.json': text, 'manifest.json': '{"workflows": [' });
    const d = checkWorkflowFile(text, path.join(root, 'main.json')).diagnostics;
    assert.deepEqual(withCode(d, 'broken-manifest'), [{ code: 'broken-manifest', ...lit(text, '[kit] child v1') }]);
    const found = d.find((x) => x.code === 'broken-manifest');
    assert.equal(found?.severity, 'error');
    assert.ok(found?.message.includes(path.join(root, 'manifest.json')), found?.message);
    assert.deepEqual(withCode(d, 'unknown-workflow'), []);
  });

  it('warns about an invoke of a workflow that is not found', () => {
    const text = workflow('main', 'ghost');
    const root = tree({ 'main.json': text });
    const d = checkWorkflowFile(text, path.join(root, 'main.json')).diagnostics;
    assert.deepEqual(withCode(d, 'unknown-workflow'), [{ code: 'unknown-workflow', ...lit(text, 'ghost') }]);
    assert.equal(d.find((x) => x.code === 'unknown-workflow')?.severity, 'warning');
  });

  it('reports an invoke cycle across files as an error', () => {
    const text = workflow('a', 'b');
    const root = tree({ 'a.json': text, 'b.json': workflow('b', 'c'), 'c.json': workflow('c', 'a') });
    const d = checkWorkflowFile(text, path.join(root, 'a.json')).diagnostics;
    assert.deepEqual(withCode(d, 'invoke-cycle'), [{ code: 'invoke-cycle', ...lit(text, 'b', 0) }]);
    assert.match(d.find((x) => x.code === 'invoke-cycle')?.message ?? '', /`a` → `b` → `c` → `a`/);
  });

  it('accepts an invoke chain without a cycle', () => {
    const text = workflow('a', 'b');
    const root = tree({ 'a.json': text, 'b.json': workflow('b', 'c'), 'c.json': workflow('c') });
    assert.deepEqual(checkWorkflowFile(text, path.join(root, 'a.json')).diagnostics, []);
  });
});
