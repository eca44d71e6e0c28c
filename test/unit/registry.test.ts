/**
 * Invoke resolution on disk: by workflow id beside the file and in the nearest
 * `.stategate/workflows/`, by names registered in a manifest.json, and the
 * invoke rules that depend on it (unknown workflow, cycles across files).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkWorkflowFile } from '../../src/engine/check.js';
import { WorkflowRegistry } from '../../src/engine/registry.js';
import { lit, withCode } from './support/ranges.js';
import { tempDir } from './helpers/temp-dir';

function workflow(id: string, invoke?: string): string {
  const start = invoke ? { on: { GO: { invoke, on_complete: 'done' } } } : { on: { GO: 'done' } };
  return JSON.stringify({ id, initial: 'start', states: { start, done: { type: 'final' } } });
}

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

describe('checkWorkflowFile with invokes on disk', () => {
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
