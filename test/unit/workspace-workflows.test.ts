/**
 * What "Start Workflow Run…" proposes: the workspace's workflows, the one open
 * in the active editor first (so Enter runs the workflow a person is looking at).
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { activeFirst, findWorkflows } from '../../src/engine/formats/workspace-workflows.js';
import { tempDir } from './helpers/temp-dir';

const entry = (file: string) => ({ file: path.resolve('/ws', file) });
const files = (list: ReadonlyArray<{ file: string }>) => list.map((w) => path.relative(path.resolve('/ws'), w.file));

describe('activeFirst', () => {
  const all = ['a.workflow.json', 'b.workflow.json', '.stategate/workflows/c.json'].map(entry);
  const rows: Array<{ description: string; active: string | undefined; expected: string[]; isActive: string | undefined }> = [
    { description: 'no active editor: the workspace order', active: undefined, expected: ['a.workflow.json', 'b.workflow.json', '.stategate/workflows/c.json'], isActive: undefined },
    { description: 'the active editor shows a later workflow: it comes first', active: '/ws/.stategate/workflows/c.json', expected: ['.stategate/workflows/c.json', 'a.workflow.json', 'b.workflow.json'], isActive: '.stategate/workflows/c.json' },
    { description: 'the active editor shows the first workflow', active: '/ws/a.workflow.json', expected: ['a.workflow.json', 'b.workflow.json', '.stategate/workflows/c.json'], isActive: 'a.workflow.json' },
    { description: 'the same file written another way', active: '/ws/sub/../b.workflow.json', expected: ['b.workflow.json', 'a.workflow.json', '.stategate/workflows/c.json'], isActive: 'b.workflow.json' },
    { description: 'the active editor shows a file that is not a workflow', active: '/ws/README.md', expected: ['a.workflow.json', 'b.workflow.json', '.stategate/workflows/c.json'], isActive: undefined },
  ];
  for (const row of rows) {
    it(row.description, () => {
      const { ordered, active } = activeFirst(all, row.active);
      assert.deepEqual(files(ordered), row.expected);
      assert.equal(active && files([active])[0], row.isActive);
    });
  }

  it('leaves the list it was given alone', () => {
    activeFirst(all, '/ws/b.workflow.json');
    assert.deepEqual(files(all), ['a.workflow.json', 'b.workflow.json', '.stategate/workflows/c.json']);
  });
});

describe('the workflows proposed for a workspace', () => {
  const root = tempDir('sg-workflows-');
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const workflow = (id: string) => JSON.stringify({ id, initial: 's', states: { s: { type: 'final' } } });
  fs.writeFileSync(path.join(root, 'alpha.workflow.json'), workflow('alpha'));
  fs.writeFileSync(path.join(root, 'zeta.workflow.json'), workflow('zeta'));

  it('start with the one open in the active editor, not the first of the workspace', () => {
    const { ordered } = activeFirst(findWorkflows(root), path.join(root, 'zeta.workflow.json'));
    assert.deepEqual(ordered.map((w) => w.id), ['zeta', 'alpha']);
  });
});
