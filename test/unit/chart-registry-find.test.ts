// Finding the chart a `statechart:<id>[@version]` invoke runs (formats/chart-registry.ts
// findChart): the invoking chart's machine_registry, then .stategate/registry.yaml,
// then chart ids in the workspace folders; without a version the highest semver wins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ChartRegistry } from '../../src/engine/formats/chart-registry.js';
import { compareVersions } from '../../src/engine/formats/version-order.js';
import { loadWorkflowText } from '../../src/engine/formats/index.js';
import type { Workflow } from '../../src/engine/model/index.js';
import { tempDir } from './helpers/temp-dir.js';

function chart(id: string, version?: string, extra = ''): string {
  return `statechart:\n  id: ${id}\n${version ? `  version: "${version}"\n` : ''}${extra}  initial: a\n  states:\n    a: {type: final}\n`;
}

function write(dir: string, rel: string, text: string): string {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

function from(file: string): { workflow: Workflow; file: string } {
  return { workflow: loadWorkflowText(fs.readFileSync(file, 'utf8'), file).workflow as Workflow, file };
}

function found(r: ReturnType<ChartRegistry['findChart']>): string {
  assert.ok(!('problem' in r), 'problem' in r ? r.problem : '');
  return path.basename(r.file);
}

test('versions order as semver: 1.10.0 above 1.9.2, a release above its pre-releases, no version lowest', () => {
  const sorted = ['1.10.0', '1.9.2', '2.0.0-rc.1', '2.0.0', '2.0.0-beta', 'next', '1.9.10'].sort(compareVersions);
  assert.deepEqual(sorted, ['next', '1.9.2', '1.9.10', '1.10.0', '2.0.0-beta', '2.0.0-rc.1', '2.0.0']);
  assert.ok(compareVersions(undefined, 'next') < 0 && compareVersions('0.0.1', undefined) > 0);
});

test("the chart's own machine_registry first: the highest version without one, the named one with it", (t) => {
  const ws = tempDir('sg-chart-find-', t);
  write(ws, 'review-1.2.statechart.yaml', chart('review', '1.2.0'));
  write(ws, 'review-1.10.statechart.yaml', chart('review', '1.10.0'));
  const registry = [
    'machine_registry:',
    '  - {id: review, version: "1.2.0", src: review-1.2.statechart.yaml}',
    '  - {id: review, version: "1.10.0", src: review-1.10.statechart.yaml}',
    '',
  ].map((l) => (l ? `  ${l}` : l)).join('\n');
  const parent = write(ws, 'parent.statechart.yaml', chart('parent', undefined, registry));
  const reg = new ChartRegistry();
  assert.equal(found(reg.findChart('statechart:review', from(parent))), 'review-1.10.statechart.yaml');
  assert.equal(found(reg.findChart('statechart:review@1.2.0', from(parent))), 'review-1.2.statechart.yaml');
});

test('then .stategate/registry.yaml, then chart ids beside the chart (highest version); nothing found names what was searched', (t) => {
  const ws = tempDir('sg-chart-find-', t);
  const parent = write(ws, 'parent.statechart.yaml', chart('parent'));
  write(ws, 'a.statechart.yaml', chart('lint', '0.9.0'));
  write(ws, 'b.statechart.yaml', chart('lint', '0.10.0'));
  write(ws, 'c.statechart.yaml', chart('lint', '0.2.0'));
  const reg = new ChartRegistry();
  assert.equal(found(reg.findChart('statechart:lint', from(parent))), 'b.statechart.yaml');
  assert.equal(found(reg.findChart('statechart:lint@0.2.0', from(parent))), 'c.statechart.yaml');
  write(ws, 'reg/lint.statechart.yaml', chart('lint', '3.0.0'));
  write(ws, '.stategate/registry.yaml', 'machine_registry:\n  - {id: lint, version: "3.0.0", src: ../reg/lint.statechart.yaml}\n');
  assert.equal(found(reg.findChart('statechart:lint', from(parent))), 'lint.statechart.yaml');
  const missing = reg.findChart('statechart:nope@1.0.0', from(parent));
  assert.ok('problem' in missing);
  assert.match(missing.problem, /`statechart:nope@1.0.0` names no chart: searched the machine_registry of .*parent.statechart.yaml; .*registry.yaml; the chart ids of the \*.statechart.\* files in /);
});
