/**
 * Every real workflow in ../shared/corpus (beside this repository) checks with
 * zero errors and zero warnings: loader, schema and semantic rules together,
 * with invokes resolved through the files and manifests beside each workflow;
 * and every registry manifest there checks clean as a manifest.
 * Skipped in a clone without ../shared, except under CI (helpers/shared-material.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkFile } from '../../src/engine/check/check-file.js';
import { MANIFEST_FILE } from '../../src/engine/formats/registry-manifest.js';
import { WorkflowRegistry } from '../../src/engine/formats/registry.js';
import { requireShared } from './helpers/shared-material.js';

const { dir: corpus, present, skip } = requireShared('corpus');

function jsonFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? jsonFiles(path.join(dir, e.name)) : e.name.endsWith('.json') ? [path.join(dir, e.name)] : []))
    .sort();
}

describe('corpus', { skip }, () => {
  const all = present ? jsonFiles(corpus) : [];
  const manifests = all.filter((f) => path.basename(f) === MANIFEST_FILE);
  const files = all.filter((f) => !manifests.includes(f));

  it('holds workflow files, including the stitch folder and its manifest', () => {
    assert.ok(files.length >= 17, `found only ${files.length} workflow files under ${corpus}`);
    assert.ok(files.some((f) => f.includes(`${path.sep}stitch${path.sep}`)));
    assert.ok(manifests.length >= 1);
  });

  for (const file of manifests) {
    it(`${path.relative(corpus, file)} checks as a registry manifest with no errors and no warnings`, () => {
      const result = checkFile(fs.readFileSync(file, 'utf8'), file);
      assert.equal(result.format, 'registry');
      assert.deepEqual(result.diagnostics.map((d) => `${d.severity} ${d.code} at ${d.loc.pointer}: ${d.message}`), []);
    });
  }

  for (const file of files) {
    const name = path.relative(corpus, file);
    it(`${name} checks with no errors and no warnings`, () => {
      const result = checkFile(fs.readFileSync(file, 'utf8'), file);
      const found = result.diagnostics.map((d) => `${d.severity} ${d.code} at ${d.loc.pointer}: ${d.message}`);
      assert.deepEqual(found, []);
      assert.ok(result.workflow && result.workflow.states.size > 0);
      assert.ok([...result.workflow.states.values()].some((s) => s.kind === 'final'));
    });
  }

  it('resolves the stitch feature DAG invokes by their registered manifest names', () => {
    const dag = path.join(corpus, 'stitch', 'feature-dag.json');
    const found = new WorkflowRegistry().resolve('[stitch] intake-localize v1', dag);
    assert.equal(found?.file, path.join(corpus, 'stitch', 'intake-localize.json'));
    assert.equal(found?.workflow.id, 'stitch-intake-localize-v1');
  });
});
